// <jb-notebook>: a notebook on the reactive runtime. Cells edit in CodeMirror and run with Shift+Enter;
// inputs and selections re-run exactly their dependents; every keystroke is autosaved; plot-form edits are
// written back into the cell's code. Prose edits in place (click it; rendered again on blur). Keyboard:
// cell shortcuts act on the focused cell frame only, never inside an editor (jb-shortcuts.ts lists them, `?`
// shows them); every change to the notebook's structure is undoable (Ctrl/Cmd+Z outside an editor, or the toast).
import * as Inputs from "@observablehq/inputs";
import { LitElement, html, nothing } from "lit";
import { unsafeHTML } from "lit/directives/unsafe-html.js";
import { listTables, type SqlEngine } from "../db/engine";
import {
  cells as cellsOf,
  parseNotebook,
  removeCell,
  serializeNotebook,
  type Block,
  type Cell,
  type CellKind,
  type Notebook,
} from "../notebook/format";
import { freshName, insertCells, insertProse, replaceProse } from "../notebook/notebook-edits";
import { freshenCells } from "../notebook/fresh-names";
import { moveCell as moveCellIn } from "../notebook/move-cell";
import { editPlot, plotTargets, type PlotFields, type PlotTarget } from "../../charts/plot-edit";
import { NotebookRuntime, readsTables, type CellState } from "../notebook/runtime";
import { cellStatusName } from "../notebook/cell-state";
import { snapshotNotebook, type NotebookSnapshot } from "../notebook/snapshot";
import { sanitize } from "../publish/browser-sanitize";
import { renderMarkdown } from "../notebook/markdown-render";
import { clearDraft, saveDraft } from "../app/autosave";
import { ANALYSES, type PaletteEntry } from "../app/analysis-palette";
import type { SQLNamespace } from "@codemirror/lang-sql";
import { headingIds } from "../app/heading-ids";
import "./jb-code-editor";
import type { InsertKind } from "./jb-insert-bar";
import "./jb-insert-bar";
import { notebookStyles } from "./jb-notebook-styles";
import { toastStyles } from "./toast-styles";
import "./jb-output";
import "./jb-shortcuts";

/** Same text, give or take the final newline a cell's source keeps in the file. */
const sameCode = (a: string, b: string) => a.replace(/\r?\n$/, "") === b.replace(/\r?\n$/, "");

