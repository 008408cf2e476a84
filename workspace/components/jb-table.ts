// <jb-table>: a result table. Click a header to sort (again: descending, again: unsorted), type to filter,
// drag a header's right edge to resize; times in ms/s, numbers grouped, long ids cut in the middle with the
// full value in the tooltip. Long results show their first 10 rows until "show all"; then only the visible
// rows are in the DOM, so a million-row result scrolls like a ten-row one.
import { LitElement, css, html, nothing } from "lit";
import { middleEllipsis } from "../../charts/format-value";
import { absoluteTitle, cellText, tableRows, type ColumnsLike, type RowQuery } from "../app/table-rows";

const ROW = 24;
const HEAD_ROWS = 10;
/** px per character at 12px system-ui: sets the default widths and where the middle ellipsis cuts */
const CHAR = 7;
const PAD = 14;

export class JbTable extends LitElement {
  static override properties = {
    table: { attribute: false },
    query: { state: true },
    widths: { state: true },
  };
  declare table: ColumnsLike | undefined;
  /** the filter and sort the reader chose; kept when the cell re-runs */
  declare query: RowQuery;
  /** column name -> width in px, once dragged */
  declare widths: Record<string, number>;
  /** scroll position and "show all": re-rendered by hand, as they change */
  private scrolled = 0;
  private expanded = false;
  private rows: number[] = [];
  private auto = new Map<string, number>();

  constructor() {
    super();
    this.query = {};
    this.widths = {};
  }

  static override styles = css`
    :host {
      display: block;
      font-size: 12px;
      max-width: 100%;
    }
    .tools {
      display: flex;
      gap: 8px;
      align-items: center;
      margin-bottom: 4px;
      color: var(--jb-muted, #5d6678);
    }
    input[type="search"] {
      font: inherit;
      padding: 2px 6px;
      width: 180px;
      color: inherit;
      background: var(--jb-panel, #fff);
      border: 1px solid var(--jb-border, #dfe3ea);
      border-radius: 4px;
    }
    .scroll {
      overflow: auto;
      border: 1px solid var(--jb-border, #dfe3ea);
      position: relative;
    }
    .scroll.virtual {
      max-height: 300px;
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
      background: var(--jb-head, #f1f3f5);
      font-weight: 600;
      z-index: 1;
    }
    .head .c {
      position: relative;
      cursor: pointer;
      user-select: none;
    }
    .grip {
      position: absolute;
      right: 0;
      top: 0;
      bottom: 0;
      width: 6px;
      cursor: col-resize;
    }
    .grip:hover {
      background: var(--jb-border, #dfe3ea);
    }
    .c {
      flex: 0 0 auto;
      box-sizing: border-box;
      overflow: hidden;
      padding: 0 ${PAD / 2}px;
      font-variant-numeric: tabular-nums;
    }
    .c.num {
      text-align: right;
    }
    .n {
      flex: 0 0 56px;
      color: var(--jb-muted, #868e96);
      text-align: right;
      padding-right: 8px;
      box-sizing: border-box;
    }
    button {
      font: inherit;
    }
  `;

  override willUpdate(changed: Map<string, unknown>) {
    // A re-run cell keeps its sort, filter and widths; only the default widths are measured again.
    if (changed.has("table")) this.auto.clear();
    if (changed.has("table") || changed.has("query"))
      this.rows = this.table ? tableRows(this.table, this.query) : [];
  }

  /** Default width: the header or the widest of the first rows' text, between 60 and 360 px. */
  private width(name: string): number {
    const known = this.widths[name] ?? this.auto.get(name);
    if (known !== undefined) return known;
    let chars = name.length + 2; // room for the sort arrow
    for (let i = 0; i < Math.min(50, this.table!.numRows); i++)
      chars = Math.max(chars, cellText(this.table!, name, i).length);
    const width = Math.min(360, Math.max(60, chars * CHAR + PAD));
    this.auto.set(name, width);
    return width;
  }

  private view(change: { scrolled?: number; expanded?: boolean }) {
    Object.assign(this, change);
    this.requestUpdate();
  }

  private sortBy(column: string) {
    const s = this.query.sort;
    const sort =
      s?.column !== column
        ? { column, descending: false }
        : s.descending
          ? undefined
          : { column, descending: true };
    this.query = { ...this.query, sort };
  }

