// <jb-insert-bar>: the thin bar under a cell that adds a SQL, TS or Markdown block right there,
// so a cell can be added anywhere, not only at the end. Out through an "insert" event whose detail is the
// kind.
import { LitElement, css, html } from "lit";

export type InsertKind = "sql" | "ts" | "markdown";

export class JbInsertBar extends LitElement {
  static override styles = css`
    :host {
      display: flex;
      gap: 6px;
      margin: 2px 0 8px;
      opacity: 0.35;
      font-size: 11px;
    }
    :host(:hover),
    :host(:focus-within) {
      opacity: 1;
    }
    button {
      font-size: 11px;
      border: 1px dashed var(--jb-border, #c5cbd6);
      background: none;
      border-radius: 3px;
      cursor: pointer;
      padding: 0 6px;
    }
  `;

  private insert(kind: InsertKind) {
    this.dispatchEvent(
      new CustomEvent<InsertKind>("insert", { detail: kind, bubbles: true, composed: true }),
    );
  }

  override render() {
    return html`<button @click=${() => this.insert("sql")} title="add a SQL cell here">+ SQL</button>
      <button @click=${() => this.insert("ts")} title="add a TypeScript cell here">+ TS</button>
      <button @click=${() => this.insert("markdown")} title="add Markdown prose here">+ Markdown</button>`;
  }
}
customElements.define("jb-insert-bar", JbInsertBar);
