// <jb-code-editor>: CodeMirror 6 for a cell (SQL or TypeScript) or a prose block (Markdown, plain). Shift+Enter
// runs; every keystroke the user types is reported through "code-change" (the notebook autosaves it); text set
// from outside (a move, an undo, the plot form) replaces the editor's state and is not reported back. Keys
// follow the editor's own conventions: Alt+Backspace deletes a word and Alt+↑/↓ move a line on every
// platform, and none of them reach the notebook; Escape (with no completion open) hands focus to the cell frame.
// The CodeMirror view is made when the code is opened or scrolled near the viewport (until then the text is shown
// as plain text), and every view shares one document "selectionchange" listener (editor-views.ts).
import { deleteGroupBackward, deleteGroupForward } from "@codemirror/commands";
import { javascript } from "@codemirror/lang-javascript";
import { sql, type SQLNamespace } from "@codemirror/lang-sql";
import { EditorState, Prec, type Extension } from "@codemirror/state";
import { keymap } from "@codemirror/view";
import { EditorView, basicSetup } from "codemirror";
import { LitElement, css, html, nothing } from "lit";
import { adoptView, dropView, watchVisible } from "./editor-views";

export type EditorLanguage = "sql" | "ts" | "markdown";

export class JbCodeEditor extends LitElement {
  static override properties = {
    code: { attribute: false },
    language: { reflect: true },
    schema: { attribute: false },
  };
  declare code: string;
  declare language: EditorLanguage;
  /** tables and their columns, for SQL completion (@codemirror/lang-sql's `schema`) */
  declare schema: SQLNamespace | undefined;
  private view?: EditorView;

  constructor() {
    super();
    this.code = "";
    this.language = "ts";
    this.schema = undefined;
  }

  static override styles = css`
    :host {
      display: block;
      border: 1px solid var(--jb-border, #dfe3ea);
      border-radius: 4px;
      /* a light editor in both schemes: CodeMirror's default highlight colours are made for it */
      background: #fff;
      color: #1d2330;
      color-scheme: light;
    }
    .cm-editor {
      font-size: 13px;
    }
    .cm-editor.cm-focused {
      outline: 2px solid #a5b4fc;
    }
    /* the text before its editor is made, in CodeMirror's lines (13 px, 1.4) and padding: making it moves nothing */
    pre.lazy {
      margin: 0;
      padding: 4px 2px 4px 36px;
      font: 13px/1.4 monospace;
      white-space: pre;
      overflow-x: auto;
    }
    :host([language="markdown"]) pre.lazy {
      white-space: pre-wrap;
    }
  `;

