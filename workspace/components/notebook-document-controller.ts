// <jb-notebook>'s document, as a Lit ReactiveController: the notebook as it last ran, the unrun edits beside it
// (notebook-drafts.ts), every keystroke autosaved, and each structural change undoable (undo-controller.ts) with a
// toast saying what changed (toast-controller.ts). What runs goes through the runtime controller.
import type { ReactiveController, ReactiveControllerHost } from "lit";
import { saveDraft } from "../app/autosave";
import { parseNotebook, serializeNotebook, type Notebook } from "../notebook/format";
import { NotebookDrafts } from "./notebook-drafts";
import type { NotebookRuntimeController } from "./notebook-runtime-controller";
import { ToastController } from "./toast-controller";
import { UndoController } from "./undo-controller";

export interface NotebookDocumentHost extends ReactiveControllerHost {
  /** the autosave key */
  readonly path: string;
}

export class NotebookDocumentController implements ReactiveController {
  /** the notebook as it last ran (undefined until one is open) */
  nb: Notebook | undefined;
  /** unrun edits by cell id */
  drafts = new NotebookDrafts();
  /** the last structural change, with Undo */
  readonly toasts: ToastController<string>;
  /** what ran before each change, and the unrun edits then */
  private readonly history: UndoController<{ text: string; drafts: Map<string, string> }>;

  constructor(
    private readonly host: NotebookDocumentHost,
    private readonly runner: NotebookRuntimeController,
  ) {
    this.toasts = new ToastController(host, 8000);
    this.history = new UndoController(host);
    host.addController(this);
  }

  hostConnected() {}

  /** Opens `text`: its unrun edits start empty (the undo stack stays, as the element's own history). */
  open(text: string): Notebook {
    this.nb = parseNotebook(text);
    this.drafts.clear();
    return this.nb;
  }

  /** The notebook text with every unrun draft applied: what autosave keeps and save writes. */
  text(): string | undefined {
    return this.nb && this.drafts.applied(this.nb);
  }

  get canUndo(): boolean {
    return this.history.canUndo;
  }

  private autosave() {
    saveDraft(this.host.path, this.text()!);
  }

  /** A structural change: undoable; unrun edits of the cells that remain are kept. */
  private pushUndo() {
    this.history.push({ text: serializeNotebook(this.nb!), drafts: new Map(this.drafts) });
  }

  /** `next` replaces the notebook and runs; undoable, with `toast` saying what changed. */
  commit(next: Notebook, toast?: string) {
    this.pushUndo();
    this.nb = next;
    this.drafts.keepOnly(next);
    this.runner.rt!.load(next);
    this.autosave();
    if (toast) this.toasts.show(toast);
    this.host.requestUpdate();
  }

  /** Runs the cell at block `index` with `source`: unedited, it runs again all the same, with its dependents. */
  runCell(index: number, source: string) {
    const block = this.nb!.blocks[index];
    if (block?.type !== "cell") return;
    const rt = this.runner.rt!;
    if (source === block.source) {
      rt.rerun((a) => a.id === block.id);
      this.drafts.delete(block.id);
      this.host.requestUpdate();
      return;
    }
    this.pushUndo();
    rt.setCellSource(block.id, source);
    this.nb = rt.notebook;
    this.drafts.delete(block.id);
    this.autosave();
    this.host.requestUpdate();
  }

  /** Applies every draft, then runs every cell, edited or not (Run all means all). */
  runAll() {
    for (const [id, source] of [...this.drafts]) {
      const index = this.nb!.blocks.findIndex((b) => b.type === "cell" && b.id === id);
      if (index >= 0) this.runCell(index, source);
    }
    this.runner.rt?.rerun();
  }

  /** The editor's text for the cell at block `index`, kept (and autosaved) until it runs. */
  edit(index: number, text: string) {
    const block = this.nb!.blocks[index];
    if (block?.type !== "cell") return;
    const changed = this.drafts.edit(block, text);
    this.autosave();
    // The badge only changes when the code starts or stops differing from what last ran.
    if (changed) this.host.requestUpdate();
  }

  /** Goes back to before the last structural change; false when there is none. */
  undo(): boolean {
    const previous = this.history.pop();
    if (previous === undefined) return false;
    this.nb = parseNotebook(previous.text);
    this.drafts = new NotebookDrafts(previous.drafts);
    this.runner.rt!.load(this.nb);
    this.toasts.clear();
    this.autosave();
    this.host.requestUpdate();
    return true;
  }
}
