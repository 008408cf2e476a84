// <jb-schema>: the loaded tables with their row counts and column types, for writing SQL cells.
import { LitElement, css, html } from "lit";
import type { TableInfo } from "../db/engine";

export class JbSchema extends LitElement {
  static override properties = { tables: { attribute: false } };
  declare tables: TableInfo[];

  constructor() {
    super();
    this.tables = [];
  }

  static override styles = css`
    :host {
      display: block;
      font-size: 12px;
    }
    details {
      margin: 2px 0;
    }
    summary {
      cursor: pointer;
      font-family: ui-monospace, monospace;
    }
    .rows {
      color: var(--jb-muted, #5d6678);
    }
    ul {
      margin: 2px 0 6px;
      padding-left: 18px;
      font-family: ui-monospace, monospace;
    }
    .type {
      color: #7048e8;
    }
  `;

  override render() {
    return html`${this.tables.map(
      (t) =>
        html`<details>
          <summary>${t.name} <span class="rows">${t.rows.toLocaleString()} rows</span></summary>
          <ul>
            ${t.columns.map((c) => html`<li>${c.name} <span class="type">${c.type}</span></li>`)}
          </ul>
        </details>`,
    )}`;
  }
}
customElements.define("jb-schema", JbSchema);