  private emit(name: keyof CodeEditorEvents, detail?: string) {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  private extensions(): Extension[] {
    const run = () => {
      this.emit("run-cell", this.view!.state.doc.toString());
      return true;
    };
    const language =
      this.language === "sql"
        ? sql({ schema: this.schema, upperCaseKeywords: true })
        : this.language === "ts"
          ? javascript({ typescript: true })
          : EditorView.lineWrapping;
    return [
      Prec.highest(
        keymap.of([
          { key: "Shift-Enter", run },
          { key: "Mod-Enter", run },
          // CodeMirror binds these on macOS only; elsewhere they reached the notebook and deleted the cell.
          { key: "Alt-Backspace", run: deleteGroupBackward, preventDefault: true },
          { key: "Alt-Delete", run: deleteGroupForward, preventDefault: true },
        ]),
      ),
      basicSetup,
      // Below basicSetup: an open completion list takes Escape first.
      Prec.low(
        keymap.of([
          {
            key: "Escape",
            run: () => {
              this.emit("editor-escape");
              return true;
            },
          },
        ]),
      ),
      language,
      EditorView.updateListener.of((u) => {
        if (u.docChanged) this.emit("code-change", u.state.doc.toString());
      }),
      EditorView.domEventHandlers({
        blur: () => {
          this.emit("editor-blur", this.view!.state.doc.toString());
          return false;
        },
        // Editing keys stay in the editor: the notebook's cell shortcuts are for the cell frame only.
        keydown: (e) => {
          if (e.altKey || e.key === "?" || ((e.ctrlKey || e.metaKey) && e.key === "z")) e.stopPropagation();
          return false;
        },
      }),
    ];
  }

  /** where CodeMirror's DOM goes: a node of its own, so a render never clears it */
  private readonly mount = document.createElement("div");
  private unwatch?: () => void;
  private details?: HTMLDetailsElement | null;
  // Opened (by the user, or by the render that made it open): made once it is near the viewport, at once if it is.
  private readonly onToggle = () => {
    if (this.details?.open) this.arm();
  };

  override connectedCallback() {
    super.connectedCallback();
    this.details = this.closest("details");
    this.details?.addEventListener("toggle", this.onToggle);
    if (this.hasUpdated) this.arm();
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.details?.removeEventListener("toggle", this.onToggle);
    this.unwatch?.();
    this.unwatch = undefined;
    // Gone from the page (its cell deleted or the notebook closed): its listeners go too; made again if it returns.
    if (this.view) {
      this.code = this.view.state.doc.toString();
      dropView(this.view);
      this.view.destroy();
      this.view = undefined;
    }
  }

  override firstUpdated() {
    this.arm();
  }

  /** Not in a closed <details>: the view is made when it comes near the viewport. */
  private arm() {
    if (this.view || this.unwatch || this.details?.open === false) return;
    this.unwatch = watchVisible(this, () => this.materialize());
  }

  /** Makes the CodeMirror view, once. */
  private materialize() {
    if (this.view) return;
    this.unwatch?.();
    this.unwatch = undefined;
    this.view = new EditorView({
      doc: this.code,
      parent: this.mount,
      root: this.renderRoot as ShadowRoot,
      extensions: this.extensions(),
    });
    adoptView(this.view);
    this.requestUpdate();
  }

  /** The CodeMirror view has been made (tests count them). */
  get created(): boolean {
    return this.view !== undefined;
  }

  /** Text, language or schema set from outside: a fresh editor state (its undo history was another text's). */
  override updated(changed: Map<string, unknown>) {
    if (!this.view) return;
    const text = changed.has("code") && this.view.state.doc.toString() !== this.code;
    if (text || changed.has("language") || changed.has("schema")) {
      const doc = text ? this.code : this.view.state.doc.toString();
      const selection = text ? undefined : this.view.state.selection;
      this.view.setState(EditorState.create({ doc, selection, extensions: this.extensions() }));
    }
  }

  get value(): string {
    return this.view?.state.doc.toString() ?? this.code;
  }

  override focus() {
    this.materialize();
    // A new cell's editor is focused before its first render has put the view in the page: focus it once there.
    if (this.mount.isConnected) this.view?.focus();
    else void this.updateComplete.then(() => this.view?.focus());
  }

  override render() {
    // CodeMirror shows a line after a final newline (and one for no text); a <pre> shows neither. One template
    // either way: another would take the editor out of the page and back, and its focus with it.
    const text = this.code === "" || this.code.endsWith("\n") ? `${this.code} ` : this.code;
    return html`${this.mount}${this.view ? nothing : html`<pre class="lazy">${text}</pre>`}`;
  }
}
customElements.define("jb-code-editor", JbCodeEditor);

/** What <jb-code-editor> dispatches: the editor's text as detail, but for "editor-escape". */
interface CodeEditorEvents {
  /** the user typed (not text set through `code`) */
  "code-change": CustomEvent<string>;
  /** Shift+Enter or Mod+Enter: run this code */
  "run-cell": CustomEvent<string>;
  /** the editor lost focus, with its text */
  "editor-blur": CustomEvent<string>;
  /** Escape: leave the editor */
  "editor-escape": CustomEvent<undefined>;
}

declare global {
  interface HTMLElementEventMap extends CodeEditorEvents {}
}