/** Is the key meant for a text field (an editor, an input, a select)? Then no notebook shortcut applies. */
function inEditable(e: Event): boolean {
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

export class JbNotebook extends LitElement {
  static override properties = {
    engine: { attribute: false },
    text: { attribute: false },
    path: {},
    focusIndex: { state: true },
    runsVersion: { attribute: false },
    tables: { state: true },
    editingProse: { state: true },
    toast: { state: true },
    shortcutsOpen: { state: true },
  };
  /** bumped by the app when runs are added: the cells that read tables re-run, so no answer is stale */
  declare runsVersion: number;
  declare engine: SqlEngine | undefined;
  /** the notebook's text when opened (or recovered); later edits live in `nb` and the drafts */
  declare text: string;
  /** autosave key */
  declare path: string;
  declare focusIndex: number;
  /** the engine's tables: palette entries that need others are greyed out; SQL completion offers them */
  declare tables: { name: string; columns: { name: string }[] }[];
  /** the prose block open in the Markdown editor, or -1 */
  declare editingProse: number;
  declare toast: string | undefined;
  declare shortcutsOpen: boolean;

  private nb?: Notebook;
  private rt?: NotebookRuntime;
  /** unrun edits by cell id (ids are content hashes, so a move keeps them; a run gives the cell a new id) */
  private drafts = new Map<string, string>();
  /** what ran before each change, and the unrun edits then */
  private undoStack: { text: string; drafts: Map<string, string> }[] = [];
  private frame = 0;
  private schema: SQLNamespace | undefined;
  private toastTimer: ReturnType<typeof setTimeout> | undefined;
  private markdownCache = new Map<string, string>();
  private headingKey = "";

  constructor() {
    super();
    this.text = "";
    this.path = "notebook.md";
    this.focusIndex = -1;
    this.tables = [];
    this.editingProse = -1;
    this.toast = undefined;
    this.shortcutsOpen = false;
  }

  static override styles = [toastStyles, notebookStyles];

  // On the window: "anywhere outside an editor" includes the page around the notebook (focus falls back to the
  // body when a clicked button goes away, e.g. the toast's Undo).
  private readonly keyListener = (e: KeyboardEvent) => this.onKey(e);

  override connectedCallback() {
    super.connectedCallback();
    window.addEventListener("keydown", this.keyListener);
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    window.removeEventListener("keydown", this.keyListener);
    this.rt?.dispose();
  }

  override willUpdate(changed: Map<string, unknown>) {
    if ((changed.has("text") || changed.has("engine")) && this.engine) this.open(this.text);
    else if (changed.has("runsVersion") && changed.get("runsVersion") !== undefined) {
      this.rt?.rerun(readsTables);
      // the runs changed: the palette's and SQL completion's tables too
      if (this.engine) void this.loadTables(this.engine);
    }
    if (changed.has("engine") && this.engine) void this.loadTables(this.engine);
    if (changed.has("tables"))
      this.schema = Object.fromEntries(this.tables.map((t) => [t.name, t.columns.map((c) => c.name)]));
  }

  /** The engine's tables, for the palette and SQL completion; none when the engine cannot list them. */
  private async loadTables(engine: SqlEngine) {
    const tables = await listTables(engine).catch(() => []);
    if (engine === this.engine) this.tables = tables;
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

  /** Hook for <jb-toc>: ids on the prose headings, and a "headings" event when they change. */
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
    const blocks = this.nb.blocks.map((b) => {
      const d = b.type === "cell" ? this.drafts.get(b.id) : undefined;
      if (d === undefined || b.type !== "cell") return b;
      return { ...b, source: d.endsWith("\n") || d === "" ? d : d + "\n", close: b.close || "```\n" };
    });
    return serializeNotebook({ ...this.nb, blocks });
  }

  get runtime(): NotebookRuntime | undefined {
    return this.rt;
  }

  /** Every cell's value as JSON once the notebook settles: the browser half of test/browser/parity.test.ts. */
  async snapshot(): Promise<NotebookSnapshot> {
    if (!this.rt) throw new Error("no notebook is open");
    await this.rt.settled(60_000);
    return snapshotNotebook(this.rt);
  }

  /** A structural change: undoable; unrun edits of the cells that remain are kept. */
  private pushUndo() {
    this.undoStack.push({ text: serializeNotebook(this.nb!), drafts: new Map(this.drafts) });
  }

  private commit(next: Notebook, toast?: string) {
    this.pushUndo();
    this.nb = next;
    const ids = new Set(cellsOf(next).map((c) => c.id));
    for (const id of [...this.drafts.keys()]) if (!ids.has(id)) this.drafts.delete(id);
    this.rt!.load(next);
    saveDraft(this.path, this.currentText());
    if (toast) this.showToast(toast);
    this.requestUpdate();
  }

  private showToast(message: string) {
    this.toast = message;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => (this.toast = undefined), 8000);
  }

  private runCell(index: number, source: string) {
    const block = this.nb!.blocks[index];
    if (block?.type !== "cell") return;
    // Unedited: run it again all the same (its run button, Shift+Enter), with its dependents.
    if (source === block.source) {
      this.rt!.rerun((a) => a.id === block.id);
      this.drafts.delete(block.id);
      this.requestUpdate();
      return;
    }
    this.pushUndo();
    this.rt!.setCellSource(block.id, source);
    this.nb = this.rt!.notebook;
    this.drafts.delete(block.id);
    saveDraft(this.path, this.currentText());
    this.requestUpdate();
  }

  /** Applies every draft, then runs every cell, edited or not (Run all means all). */
  runAll() {
    for (const [id, source] of [...this.drafts]) {
      const index = this.nb!.blocks.findIndex((b) => b.type === "cell" && b.id === id);
      if (index >= 0) this.runCell(index, source);
    }
    this.rt?.rerun();
  }

  /** Prose edited in place: re-parsed with the rest, so a fence typed into it becomes a cell. */
  private editProse(index: number, text: string) {
    const next = replaceProse(this.nb!, index, text);
    if (next) this.commit(next, "Prose edited");
  }

  private onDraft(index: number, text: string) {
    const block = this.nb!.blocks[index];
    if (block?.type !== "cell") return;
    const was = this.drafts.has(block.id);
    if (sameCode(text, block.source)) this.drafts.delete(block.id);
    else this.drafts.set(block.id, text);
    saveDraft(this.path, this.currentText());
    // The badge only changes when the code starts or stops differing from what last ran.
    if (was !== this.drafts.has(block.id)) this.requestUpdate();
  }

  private onPlotEdit(index: number, target: PlotTarget, fields: PlotFields) {
    const block = this.nb!.blocks[index] as Cell;
    const source = this.drafts.get(block.id) ?? block.source;
    this.runCell(index, editPlot(source, target, fields));
  }

  /** Block index where something inserted "after block `after`" goes (the end when nothing is selected). */
  private insertionPoint(after: number): number {
    return after < 0 || after >= this.nb!.blocks.length ? this.nb!.blocks.length : after + 1;
  }

  addCell(after = this.focusIndex, kind: CellKind = "ts") {
    const at = this.insertionPoint(after);
    const name = kind === "sql" ? freshName("query", this.defined()) : undefined;
    const { nb, index } = insertCells(this.nb!, at, [{ kind, name, source: "" }]);
    this.commit(nb, `${kind} cell added`);
    this.focusIndex = index;
    void this.focusBlock(index, true);
  }

  /** A Markdown paragraph after block `after`, opened in the editor. */
  addProse(after = this.focusIndex) {
    const { nb, index } = insertProse(this.nb!, this.insertionPoint(after), "New paragraph.\n");
    this.commit(nb, "Markdown added");
    void this.openProse(index);
  }

  /** Every name the notebook's cells define. */
  private defined(): Set<string> {
    return new Set(this.rt!.states().flatMap((s) => s.defines));
  }

  private onInsert(after: number, kind: InsertKind) {
    if (kind === "markdown") this.addProse(after);
    else this.addCell(after, kind);
  }

  /**
   * Inserts a palette entry's cells after the selected block (at the end when nothing is selected), with fresh
   * names for whatever they define that the notebook already defines (fresh-names.ts).
   */
  insertAnalysis(entry: PaletteEntry, after = this.focusIndex) {
    const fresh = freshenCells(entry.cells, this.defined()).cells;
    const { nb, index } = insertCells(this.nb!, this.insertionPoint(after), fresh);
    this.commit(nb, `Inserted ${entry.label}`);
    this.focusIndex = index;
    void this.focusBlock(index, false);
  }

  deleteCell(index = this.focusIndex) {
    const block = this.nb!.blocks[index];
    if (block?.type !== "cell") return;
    this.commit(
      removeCell(this.nb!, block.id),
      `Deleted ${block.kind} cell${block.name ? ` ${block.name}` : ""}`,
    );
  }

  /** Moves the cell at block `index` past one neighbouring cell, with its prose (move-cell.ts); focus follows. */
  moveCell(index: number, delta: -1 | 1) {
    const block = this.nb!.blocks[index];
    if (block?.type !== "cell") return;
    const k = cellsOf(this.nb!).indexOf(block);
    const next = moveCellIn(this.nb!, block.id, delta);
    if (!next) return;
    const draft = this.drafts.get(block.id);
    this.commit(next, `Moved ${block.kind} cell ${delta < 0 ? "up" : "down"}`);
    const moved = cellsOf(next)[k + delta]!;
    if (draft !== undefined) this.drafts.set(moved.id, draft);
    const at = next.blocks.indexOf(moved);
    this.focusIndex = at;
    void this.focusBlock(at, false);
  }

  /** After the next render, focuses the cell frame at block `index` (or its editor). */
  private async focusBlock(index: number, editor: boolean) {
    await this.updateComplete;
    const frame = this.renderRoot.querySelector<HTMLElement>(`.block.cell[data-index="${index}"]`);
    if (!frame) return;
    if (editor) {
      const details = frame.querySelector("details");
      if (details) details.open = true;
      frame.querySelector<HTMLElement>("jb-code-editor")?.focus();
    } else frame.focus();
  }

  undo() {
    const previous = this.undoStack.pop();
    if (previous === undefined) return;
    this.nb = parseNotebook(previous.text);
    this.drafts = previous.drafts;
    this.rt!.load(this.nb);
    this.editingProse = -1;
    this.toast = undefined;
    saveDraft(this.path, this.currentText());
    this.requestUpdate();
  }

  private onKey(e: KeyboardEvent) {
    if (!this.nb || e.defaultPrevented || inEditable(e)) return;
    const frame = e.composedPath()[0] as HTMLElement;
    const onFrame = frame.classList?.contains("cell") && frame.getRootNode() === this.renderRoot;
    const index = onFrame ? Number(frame.dataset.index) : -1;
    const mod = e.ctrlKey || e.metaKey;
    if (e.key === "?") this.shortcutsOpen = true;
    else if (e.key === "Escape" && this.shortcutsOpen) this.shortcutsOpen = false;
    else if (mod && !e.shiftKey && (e.key === "z" || e.key === "Z")) this.undo();
    else if (e.altKey && e.key === "Enter") this.runAll();
    else if (index < 0) return;
    else if (e.altKey && e.key === "ArrowUp") this.moveCell(index, -1);
    else if (e.altKey && e.key === "ArrowDown") this.moveCell(index, 1);
    else if (e.altKey && e.key === "Backspace") this.deleteCell(index);
    else if (e.altKey && (e.key === "n" || e.key === "N")) this.addCell(index);
    else if (e.key === "Enter" && e.shiftKey) this.runCell(index, this.codeOf(index));
    else if (e.key === "Enter") void this.focusBlock(index, true);
    else if (e.key === "ArrowUp" || e.key === "ArrowDown")
      this.focusNeighbour(index, e.key === "ArrowUp" ? -1 : 1);
    else return;
    e.preventDefault();
  }

  private codeOf(index: number): string {
    const b = this.nb!.blocks[index] as Cell;
    return this.drafts.get(b.id) ?? b.source;
  }

  private focusNeighbour(index: number, delta: -1 | 1) {
    const list = this.nb!.blocks.map((b, i) => (b.type === "cell" ? i : -1)).filter((i) => i >= 0);
    const to = list[list.indexOf(index) + delta];
    if (to === undefined) return;
    this.focusIndex = to;
    void this.focusBlock(to, false);
  }

  markSaved() {
    clearDraft(this.path);
  }

  /** Rendered Markdown by text: a notebook re-renders every frame while cells settle; its prose rarely changes. */
  private markdown(text: string): string {
    let out = this.markdownCache.get(text);
    if (out === undefined) {
      if (this.markdownCache.size > 500) this.markdownCache.clear();
      out = renderMarkdown(text, sanitize);
      this.markdownCache.set(text, out);
    }
    return out;
  }

  override render() {
    if (!this.nb || !this.rt) return html`<p>no notebook</p>`;
    const states = new Map(this.rt.states().map((s) => [s.id, s]));
    const tables = new Set(this.tables.map((t) => t.name));
    const hasCells = this.nb.blocks.some((b) => b.type === "cell");
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
          ${ANALYSES.map((a, i) => {
            // Greyed out, with the reason, when a table it reads is not loaded (none are known yet: all offered).
            const missing = tables.size ? a.needs.filter((t) => !tables.has(t)) : [];
            return html`<option
              value=${i}
              ?disabled=${missing.length > 0}
              title=${missing.length ? `needs ${missing.join(", ")}, not loaded` : a.label}
            >
              ${a.label}${missing.length ? ` (needs ${missing.join(", ")})` : ""}
            </option>`;
          })}
        </select>
        <button @click=${() => this.addCell()} title="Alt+N on a cell">Add cell</button>
        <button @click=${() => this.runAll()} title="Alt+Enter">Run all</button>
        <button
          @click=${() => this.undo()}
          ?disabled=${this.undoStack.length === 0}
          title="Ctrl/Cmd+Z outside an editor"
        >
          Undo
        </button>
        <button
          @click=${() => (this.shortcutsOpen = true)}
          title="keyboard shortcuts (?)"
          aria-label="keyboard shortcuts"
        >
          ?
        </button>
      </div>
      ${this.nb.blocks.map((b, i) => this.block(b, i, states))}
      ${hasCells ? nothing : html`<jb-insert-bar @insert=${(e: CustomEvent<InsertKind>) => this.onInsert(this.nb!.blocks.length - 1, e.detail)}></jb-insert-bar>`}
      <jb-shortcuts .open=${this.shortcutsOpen} @close=${() => (this.shortcutsOpen = false)}></jb-shortcuts>
      ${
        this.toast
          ? html`<div class="toast" role="status">
              ${this.toast}
              <button @click=${() => this.undo()}>Undo</button>
            </div>`
          : nothing
      }`;
  }

  private prose(b: Block & { type: "prose" }, index: number, focused: string) {
    if (index === this.editingProse)
      return html`<div class="block prose editing ${focused}">
        <jb-code-editor
          .code=${b.text}
          .language=${"markdown"}
          @editor-blur=${(e: CustomEvent<string>) => this.finishProse(index, e.detail)}
          @editor-escape=${(e: Event) => (e.target as HTMLElement).blur()}
        ></jb-code-editor>
      </div>`;
    if (!b.text.trim()) return nothing;
    return html`<div
      class="block prose ${focused}"
      title="click to edit"
      @click=${(e: MouseEvent) => {
        this.focusIndex = index;
        // A link is followed, not edited.
        if (!e.composedPath().some((t) => (t as Element).tagName === "A")) this.openProse(index);
      }}
    >
      ${unsafeHTML(this.markdown(b.text))}
    </div>`;
  }

  private async openProse(index: number) {
    this.editingProse = index;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(".prose.editing jb-code-editor")?.focus();
  }

  private finishProse(index: number, text: string) {
    if (this.editingProse !== index) return;
    this.editingProse = -1;
    this.editProse(index, text);
  }

  private block(b: Block, index: number, states: Map<string, CellState>) {
    const focused = index === this.focusIndex ? "focused" : "";
    if (b.type === "prose") return this.prose(b, index, focused);
    const s = states.get(b.id);
    const targets = plotTargets(s?.displays ?? []);
    const draft = this.drafts.get(b.id);
    return html`<div
        class="block cell ${focused}"
        tabindex="0"
        data-index=${index}
        data-cell=${b.name ?? b.id}
        data-kind=${b.kind}
        @focusin=${() => (this.focusIndex = index)}
        @editor-escape=${() => void this.focusBlock(index, false)}
      >
        <div class="bar">
          <span class="name"
            >${b.kind}${b.name ? ` ${b.name}` : s?.defines.length ? ` ${s.defines.join(", ")}` : ""}</span
          >
          <span class="status-${cellStatusName(s)}"
            >${cellStatusName(s).replace("-", " ")}${s?.ms !== undefined ? ` · ${s.ms.toFixed(0)} ms` : ""}</span
          >
          ${draft !== undefined ? html`<span class="draft">edited, not run (Shift+Enter)</span>` : nothing}
          <button title="run (Shift+Enter)" @click=${() => this.runCell(index, draft ?? b.source)}>
            run
          </button>
          <button title="move up (Alt+↑ on the cell)" @click=${() => this.moveCell(index, -1)}>↑</button>
          <button title="move down (Alt+↓ on the cell)" @click=${() => this.moveCell(index, 1)}>↓</button>
          <button title="add a cell below (Alt+N on the cell)" @click=${() => this.addCell(index)}>+</button>
          <button title="delete (Alt+Backspace on the cell; undoable)" @click=${() => this.deleteCell(index)}>
            ✕
          </button>
        </div>
        <details
          class="code"
          ?open=${b.kind === "sql" || !b.source.trim() || draft !== undefined || cellStatusName(s) === "rejected"}
        >
          <summary>code</summary>
          <jb-code-editor
            .code=${draft ?? b.source}
            .language=${b.kind}
            .schema=${b.kind === "sql" ? this.schema : undefined}
            @code-change=${(e: CustomEvent<string>) => this.onDraft(index, e.detail)}
            @run-cell=${(e: CustomEvent<string>) => this.runCell(index, e.detail)}
          ></jb-code-editor>
        </details>
        ${
          cellStatusName(s) === "not-applicable"
            ? html`<div class="not-applicable" role="note">
                not applicable to these runs: ${s?.notApplicable}
              </div>`
            : s?.status === "rejected"
              ? html`<div class="error" role="alert">${s.error}</div>`
              : nothing
        }
        ${(s?.displays ?? []).map((d, k) => {
          const target = targets[k];
          return html`<jb-output
            .value=${d}
            @plot-edit=${(e: CustomEvent<PlotFields>) => target && this.onPlotEdit(index, target, e.detail)}
          ></jb-output>`;
        })}
        ${
          s?.checks.length
            ? html`<ul class="checks">
                ${s.checks.map((c) => html`<li class=${c.ok ? "ok" : "status-rejected"}>${c.ok ? "✓" : "✗"} ${c.name}${c.detail ? ` (${c.detail})` : ""}</li>`)}
              </ul>`
            : nothing
        }
      </div>
      <jb-insert-bar
        @insert=${(e: CustomEvent<InsertKind>) => this.onInsert(index, e.detail)}
      ></jb-insert-bar>`;
  }
}
customElements.define("jb-notebook", JbNotebook);
