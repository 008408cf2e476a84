// <jb-notebook>: a notebook on the reactive runtime. Cells edit in CodeMirror and run with Shift+Enter;
// inputs and selections re-run exactly their dependents; every keystroke is autosaved; plot-form edits are
// written back into the cell's code. Keyboard (outside an editor): Alt+Enter run all, Alt+N add a cell
// below, Alt+↑/↓ move, Alt+Backspace delete, Ctrl/Cmd+Z undo the last notebook change.
import * as Inputs from "@observablehq/inputs";
import { LitElement, css, html, nothing } from "lit";
import { unsafeHTML } from "lit/directives/unsafe-html.js";
import type { SqlEngine } from "../db/engine";
import {
  insertCell,
  parseNotebook,
  removeCell,
  serializeNotebook,
  type Block,
  type Cell,
  type Notebook,
} from "../notebook/format";
import { setPlotFields, type PlotFields } from "../notebook/plot-edit";
import { NotebookRuntime, type CellState } from "../notebook/runtime";
import { snapshotNotebook, type NotebookSnapshot } from "../notebook/snapshot";
import { sanitize } from "../publish/browser-sanitize";
import { renderMarkdown } from "../publish/publish";
import { clearDraft, saveDraft } from "../app/autosave";
import { ANALYSES, type PaletteEntry } from "../app/analysis-palette";
import { headingIds } from "../app/heading-ids";
import "./jb-code-editor";
import "./jb-output";

export class JbNotebook extends LitElement {
  static override properties = {
    engine: { attribute: false },
    text: { attribute: false },
    path: {},
    focusIndex: { state: true },
  };
  declare engine: SqlEngine | undefined;
  /** the notebook's text when opened (or recovered); later edits live in `nb` and the drafts */
  declare text: string;
  /** autosave key */
  declare path: string;
  declare focusIndex: number;

  private nb?: Notebook;
  private rt?: NotebookRuntime;
  private drafts = new Map<number, string>();
  private undoStack: string[] = [];
  private frame = 0;
  private headingKey = "";

  constructor() {
    super();
    this.text = "";
    this.path = "notebook.md";
    this.focusIndex = -1;
  }

  static override styles = css`
    :host {
      display: block;
    }
    .block {
      margin: 0 0 10px;
      border-left: 3px solid transparent;
      padding-left: 10px;
    }
    .block.focused {
      border-left-color: var(--jb-accent, #3b5bdb);
    }
    .prose :first-child {
      margin-top: 0;
    }
    .prose :is(h1, h2, h3) {
      scroll-margin-top: 56px; /* below the sticky toolbar */
    }
    .bar {
      display: flex;
      gap: 8px;
      align-items: center;
      font-size: 11px;
      color: var(--jb-muted, #5d6678);
      margin: 2px 0;
    }
    .bar .name {
      font-family: ui-monospace, monospace;
    }
    .bar button {
      font-size: 11px;
    }
    .status-pending {
      color: var(--jb-warn, #b35c00);
    }
    .status-rejected {
      color: var(--jb-bad, #c92a2a);
    }
    .error {
      color: var(--jb-bad, #c92a2a);
      background: var(--jb-bad-bg, #fff5f5);
      border: 1px solid var(--jb-bad-border, #ffc9c9);
      border-radius: 4px;
      padding: 6px 8px;
      font-family: ui-monospace, monospace;
      font-size: 12px;
      white-space: pre-wrap;
    }
    details.code > summary {
      cursor: pointer;
      font-size: 11px;
      color: var(--jb-muted, #5d6678);
    }
    .draft {
      color: var(--jb-warn, #b35c00);
    }
    .toolbar {
      display: flex;
      gap: 8px;
      margin-bottom: 12px;
      position: sticky;
      top: 0;
      background: var(--jb-panel, #fff);
      padding: 6px 0;
      z-index: 2;
      border-bottom: 1px solid var(--jb-border, #dfe3ea);
    }
  `;

  override connectedCallback() {
    super.connectedCallback();
    this.addEventListener("keydown", (e) => this.onKey(e));
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.rt?.dispose();
  }

  override willUpdate(changed: Map<string, unknown>) {
    if ((changed.has("text") || changed.has("engine")) && this.engine) this.open(this.text);
  }

  private open(text: string) {
    this.rt?.dispose();
    this.nb = parseNotebook(text);
    this.drafts.clear();
    this.rt = new NotebookRuntime({
      engine: this.engine!,
      builtins: { Inputs },
      isGlobal: (name) => name in globalThis,
      onCell: () => this.schedule(),
    });
    this.rt.load(this.nb);
  }

