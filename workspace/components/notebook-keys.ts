// The notebook's keyboard, as a Lit ReactiveController (jb-shortcuts.ts lists the keys): cell shortcuts act on a
// focused cell frame only, never inside an editor; listened for on the window, because "anywhere outside an
// editor" includes the page around the notebook (focus falls back to the body when a clicked button goes away).
import type { ReactiveController, ReactiveControllerHost } from "lit";

/** What the keys do: the notebook element's own actions. */
export interface NotebookKeyActions extends ReactiveControllerHost {
  readonly renderRoot: HTMLElement | DocumentFragment;
  /** a notebook is open */
  readonly ready: boolean;
  shortcutsOpen: boolean;
  undo(): void;
  runAll(): void;
  moveCell(index: number, delta: -1 | 1): void;
  deleteCell(index: number): void;
  addCell(after: number): void;
  /** Shift+Enter on a frame: run the cell's code as edited */
  runEdited(index: number): void;
  focusBlock(index: number, editor: boolean): Promise<void>;
  focusNeighbour(index: number, delta: -1 | 1): void;
}

/** Is the key meant for a text field (an editor, an input, a select)? Then no notebook shortcut applies. */
export function inEditable(e: Event): boolean {
  return e.composedPath().some((t) => {
    const el = t as HTMLElement;
    return (
      el.tagName === "JB-CODE-EDITOR" ||
      el.tagName === "INPUT" ||
      el.tagName === "TEXTAREA" ||
      el.tagName === "SELECT" ||
      el.isContentEditable === true
    );
  });
}

export class NotebookKeysController implements ReactiveController {
  private readonly listener = (e: KeyboardEvent) => this.onKey(e);

  constructor(private readonly host: NotebookKeyActions) {
    host.addController(this);
  }

  hostConnected() {
    window.addEventListener("keydown", this.listener);
  }

  hostDisconnected() {
    window.removeEventListener("keydown", this.listener);
  }

  onKey(e: KeyboardEvent) {
    const host = this.host;
    if (!host.ready || e.defaultPrevented || inEditable(e)) return;
    const frame = e.composedPath()[0] as HTMLElement;
    const onFrame = frame.classList?.contains("cell") && frame.getRootNode() === host.renderRoot;
    const index = onFrame ? Number(frame.dataset.index) : -1;
    const mod = e.ctrlKey || e.metaKey;
    if (e.key === "?") host.shortcutsOpen = true;
    else if (e.key === "Escape" && host.shortcutsOpen) host.shortcutsOpen = false;
    else if (mod && !e.shiftKey && (e.key === "z" || e.key === "Z")) host.undo();
    else if (e.altKey && e.key === "Enter") host.runAll();
    else if (index < 0) return;
    else if (e.altKey && e.key === "ArrowUp") host.moveCell(index, -1);
    else if (e.altKey && e.key === "ArrowDown") host.moveCell(index, 1);
    else if (e.altKey && e.key === "Backspace") host.deleteCell(index);
    else if (e.altKey && (e.key === "n" || e.key === "N")) host.addCell(index);
    else if (e.key === "Enter" && e.shiftKey) host.runEdited(index);
    else if (e.key === "Enter") void host.focusBlock(index, true);
    else if (e.key === "ArrowUp" || e.key === "ArrowDown")
      host.focusNeighbour(index, e.key === "ArrowUp" ? -1 : 1);
    else return;
    e.preventDefault();
  }
}
