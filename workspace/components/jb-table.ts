// <jb-table>: a result table with virtual scrolling: only the visible rows are in the DOM, so a
// million-row result scrolls like a ten-row one.
import { LitElement, css, html } from "lit";

interface TableLike {
  numRows: number;
  schema: { fields: { name: string; type: unknown }[] };
  get(i: number): Record<string, unknown> | null;
}

const ROW = 24;

function cellText(v: unknown): string {
  if (v === null || v === undefined) return "∅";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : v.toPrecision(6).replace(/\.?0+$/, "");
  if (typeof v === "object" && v !== null && "toArray" in v)
    return JSON.stringify([...(v as { toArray(): unknown[] }).toArray()]);
  return String(v);
}

export class JbTable extends LitElement {
  static override properties = { table: { attribute: false }, scrollTop: { state: true } };
  declare table: TableLike | undefined;
  declare scrollTop: number;

  constructor() {
    super();
    this.scrollTop = 0;
  }

  static override styles = css`
    :host {
      display: block;
      font-size: 12px;
    }
    .scroll {
      max-height: 300px;
      overflow: auto;
      border: 1px solid var(--jb-border, #dfe3ea);
      position: relative;
    }
    .head,
    .row {
      display: flex;
      height: ${ROW}px;
      align-items: center;
      white-space: nowrap;
    }
    .head {
      position: sticky;
      top: 0;
      background: #f1f3f5;
      font-weight: 600;
      z-index: 1;
    }
    .c {
      flex: 0 0 140px;
      overflow: hidden;
      text-overflow: ellipsis;
      padding: 0 6px;
      font-variant-numeric: tabular-nums;
    }
    .n {
      flex: 0 0 56px;
      color: #868e96;
      text-align: right;
      padding-right: 8px;
    }
    .meta {
      color: var(--jb-muted, #5d6678);
      margin-top: 2px;
    }
  `;

  override render() {
    const t = this.table;
    if (!t) return html``;
    const names = t.schema.fields.map((f) => f.name);
    const first = Math.max(0, Math.floor(this.scrollTop / ROW) - 5);
    const last = Math.min(t.numRows, first + Math.ceil(300 / ROW) + 10);
    const rows = [];
    for (let i = first; i < last; i++) rows.push(i);
    const width = 56 + names.length * 140;
    return html`<div
        class="scroll"
        @scroll=${(e: Event) => (this.scrollTop = (e.target as HTMLElement).scrollTop)}
      >
        <div class="head" style="width:${width}px">
          <span class="n">#</span>${names.map((n) => html`<span class="c" title=${n}>${n}</span>`)}
        </div>
        <div style="height:${t.numRows * ROW}px; width:${width}px; position: relative">
          ${rows.map((i) => {
            const r = t.get(i) ?? {};
            return html`<div class="row" style="position:absolute; top:${i * ROW}px">
              <span class="n">${i}</span>${names.map((n) => html`<span class="c">${cellText(r[n])}</span>`)}
            </div>`;
          })}
        </div>
      </div>
      <div class="meta">${t.numRows.toLocaleString()} rows × ${names.length} columns</div>`;
  }
}
customElements.define("jb-table", JbTable);