  /** Hook for <jb-toc> (issue 19): ids on the prose headings, and a "headings" event when they change. */
  override updated() {
    const found = [...this.renderRoot.querySelectorAll<HTMLElement>(".prose :is(h1, h2, h3)")];
    const ids = headingIds(found.map((h) => h.textContent ?? ""));
    const headings = found.map((h, i) => {
      h.id = ids[i]!;
      return { id: ids[i]!, text: (h.textContent ?? "").trim(), level: Number(h.tagName[1]) };
    });
    const key = JSON.stringify(headings);
    if (key === this.headingKey) return;
    this.headingKey = key;
    this.dispatchEvent(new CustomEvent("headings", { detail: headings, bubbles: true, composed: true }));
  }

  /** One re-render per animation frame, however many cells settle in it. */
  private schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.requestUpdate();
    });
  }

  /** The notebook text with every unrun draft applied: what autosave keeps and save writes. */
  currentText(): string {
    if (!this.nb) return this.text;
    const blocks = this.nb.blocks.map((b, i) => {
      const d = this.drafts.get(i);
      if (d === undefined) return b;
      return b.type === "cell"
        ? { ...b, source: d.endsWith("\n") || d === "" ? d : d + "\n" }
        : { ...b, text: d };
    });
    return serializeNotebook({ ...this.nb, blocks });
  }

  get runtime(): NotebookRuntime | undefined {
    return this.rt;
  }

  /** Every cell's value as JSON once the notebook settles: the browser half of the parity test (issue 9). */
  async snapshot(): Promise<NotebookSnapshot> {
    if (!this.rt) throw new Error("no notebook is open");
    await this.rt.settled(60_000);
    return snapshotNotebook(this.rt);
  }

  private commit(next: Notebook) {
    this.undoStack.push(serializeNotebook(this.nb!));
    this.nb = next;
    this.drafts.clear();
    this.rt!.load(next);
    saveDraft(this.path, serializeNotebook(next));
    this.requestUpdate();
  }

  private runCell(index: number, source: string) {
    const block = this.nb!.blocks[index];
    if (block?.type !== "cell") return;
    this.undoStack.push(serializeNotebook(this.nb!));
    this.rt!.setCellSource(block.id, source);
    this.nb = this.rt!.notebook;
    this.drafts.delete(index);
    saveDraft(this.path, this.currentText());
    this.requestUpdate();
  }

  runAll() {
    for (const [index, source] of [...this.drafts]) {
      const block = this.nb!.blocks[index];
      if (block?.type === "cell") this.runCell(index, source);
      else if (block) this.editProse(index, source);
    }
  }

  private editProse(index: number, text: string) {
    const blocks = this.nb!.blocks.slice();
    blocks[index] = { type: "prose", text };
    this.commit({ ...this.nb!, blocks });
  }

  private onDraft(index: number, text: string) {
    this.drafts.set(index, text);
    saveDraft(this.path, this.currentText());
  }

  private onPlotEdit(index: number, plotIndex: number, fields: PlotFields) {
    const block = this.nb!.blocks[index] as Cell;
    const source = this.drafts.get(index) ?? block.source;
    this.runCell(index, setPlotFields(source, fields, plotIndex));
  }

  addCell(after = this.focusIndex) {
    const at = after < 0 ? this.nb!.blocks.length : after + 1;
    this.commit(insertCell(this.nb!, at, "ts", ""));
    this.focusIndex = at;
  }

  /** Inserts a palette entry's cells after the focused block (at the end when nothing is focused). */
  insertAnalysis(entry: PaletteEntry, after = this.focusIndex) {
    let at = after < 0 ? this.nb!.blocks.length : after + 1;
    let next = this.nb!;
    for (const c of entry.cells) {
      next = insertCell(next, at, c.kind, c.source, c.name);
      at += 2; // the cell and the blank prose line after it
    }
    this.commit(next);
  }

  deleteCell(index = this.focusIndex) {
    const block = this.nb!.blocks[index];
    if (block?.type !== "cell") return;
    this.commit(removeCell(this.nb!, block.id));
  }

  moveCell(index: number, delta: -1 | 1) {
    const block = this.nb!.blocks[index];
    if (block?.type !== "cell") return;
    // Cells move past the neighbouring cell, carrying their source and kind.
    const cellIndexes = this.nb!.blocks.map((b, i) => (b.type === "cell" ? i : -1)).filter((i) => i >= 0);
    const k = cellIndexes.indexOf(index);
    const neighbour = cellIndexes[k + delta];
    if (neighbour === undefined) return;
    const without = removeCell(this.nb!, block.id);
    const target = delta < 0 ? neighbour : neighbour - 1;
    const moved = insertCell(
      without,
      Math.max(0, delta < 0 ? target : target + 2),
      block.kind,
      block.source,
      block.name,
    );
    this.commit(moved);
  }

  undo() {
    const previous = this.undoStack.pop();
    if (previous === undefined) return;
    this.nb = parseNotebook(previous);
    this.drafts.clear();
    this.rt!.load(this.nb);
    saveDraft(this.path, previous);
    this.requestUpdate();
  }

  private onKey(e: KeyboardEvent) {
    const inEditor = e
      .composedPath()
      .some((t) => (t as Element).tagName === "JB-CODE-EDITOR" || (t as Element).tagName === "INPUT");
    if (e.altKey && e.key === "Enter") this.runAll();
    else if (e.altKey && (e.key === "n" || e.key === "N")) this.addCell();
    else if (e.altKey && e.key === "ArrowUp") this.moveCell(this.focusIndex, -1);
    else if (e.altKey && e.key === "ArrowDown") this.moveCell(this.focusIndex, 1);
    else if (e.altKey && e.key === "Backspace") this.deleteCell();
    else if ((e.ctrlKey || e.metaKey) && e.key === "z" && !inEditor) this.undo();
    else return;
    e.preventDefault();
  }

  markSaved() {
    clearDraft(this.path);
  }

  override render() {
    if (!this.nb || !this.rt) return html`<p>no notebook</p>`;
    const states = new Map(this.rt.states().map((s) => [s.id, s]));
    return html`<div class="toolbar">
        <select
          aria-label="insert analysis"
          @change=${(e: Event) => {
            const select = e.target as HTMLSelectElement;
            const entry = ANALYSES[Number(select.value)];
            if (entry) this.insertAnalysis(entry);
            select.value = "";
          }}
        >
          <option value="">Insert analysis…</option>
          ${ANALYSES.map((a, i) => html`<option value=${i}>${a.label}</option>`)}
        </select>
        <button @click=${() => this.addCell()} title="Alt+N">Add cell</button>
        <button @click=${() => this.runAll()} title="Alt+Enter">Run all</button>
        <button @click=${() => this.undo()} title="Ctrl+Z outside an editor">Undo</button>
      </div>
      ${this.nb.blocks.map((b, i) => this.block(b, i, states))}`;
  }

  private block(b: Block, index: number, states: Map<string, CellState>) {
    const focused = index === this.focusIndex ? "focused" : "";
    if (b.type === "prose") {
      if (!b.text.trim()) return nothing;
      return html`<div class="block prose ${focused}" @click=${() => (this.focusIndex = index)}>
        ${unsafeHTML(renderMarkdown(b.text, sanitize))}
      </div>`;
    }
    const s = states.get(b.id);
    let plotIndex = 0;
    return html`<div
      class="block cell ${focused}"
      data-cell=${b.name ?? b.id}
      data-kind=${b.kind}
      @focusin=${() => (this.focusIndex = index)}
    >
      <div class="bar">
        <span class="name"
          >${b.kind}${b.name ? ` ${b.name}` : s?.defines.length ? ` ${s.defines.join(", ")}` : ""}</span
        >
        <span class="status-${s?.status ?? "pending"}"
          >${s?.status ?? "pending"}${s?.ms !== undefined ? ` · ${s.ms.toFixed(0)} ms` : ""}</span
        >
        ${this.drafts.has(index) ? html`<span class="draft">edited, not run (Shift+Enter)</span>` : nothing}
        <button
          title="run (Shift+Enter)"
          @click=${() => this.runCell(index, this.drafts.get(index) ?? b.source)}
        >
          run
        </button>
        <button title="move up (Alt+↑)" @click=${() => this.moveCell(index, -1)}>↑</button>
        <button title="move down (Alt+↓)" @click=${() => this.moveCell(index, 1)}>↓</button>
        <button title="add a cell below (Alt+N)" @click=${() => this.addCell(index)}>+</button>
        <button title="delete (Alt+Backspace)" @click=${() => this.deleteCell(index)}>✕</button>
      </div>
      <details
        class="code"
        ?open=${b.kind === "sql" || !b.source.trim() || this.drafts.has(index) || s?.status === "rejected"}
      >
        <summary>code</summary>
        <jb-code-editor
          .code=${this.drafts.get(index) ?? b.source}
          .language=${b.kind}
          @code-change=${(e: CustomEvent<string>) => this.onDraft(index, e.detail)}
          @run-cell=${(e: CustomEvent<string>) => this.runCell(index, e.detail)}
        ></jb-code-editor>
      </details>
      ${s?.status === "rejected" ? html`<div class="error" role="alert">${s.error}</div>` : nothing}
      ${(s?.displays ?? []).map((d) => {
        const isPlot = typeof d === "object" && d !== null && (d as { __plotSpec?: boolean }).__plotSpec;
        const n = isPlot ? plotIndex++ : 0;
        return html`<jb-output
          .value=${d}
          .plotIndex=${n}
          @plot-edit=${(e: CustomEvent<PlotFields>) => this.onPlotEdit(index, n, e.detail)}
        ></jb-output>`;
      })}
      ${
        s?.checks.length
          ? html`<ul class="checks">
              ${s.checks.map((c) => html`<li class=${c.ok ? "ok" : "status-rejected"}>${c.ok ? "✓" : "✗"} ${c.name}${c.detail ? ` (${c.detail})` : ""}</li>`)}
            </ul>`
          : nothing
      }
    </div>`;
  }
}
customElements.define("jb-notebook", JbNotebook);
