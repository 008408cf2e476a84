// <jb-notebook>: a notebook on the reactive runtime. Cells edit in CodeMirror and run with Shift+Enter;
// inputs and selections re-run exactly their dependents; every keystroke is autosaved; plot-form edits are
// written back into the cell's code. Prose edits in place (click it; rendered again on blur). Keyboard:
// cell shortcuts act on the focused cell frame only, never inside an editor (jb-shortcuts.ts lists them, `?`
// shows them); every change to the notebook's structure is undoable (Ctrl/Cmd+Z outside an editor, or the toast).
import * as Inputs from "@observablehq/inputs";
import { LitElement, html, nothing } from "lit";
import { listTables, type SqlEngine } from "../db/engine";
import {
  cells as cellsOf,
  parseNotebook,
  removeCell,
  serializeNotebook,
  type Cell,
  type CellKind,
  type Notebook,
} from "../notebook/format";
import { freshName, insertCells, insertProse, replaceProse } from "../notebook/notebook-edits";
import { freshenCells } from "../notebook/fresh-names";
import { moveCell as moveCellIn } from "../notebook/move-cell";
import { editPlot, type PlotFields, type PlotTarget } from "../../charts/plot-edit";
import { NotebookRuntime, readsTables } from "../notebook/runtime";
import { snapshotNotebook, type NotebookSnapshot } from "../notebook/snapshot";
import { sanitize } from "../publish/browser-sanitize";
import { renderMarkdown } from "../notebook/markdown-render";
import { clearDraft, saveDraft } from "../app/autosave";
import type { PaletteEntry } from "../app/analysis-palette";
import type { SQLNamespace } from "@codemirror/lang-sql";
import "./jb-code-editor";
import type { InsertKind } from "./jb-insert-bar";
import "./jb-insert-bar";
import { notebookStyles } from "./jb-notebook-styles";
import { toastStyles } from "./toast-styles";
import { cellBlock, notebookToolbar, proseBlock, type NotebookBlockHost } from "./notebook-blocks";
import { HeadingsController } from "./headings-controller";
import { NotebookDrafts } from "./notebook-drafts";
import { NotebookKeysController, type NotebookKeyActions } from "./notebook-keys";
import { ToastController } from "./toast-controller";
import { UndoController } from "./undo-controller";
import "./jb-output";
import "./jb-shortcuts";
import type { TocHeading } from "./jb-toc";

export class JbNotebook extends LitElement implements NotebookBlockHost, NotebookKeyActions {
  static override properties = {
    engine: { attribute: false },
    text: { attribute: false },
    path: {},
    focusIndex: { state: true },
    runsVersion: { attribute: false },
    inputs: { attribute: false },
    tables: { state: true },
    editingProse: { state: true },
    shortcutsOpen: { state: true },
  };
  /** bumped by the app when runs are added: the cells that read tables re-run, so no answer is stale */
  declare runsVersion: number;
  /**
   * Values for the notebook's inputs by name (the runs marked baseline and candidate): the starting values of
   * inputs that exist when it opens, set on them when they change later.
   */
  declare inputs: Record<string, unknown> | undefined;
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
  declare shortcutsOpen: boolean;
  /** the last structural change, with Undo */
  private readonly toasts = new ToastController(this, 8000);
  /** what ran before each change, and the unrun edits then */
  private readonly undoStack = new UndoController<{ text: string; drafts: Map<string, string> }>(this);

  private nb?: Notebook;
  private rt?: NotebookRuntime;
  /** unrun edits by cell id */
  private drafts = new NotebookDrafts();
  private frame = 0;
  /** the tables' columns, for SQL completion */
  schema: SQLNamespace | undefined;
  private markdownCache = new Map<string, string>();

  constructor() {
    super();
    this.text = "";
    this.path = "notebook.md";
    this.focusIndex = -1;
    this.tables = [];
    this.editingProse = -1;
    this.shortcutsOpen = false;
    new NotebookKeysController(this);
    new HeadingsController(this);
  }

