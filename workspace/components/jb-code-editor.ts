// <jb-code-editor>: CodeMirror 6 for a cell (SQL or TypeScript). Shift+Enter runs; every keystroke is
// reported (the notebook autosaves it) through "code-change"; runs go out as "run-cell".
import { javascript } from "@codemirror/lang-javascript";
import { sql } from "@codemirror/lang-sql";
import { Prec } from "@codemirror/state";
import { keymap } from "@codemirror/view";
import { EditorView, basicSetup } from "codemirror";
import { LitElement, css, html } from "lit";

export class JbCodeEditor extends LitElement {
  static override properties = { code: { attribute: false }, language: {} };
  declare code: string;
  declare language: "sql" | "ts";
  private view?: EditorView;

  constructor() {
    super();
    this.code = "";
    this.language = "ts";
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
  `;

  override firstUpdated() {
    const run = () => {
      this.dispatchEvent(
        new CustomEvent("run-cell", {
          detail: this.view!.state.doc.toString(),
          bubbles: true,
          composed: true,
        }),
      );
      return true;
    };
    this.view = new EditorView({
      doc: this.code,
      parent: this.renderRoot as unknown as Element,
      root: this.renderRoot as ShadowRoot,
      extensions: [
        Prec.highest(
          keymap.of([
            { key: "Shift-Enter", run },
            { key: "Mod-Enter", run },
          ]),
        ),
        basicSetup,
        this.language === "sql" ? sql() : javascript({ typescript: true }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged)
            this.dispatchEvent(
              new CustomEvent("code-change", {
                detail: u.state.doc.toString(),
                bubbles: true,
                composed: true,
              }),
            );
        }),
      ],
    });
  }

  /** Replaces the text (e.g. after the plot form rewrote the cell) unless it is already that. */
  override updated(changed: Map<string, unknown>) {
    if (changed.has("code") && this.view && this.view.state.doc.toString() !== this.code)
      this.view.dispatch({ changes: { from: 0, to: this.view.state.doc.length, insert: this.code } });
  }

  get value(): string {
    return this.view?.state.doc.toString() ?? this.code;
  }

  override focus() {
    this.view?.focus();
  }

  override render() {
    return html``;
  }
}
customElements.define("jb-code-editor", JbCodeEditor);
