// <jb-notebook>: a notebook on the reactive runtime. Cells edit in CodeMirror and run with Shift+Enter;
// inputs and selections re-run exactly their dependents; every keystroke is autosaved; plot-form edits are
// written back into the cell's code. Prose edits in place (click it; rendered again on blur). Keyboard:
// cell shortcuts act on the focused cell frame only, never inside an editor (jb-shortcuts.ts lists them, `?`
// shows them); every change to the notebook's structure is undoable (Ctrl/Cmd+Z outside an editor, or the toast).
import { LitElement, html, nothing } from "lit";
import { guard } from "lit/directives/guard.js";
import type { SqlEngine } from "../db/engine";
import { cells as cellsOf, removeCell, type Cell, type CellKind } from "../notebook/format";
import { freshName, insertCells, insertProse, replaceProse } from "../notebook/notebook-edits";
import { freshenCells } from "../notebook/fresh-names";
import { moveCell as moveCellIn } from "../notebook/move-cell";
import { editPlot, type PlotFields, type PlotTarget } from "../../charts/plot-edit";
import type { NotebookRuntime } from "../notebook/runtime";
import { snapshotNotebook, type NotebookSnapshot } from "../notebook/snapshot";
import { clearDraft } from "../app/autosave";
import type { PaletteEntry } from "../app/analysis-palette";
import type { SQLNamespace } from "@codemirror/lang-sql";
import "./jb-code-editor";
import type { InsertKind } from "./jb-insert-bar";
import "./jb-insert-bar";
import { notebookStyles } from "./jb-notebook-styles";
import { toastStyles } from "./toast-styles";
import { cellBlock, notebookToolbar, proseBlock, sections, type NotebookBlockHost } from "./notebook-blocks";
import { StickyInputsController } from "./sticky-inputs-controller";
import { HeadingsController } from "./headings-controller";
import { NotebookDocumentController } from "./notebook-document-controller";
import { NotebookKeysController, type NotebookKeyActions } from "./notebook-keys";
import { NotebookRuntimeController } from "./notebook-runtime-controller";
import { NotebookTablesController } from "./notebook-tables-controller";
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
  /** the notebook's text when opened (or recovered); later edits live in the document controller */
  declare text: string;
  /** autosave key */
  declare path: string;
  declare focusIndex: number;
  /** the prose block open in the Markdown editor, or -1 */
  declare editingProse: number;
  declare shortcutsOpen: boolean;
  private readonly runner = new NotebookRuntimeController(this);
  private readonly doc = new NotebookDocumentController(this, this.runner);
  /** the engine's tables: palette entries that need others are greyed out; SQL completion offers them */
  private readonly tables = new NotebookTablesController(this);

  constructor() {
    super();
    this.text = "";
    this.path = "notebook.md";
    this.focusIndex = -1;
    this.editingProse = -1;
    this.shortcutsOpen = false;
    new NotebookKeysController(this);
    new HeadingsController(this);
    new StickyInputsController(this);
  }

  static override styles = [toastStyles, notebookStyles];

  override willUpdate(changed: Map<string, unknown>) {
    if ((changed.has("text") || changed.has("engine")) && this.engine)
      this.runner.start(this.doc.open(this.text), this.engine, this.inputs);
    else if (changed.has("runsVersion") && changed.get("runsVersion") !== undefined) {
      this.runner.rerunTables();
      // the runs changed: the palette's and SQL completion's tables too
      if (this.engine) void this.tables.load(this.engine);
    } else if (changed.has("inputs") && changed.get("inputs") !== undefined)
      this.runner.setInputs(this.inputs);
    if (changed.has("engine") && this.engine) void this.tables.load(this.engine);
  }

  /** the tables' columns, for SQL completion */
  get schema(): SQLNamespace {
    return this.tables.schema;
  }

  /** The notebook text with every unrun draft applied: what autosave keeps and save writes. */
  currentText(): string {
    return this.doc.text() ?? this.text;
  }

  get runtime(): NotebookRuntime | undefined {
    return this.runner.rt;
  }

  /** Every cell's value as JSON once the notebook settles: the browser half of test/browser/parity.test.ts. */
  async snapshot(): Promise<NotebookSnapshot> {
    const rt = this.runner.rt;
    if (!rt) throw new Error("no notebook is open");
    await rt.settled(60_000);
    return snapshotNotebook(rt);
  }

  /** a notebook is open (the keys have something to act on) */
  get ready(): boolean {
    return this.doc.nb !== undefined;
  }

  get canUndo(): boolean {
    return this.doc.canUndo;
  }

  draftOf(cell: Cell): string | undefined {
    return this.doc.drafts.get(cell.id);
  }

  runCell(index: number, source: string) {
    this.doc.runCell(index, source);
  }

  /** Applies every draft, then runs every cell, edited or not (Run all means all). */
  runAll() {
    this.doc.runAll();
  }

  /** Prose edited in place: re-parsed with the rest, so a fence typed into it becomes a cell. */
  editProse(index: number, text: string) {
    const next = replaceProse(this.doc.nb!, index, text);
    if (next) this.doc.commit(next, "Prose edited");
  }

  onDraft(index: number, text: string) {
    this.doc.edit(index, text);
  }

  onPlotEdit(index: number, target: PlotTarget, fields: PlotFields) {
    const block = this.doc.nb!.blocks[index] as Cell;
    this.runCell(index, editPlot(this.draftOf(block) ?? block.source, target, fields));
  }

  /** Block index where something inserted "after block `after`" goes (the end when nothing is selected). */
  private insertionPoint(after: number): number {
    return after < 0 || after >= this.doc.nb!.blocks.length ? this.doc.nb!.blocks.length : after + 1;
  }

  addCell(after = this.focusIndex, kind: CellKind = "ts") {
    const at = this.insertionPoint(after);
    const name = kind === "sql" ? freshName("query", this.defined()) : undefined;
    const { nb, index } = insertCells(this.doc.nb!, at, [{ kind, name, source: "" }]);
    this.doc.commit(nb, `${kind} cell added`);
    this.focusIndex = index;
    void this.focusBlock(index, true);
  }

  /** A Markdown paragraph after block `after`, opened in the editor. */
  addProse(after = this.focusIndex) {
    const { nb, index } = insertProse(this.doc.nb!, this.insertionPoint(after), "New paragraph.\n");
    this.doc.commit(nb, "Markdown added");
    void this.openProse(index);
  }

  /** Every name the notebook's cells define. */
  private defined(): Set<string> {
    return new Set(this.runner.rt!.states().flatMap((s) => s.defines));
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
    const { nb, index } = insertCells(this.doc.nb!, this.insertionPoint(after), fresh);
    this.doc.commit(nb, `Inserted ${entry.label}`);
    this.focusIndex = index;
    void this.focusBlock(index, false);
  }

  deleteCell(index = this.focusIndex) {
    const block = this.doc.nb!.blocks[index];
    if (block?.type !== "cell") return;
    this.doc.commit(
      removeCell(this.doc.nb!, block.id),
      `Deleted ${block.kind} cell${block.name ? ` ${block.name}` : ""}`,
    );
  }

  /** Moves the cell at block `index` past one neighbouring cell, with its prose (move-cell.ts); focus follows. */
  moveCell(index: number, delta: -1 | 1) {
    const block = this.doc.nb!.blocks[index];
    if (block?.type !== "cell") return;
    const k = cellsOf(this.doc.nb!).indexOf(block);
    const next = moveCellIn(this.doc.nb!, block.id, delta);
    if (!next) return;
    const draft = this.doc.drafts.get(block.id);
    this.doc.commit(next, `Moved ${block.kind} cell ${delta < 0 ? "up" : "down"}`);
    const moved = cellsOf(next)[k + delta]!;
    if (draft !== undefined) this.doc.drafts.set(moved.id, draft);
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
    if (this.doc.undo()) this.editingProse = -1;
  }

  /** Shift+Enter on a cell frame: its code as edited runs. */
  runEdited(index: number) {
    const b = this.doc.nb!.blocks[index] as Cell;
    this.runCell(index, this.doc.drafts.get(b.id) ?? b.source);
  }

  focusNeighbour(index: number, delta: -1 | 1) {
    const list = this.doc.nb!.blocks.map((b, i) => (b.type === "cell" ? i : -1)).filter((i) => i >= 0);
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

  override render() {
    const { nb } = this.doc;
    const rt = this.runner.rt;
    if (!nb || !rt) return html`<p>no notebook</p>`;
    const states = new Map(rt.states().map((s) => [s.id, s]));
    const hasCells = nb.blocks.some((b) => b.type === "cell");
    return html`${notebookToolbar(this, new Set(this.tables.tables.map((t) => t.name)))}
      ${sections(nb.blocks).map(
        ([from, to]) =>
          html`<section class="nb-section">
            ${nb.blocks.slice(from, to).map((b, k) => {
              const i = from + k;
              // Each block is rendered again only when something it shows changed: moving a slider re-renders
              // the cells that depend on it, not the other seventy.
              return b.type === "prose"
                ? guard([b, i, i === this.focusIndex, i === this.editingProse], () => proseBlock(this, b, i))
                : guard(
                    [
                      b,
                      i,
                      i === this.focusIndex,
                      this.draftOf(b),
                      b.kind === "sql" ? this.schema : undefined,
                      this.runner.version(b.id),
                    ],
                    () => cellBlock(this, b, i, states.get(b.id)),
                  );
            })}
          </section>`,
      )}
      ${hasCells ? nothing : html`<jb-insert-bar @insert=${(e: HTMLElementEventMap["insert"]) => this.onInsert(nb.blocks.length - 1, e.detail)}></jb-insert-bar>`}
      <jb-shortcuts .open=${this.shortcutsOpen} @close=${() => (this.shortcutsOpen = false)}></jb-shortcuts>
      ${
        this.doc.toasts.value
          ? html`<div class="toast" role="status">
              ${this.doc.toasts.value}
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