  static override styles = [toastStyles, notebookStyles];

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.rt?.dispose();
  }

  override willUpdate(changed: Map<string, unknown>) {
    if ((changed.has("text") || changed.has("engine")) && this.engine) this.open(this.text);
    else if (changed.has("runsVersion") && changed.get("runsVersion") !== undefined) {
      this.rt?.rerun(readsTables);
      // the runs changed: the palette's and SQL completion's tables too
      if (this.engine) void this.loadTables(this.engine);
    } else if (changed.has("inputs") && changed.get("inputs") !== undefined)
      for (const [name, value] of Object.entries(this.inputs ?? {})) this.rt?.setInput(name, value);
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
    for (const [name, value] of Object.entries(this.inputs ?? {})) this.rt.setInput(name, value);
    this.rt.load(this.nb);
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
    return this.nb ? this.drafts.applied(this.nb) : this.text;
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
    this.drafts.keepOnly(next);
    this.rt!.load(next);
    saveDraft(this.path, this.currentText());
    if (toast) this.toasts.show(toast);
    this.requestUpdate();
  }

  /** a notebook is open (the keys have something to act on) */
  get ready(): boolean {
    return this.nb !== undefined;
  }

  get canUndo(): boolean {
    return this.undoStack.canUndo;
  }

  draftOf(cell: Cell): string | undefined {
    return this.drafts.get(cell.id);
  }

  runCell(index: number, source: string) {
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
  editProse(index: number, text: string) {
    const next = replaceProse(this.nb!, index, text);
    if (next) this.commit(next, "Prose edited");
  }

  onDraft(index: number, text: string) {
    const block = this.nb!.blocks[index];
    if (block?.type !== "cell") return;
    const changed = this.drafts.edit(block, text);
    saveDraft(this.path, this.currentText());
    // The badge only changes when the code starts or stops differing from what last ran.
    if (changed) this.requestUpdate();
  }

  onPlotEdit(index: number, target: PlotTarget, fields: PlotFields) {
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

  onInsert(after: number, kind: InsertKind) {
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
  async focusBlock(index: number, editor: boolean) {
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
    this.drafts = new NotebookDrafts(previous.drafts);
    this.rt!.load(this.nb);
    this.editingProse = -1;
    this.toasts.clear();
    saveDraft(this.path, this.currentText());
    this.requestUpdate();
  }

  /** Shift+Enter on a cell frame: its code as edited runs. */
  runEdited(index: number) {
    const b = this.nb!.blocks[index] as Cell;
    this.runCell(index, this.drafts.get(b.id) ?? b.source);
  }

  focusNeighbour(index: number, delta: -1 | 1) {
    const list = this.nb!.blocks.map((b, i) => (b.type === "cell" ? i : -1)).filter((i) => i >= 0);
    const to = list[list.indexOf(index) + delta];
    if (to === undefined) return;
    this.focusIndex = to;
    void this.focusBlock(to, false);
  }

  markSaved() {
    clearDraft(this.path);
  }

  async openProse(index: number) {
    this.editingProse = index;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(".prose.editing jb-code-editor")?.focus();
  }

  finishProse(index: number, text: string) {
    if (this.editingProse !== index) return;
    this.editingProse = -1;
    this.editProse(index, text);
  }

  /** Rendered Markdown by text: a notebook re-renders every frame while cells settle; its prose rarely changes. */
  markdown(text: string): string {
    let out = this.markdownCache.get(text);
    if (out === undefined) {
      if (this.markdownCache.size > 500) this.markdownCache.clear();
      this.markdownCache.set(text, (out = renderMarkdown(text, sanitize)));
    }
    return out;
  }

  override render() {
    if (!this.nb || !this.rt) return html`<p>no notebook</p>`;
    const states = new Map(this.rt.states().map((s) => [s.id, s]));
    const hasCells = this.nb.blocks.some((b) => b.type === "cell");
    return html`${notebookToolbar(this, new Set(this.tables.map((t) => t.name)))}
      ${this.nb.blocks.map((b, i) =>
        b.type === "prose" ? proseBlock(this, b, i) : cellBlock(this, b, i, states.get(b.id)),
      )}
      ${hasCells ? nothing : html`<jb-insert-bar @insert=${(e: CustomEvent<InsertKind>) => this.onInsert(this.nb!.blocks.length - 1, e.detail)}></jb-insert-bar>`}
      <jb-shortcuts .open=${this.shortcutsOpen} @close=${() => (this.shortcutsOpen = false)}></jb-shortcuts>
      ${
        this.toasts.value
          ? html`<div class="toast" role="status">
              ${this.toasts.value}
              <button @click=${() => this.undo()}>Undo</button>
            </div>`
          : nothing
      }`;
  }
}
customElements.define("jb-notebook", JbNotebook);

declare global {
  interface HTMLElementEventMap {
    /** <jb-notebook>: its prose headings, whenever they change (for <jb-toc>) */
    headings: CustomEvent<TocHeading[]>;
  }
}