  private startResize(e: PointerEvent, name: string) {
    e.stopPropagation();
    const grip = e.target as HTMLElement;
    grip.setPointerCapture(e.pointerId);
    const x0 = e.clientX;
    const w0 = this.width(name);
    const move = (m: PointerEvent) =>
      (this.widths = { ...this.widths, [name]: Math.max(40, Math.round(w0 + m.clientX - x0)) });
    const up = () => {
      grip.removeEventListener("pointermove", move);
      grip.removeEventListener("pointerup", up);
    };
    grip.addEventListener("pointermove", move);
    grip.addEventListener("pointerup", up);
  }

  private cell(t: ColumnsLike, i: number, name: string, width: number, numeric: boolean) {
    const text = cellText(t, name, i);
    const shown = middleEllipsis(text, Math.max(1, Math.floor((width - PAD) / CHAR)));
    // a moment shown from the run's start gives the trace's own clock on hover
    const title = absoluteTitle(t, name, i) ?? (shown === text ? null : text);
    return html`<span class="c ${numeric ? "num" : ""}" style="width:${width}px" title=${title ?? nothing}
      >${shown}</span
    >`;
  }

  override render() {
    const t = this.table;
    if (!t) return nothing;
    const names = t.schema.fields.map((f) => f.name);
    const widths = names.map((n) => this.width(n));
    const columns = names.map((n) => t.getChild(n));
    const numeric = columns.map((vec) => {
      for (let i = 0; i < Math.min(20, t.numRows); i++) {
        const v = vec?.get(i);
        if (v !== null && v !== undefined) return typeof v === "number" || typeof v === "bigint";
      }
      return false;
    });
    const total = 56 + widths.reduce((a, b) => a + b, 0);
    const collapsed = !this.expanded && this.rows.length > HEAD_ROWS;
    const virtual = !collapsed && this.rows.length > HEAD_ROWS;
    const first = virtual ? Math.max(0, Math.floor(this.scrolled / ROW) - 5) : 0;
    const last = collapsed
      ? HEAD_ROWS
      : virtual
        ? Math.min(this.rows.length, first + Math.ceil(300 / ROW) + 10)
        : this.rows.length;
    const sort = this.query.sort;
    const row = (k: number) => {
      const i = this.rows[k]!;
      return html`<div class="row" style=${virtual ? `position:absolute; top:${k * ROW}px` : ""}>
        <span class="n">${i}</span>${names.map((n, c) => this.cell(t, i, n, widths[c]!, numeric[c]!))}
      </div>`;
    };
    const shown = [];
    for (let k = first; k < last; k++) shown.push(row(k));
    const matching = this.rows.length === t.numRows ? "" : `${this.rows.length.toLocaleString("en-US")} of `;
    return html`<div class="tools">
        <input
          type="search"
          placeholder="filter rows…"
          aria-label="filter rows"
          .value=${this.query.filter ?? ""}
          @input=${(e: Event) => (this.query = { ...this.query, filter: (e.target as HTMLInputElement).value })}
        />
        <span class="meta"
          >${matching}${t.numRows.toLocaleString("en-US")} rows × ${names.length} columns</span
        >
      </div>
      <div
        class="scroll ${virtual ? "virtual" : ""}"
        @scroll=${(e: Event) => this.view({ scrolled: (e.target as HTMLElement).scrollTop })}
      >
        <div class="head" role="row" style="width:${total}px">
          <span class="n">#</span>${names.map(
            (n, c) =>
              html`<span
                class="c ${numeric[c] ? "num" : ""}"
                role="columnheader"
                aria-sort=${sort?.column === n ? (sort.descending ? "descending" : "ascending") : "none"}
                style="width:${widths[c]}px"
                title="${n}: click to sort"
                @click=${() => this.sortBy(n)}
                >${n}${sort?.column === n ? (sort.descending ? " ▼" : " ▲") : ""}<span
                  class="grip"
                  @click=${(e: Event) => e.stopPropagation()}
                  @pointerdown=${(e: PointerEvent) => this.startResize(e, n)}
                ></span
              ></span>`,
          )}
        </div>
        ${
          virtual
            ? html`<div style="height:${this.rows.length * ROW}px; width:${total}px; position: relative">
                ${shown}
              </div>`
            : html`<div style="width:${total}px">${shown}</div>`
        }
      </div>
      ${
        collapsed
          ? html`<button class="all" @click=${() => this.view({ expanded: true })}>
              show all ${this.rows.length.toLocaleString("en-US")} rows
            </button>`
          : nothing
      }`;
  }
}
customElements.define("jb-table", JbTable);
