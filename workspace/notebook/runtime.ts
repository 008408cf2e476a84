// The reactive notebook runtime: one implementation for the browser and the headless runner, on
// @observablehq/runtime 6 (a cell's inputs are the names it references, found by parsing; a change recomputes
// exactly its dependents, in topological order). This file reconciles cells with runtime variables and reports
// their state; cell-definitions.ts turns one cell's code into variables, cell-state.ts is what gets reported,
// view-input.ts is view()'s input protocol and markdown-value.ts the md`` value.
//
// API
//   const rt = new NotebookRuntime({engine, builtins?, onCell?, isGlobal?});
//   rt.load(nb)                       defines every cell; on a second call, reconciles: cells whose content is
//                                     unchanged keep running state, changed/new ones are (re)defined, gone ones deleted
//   rt.setCellSource(id, source)      -> the cell's new id (ids are content hashes); re-runs that cell and exactly
//                                     its dependents; rt.notebook is the edited Notebook (serializeNotebook it to save)
//   rt.rerun(which?)                  re-runs the cells `which` picks (default all; readsTables: those reading the
//                                     runs' tables) and their dependents, though their code is unchanged
//   rt.setInput(name, value)          sets the input declared by `const name = view(...)`: sets element.value and
//                                     dispatches "input" (strings are coerced to the default's type: "300" -> 300);
//                                     before the input exists, it becomes that input's starting value. When the
//                                     input's cell re-runs, the new input keeps a chosen value (set here or by the
//                                     user) while it still offers it, else starts at its default (input-carry.ts)
//   rt.value(name)                    -> Promise of a named variable's current value (generators resolved)
//   rt.settled(timeoutMs?)            -> resolves when no cell is pending, nothing is scheduled (runtime-schedule.ts)
//                                     and no dragged input's value is held back
//   rt.states() / rt.state(id)        -> CellState for every cell, in notebook order
//   rt.checks()                       -> every check() result of every cell (in notebook order)
//   rt.inputs()                       -> [{name, value, label, kind, cellId}] for every named view
//   rt.setProblems(set)               -> lines naming each set name no input has and each value its input could
//                                     not take (that input keeps its default), then every input and its type
//   rt.dispose()
//
// Cells
//   ```sql id=name```  runs on the engine; `${expr}` is a bound parameter; binds the result (an Arrow Table) to name
//                      and displays it. A re-run interrupts the stale query (engine.interrupt) and drops its result.
//   ```ts```           TypeScript (sucrase); top-level const/let/var/function/class define variables. A cell that
//                      is one expression, or ends with one after statements, displays its value (unless it calls
//                      display or view itself, or the expression is a check(...) call: its checks list shows it). With a
//                      finite budget (option cellBudgetMs, front matter cell_budget_ms; 10 s in a browser), every
//                      loop and function checks it (budget-transform.ts, cell-budget.ts): a cell running longer
//                      without yielding fails with "cell NAME ran for more than N ms without yielding".
//
// Builtins (every cell sees them; pass `builtins` to add or replace, e.g. the browser passes the real Inputs):
//   jb        cells/index.ts, every analysis, and            Plot    @observablehq/plot
//             jb.timeline({...}) (timeline-view.ts)
//   plot      the editable plot spec (plot-spec.ts; a channel,  Inputs  headless stand-ins (headless-inputs.ts)
//             filter or select naming no column fails the cell)
//   sql       sql`SELECT ... ${x}` -> Promise<Table>, bound  md      md`# text ${x}` -> {__markdown: true, text}
//   invalidation  a promise resolved when the cell re-runs (Observable's)
// Per-cell locals:
//   display(x)              shows x under the cell (returns x)
//   view(el)                displays el; its value is el.value, updated on "input" events, at most every 100 ms while
//                           it is dragged and always to its last value (view-input.ts) (Framework's idiom:
//                           `const tauMs = view(Inputs.range([50, 2000], {label: "τ (ms)", value: 500, step: 10}))`)
//   check(name, ok, detail?) records a check; a failing one fails `jankbook run` (returns !!ok)
//
// What a display can be, for the UI and publish to render: a PlotSpec (isPlotSpec), Plot options (an object
// with a `marks` array), an Arrow Table (duck-typed: numRows + schema + getChild), a markdown value
// (isMarkdown), an input element (the view's element), a DOM node (browser), or any other value.
import { Runtime, type Module } from "@observablehq/runtime";
import * as Plot from "@observablehq/plot";
import * as jb from "../../cells/index";
import type { SqlEngine } from "../db/engine";
import { CELL_LOCALS, defineCell, isCheckCall, type CellHost, type Slot } from "./cell-definitions";
import { CellGate } from "./cell-gate";
import { notApplicableReason } from "./load-failures";
import { newCellState, type CellState, type CheckResult } from "./cell-state";
import { cells as cellsOf, withCellSource, type Cell, type Notebook } from "./format";
import { headlessInputs } from "./headless-inputs";
import { md } from "./markdown-value";
import { plot } from "../../charts/plot-spec";
import { analyzeNotebook, type CellAnalysis } from "./references";
import { queryRetryingCollateral } from "./query-retry";
import { nextTask } from "./next-task";
import { yieldWhenSliceSpent } from "./task-slice";
import { computeInTask, runtimeSchedule, variableVersion } from "./runtime-schedule";
import { sqlTag } from "./sql-template";
import { timeline, type TimelineOptions } from "./timeline-view";
import { carryInput } from "./input-carry";
import { setInputProblems, valueFor } from "./set-inputs";
import {
  coerce,
  inputLabel,
  inputsHeldBack,
  inputsReleased,
  sameValue,
  setInputEvent,
  type InputElementLike,
} from "./view-input";

export { CELL_LOCALS, readsTables } from "./cell-definitions";
export type { CellState, CellStatus, CheckResult } from "./cell-state";
export { isMarkdown, md, type MarkdownValue } from "./markdown-value";
export type { InputElementLike } from "./view-input";

export interface NotebookRuntimeOptions {
  engine: SqlEngine | null;
  builtins?: Record<string, unknown>;
  onCell?: (state: CellState) => void;
  /** is a name a host global? default `name in globalThis` */
  isGlobal?: (name: string) => boolean;
  /** start cells one macrotask apart, in notebook order (the headless worker: see CellHost.beforeRun and
   * cell-gate.ts); a function is also awaited before each start */
  yieldBeforeCells?: boolean | (() => Promise<void>);
  /** start a cell's code in a task of its own once the task has spent its slice (task-slice.ts), and not at all
   * when its input changed again meanwhile (the browser: a slider's dependents run in the frame that asked for them
   * yet never add up to one long task, and a superseded value's run is dropped) */
  yieldBetweenCells?: boolean;
  /** how long a ts cell may run without yielding before its loops are stopped (cell-budget.ts); a notebook's
   * front matter `cell_budget_ms` overrides it. Default: 10 s in a browser (a page nothing can terminate);
   * Infinity elsewhere, where code is not instrumented (the Node runner terminates its worker instead) */
  cellBudgetMs?: number;
}

/** Thrown by a run whose variable was recomputed while it waited: the runtime ignores a stale run's outcome. */
const superseded = new Error("superseded by a newer run");

/** Yields a task before a cell's code runs unless the task's slice has room for it (its last run's time); a run
 * superseded meanwhile stops there. */
async function skipStale(slot: Slot): Promise<void> {
  const version = variableVersion(slot.variable);
  await yieldWhenSliceSpent(slot.state.ms ?? 0);
  if (variableVersion(slot.variable) !== version) throw superseded;
}

/** The budget of a browser tab's cells: a frozen page is still better than a cell stopped for being slow. */
export const DEFAULT_BROWSER_BUDGET_MS = 10_000;

/** front matter `cell_budget_ms: 5000`, when it is a positive number */
function frontMatterBudget(nb: Notebook): number | undefined {
  const raw = nb.frontMatter?.fields.find(([k]) => k === "cell_budget_ms")?.[1];
  const ms = raw === undefined ? NaN : Number(raw.trim());
  return ms > 0 ? ms : undefined;
}

interface NamedInput {
  el: InputElementLike;
  slot: Slot;
  /** el's value as its cell made it: a value that differs was chosen (by a click, a drag, setInput) */
  initial: unknown;
}

export class NotebookRuntime {
  readonly engine: SqlEngine | null;
  private readonly runtime: Runtime;
  private readonly module: Module;
  private readonly builtinNames: Set<string>;
  private readonly onCell?: (state: CellState) => void;
  private readonly isGlobal?: (name: string) => boolean;
  private nb: Notebook = { frontMatter: null, blocks: [] };
  private slots: Slot[] = [];
  private nextKey = 0;
  private pending = new Set<Slot>();
  private idle: (() => void)[] = [];
  private namedInputs = new Map<string, NamedInput>();
  private inputOverrides = new Map<string, unknown>();
  /** overrides an input could not take, by name: why (set-inputs.ts) */
  private inputProblems = new Map<string, string>();
  /** bumped on every engine.interrupt(), so a query that was collateral damage can tell and retry */
  private interruptEpoch = 0;
  private disposed = false;
  private readonly host: CellHost;
  private readonly gate: CellGate;
  private readonly defaultBudgetMs: number;

  constructor(options: NotebookRuntimeOptions) {
    this.engine = options.engine;
    this.onCell = options.onCell;
    this.isGlobal = options.isGlobal;
    const y = options.yieldBeforeCells;
    this.gate = new CellGate(typeof y === "function" ? y : undefined);
    this.defaultBudgetMs =
      options.cellBudgetMs ??
      (typeof window !== "undefined" && typeof document !== "undefined"
        ? DEFAULT_BROWSER_BUDGET_MS
        : Infinity);
    const engine = options.engine;
    const builtins: Record<string, unknown> = {
      jb: {
        ...jb,
        timeline: (o: TimelineOptions) => timeline(o, engine ? (q) => engine.query(q.sql, q.params) : null),
      },
      Plot,
      plot,
      Inputs: headlessInputs,
      md,
      sql: (strings: TemplateStringsArray, ...values: unknown[]) => {
        if (!engine) throw new Error("sql: no SQL engine is loaded");
        const bound = sqlTag(strings, ...values);
        // (this.host is set below, before any cell can run)
        return queryRetryingCollateral(engine, bound.sql, bound.params, this.host);
      },
      ...options.builtins,
    };
    this.builtinNames = new Set([...Object.keys(builtins), "invalidation", "visibility"]);
    // Builtins are given to the Runtime as definitions (functions are called), so wrap each value.
    const defs: Record<string, () => unknown> = {};
    for (const [name, value] of Object.entries(builtins)) defs[name] = () => value;
    this.runtime = new Runtime(
      defs,
      options.isGlobal
        ? (name: string) => {
            if (options.isGlobal!(name)) return (globalThis as Record<string, unknown>)[name];
            throw new Error(`${name} is not defined`);
          }
        : undefined,
    );
    this.module = this.runtime.module();
    this.host = {
      engine,
      module: this.module,
      emit: (slot) => this.emit(slot),
      adoptInput: (inputName, el, slot) => this.adoptInput(inputName, el, slot),
      caughtUp: options.yieldBetweenCells ? () => this.caughtUp() : undefined,
      inputLetGo: options.yieldBetweenCells ? () => computeInTask(this.runtime) : undefined,
      interruptEpoch: () => this.interruptEpoch,
      interruptStale: () => {
        this.interruptEpoch++;
        void engine?.interrupt();
      },
      beforeRun: options.yieldBeforeCells
        ? (slot) => this.gate.wait(this.slots.indexOf(slot))
        : options.yieldBetweenCells
          ? skipStale
          : undefined,
      budgetMs: () => this.budgetMs,
    };
  }

  get notebook(): Notebook {
    return this.nb;
  }

  load(nb: Notebook): void {
    this.reconcile(nb, new Map());
  }

  setCellSource(id: string, source: string): string {
    const index = cellsOf(this.nb).findIndex((c) => c.id === id);
    if (index < 0) throw new Error(`no cell with id ${id}`);
    const slot = this.slots.find((s) => s.cell.id === id)!;
    const next = withCellSource(this.nb, id, source);
    const newId = cellsOf(next)[index]!.id;
    this.reconcile(next, new Map([[newId, slot]]));
    return newId;
  }

  /** Runs cells again though their code is unchanged (Run all, a cell's run button, other runs loaded): each
   * chosen cell is redefined, so it and exactly its dependents recompute. Default: every cell. */
  rerun(which: (analysis: CellAnalysis) => boolean = () => true): void {
    for (const slot of this.slots) if (which(slot.analysis)) defineCell(this.host, slot);
  }

  setInput(name: string, value: unknown): void {
    this.inputOverrides.set(name, value);
    const named = this.namedInputs.get(name);
    if (named) {
      named.el.value = coerce(value, named.el.value);
      named.el.dispatchEvent(setInputEvent());
    }
  }

  value(name: string): Promise<unknown> {
    return this.module.value(name);
  }

  states(): CellState[] {
    return this.slots.map((s) => s.state);
  }

  state(id: string): CellState | undefined {
    return this.slots.find((s) => s.cell.id === id)?.state;
  }

  checks(): CheckResult[] {
    return this.slots.flatMap((s) => s.state.checks);
  }

  inputs(): { name: string; value: unknown; label?: string; kind?: string; cellId: string }[] {
    // Notebook order, not the order the runtime happened to compute the cells in (publish lists them).
    const position = new Map(this.slots.map((s, i) => [s, i]));
    return [...this.namedInputs]
      .sort(([, a], [, b]) => (position.get(a.slot) ?? Infinity) - (position.get(b.slot) ?? Infinity))
      .map(([name, { el, slot }]) => ({
        name,
        value: el.value,
        label: inputLabel(el),
        kind: (el as { kind?: string }).kind,
        cellId: slot.cell.id,
      }));
  }

  /**
   * What went wrong with values set by name before the inputs existed (`--set`): a name no input has, a value its
   * input cannot take, then every input and what it expects; no lines when each fitted (set-inputs.ts).
   */
  setProblems(set: Record<string, unknown>): string[] {
    const inputs = new Map(this.inputs().map((i) => [i.name, this.namedInputs.get(i.name)!.el]));
    return setInputProblems(set, inputs, this.inputProblems);
  }

  async settled(timeoutMs = 0): Promise<void> {
    const started = Date.now();
    const tick = () => new Promise<void>((r) => setTimeout(r, 0));
    for (;;) {
      if (this.disposed) return;
      await tick();
      const computing = runtimeSchedule(this.runtime).computing;
      if (computing) {
        await computing;
        continue;
      }
      if (inputsHeldBack() > 0) {
        // A dragged input's last value is still held back by its throttle (view-input.ts): on its way, at most
        // an interval from now; waited on as it goes, not polled (a poll's period would add to every wait).
        await Promise.race([inputsReleased(), new Promise<void>((r) => this.idle.push(r))]); // or disposed
        continue;
      }
      if (this.pending.size > 0) {
        const wait = new Promise<void>((r) => this.idle.push(r));
        if (timeoutMs > 0) {
          const left = timeoutMs - (Date.now() - started);
          let timer: ReturnType<typeof setTimeout> | undefined;
          const timeout = new Promise<"timeout">(
            (r) => (timer = setTimeout(() => r("timeout"), Math.max(0, left))),
          );
          const result = await Promise.race([wait, timeout]);
          clearTimeout(timer);
          if (result === "timeout")
            throw new Error(
              `cells still running after ${timeoutMs} ms: ${[...this.pending].map((s) => s.state.name ?? s.state.defines.join(",") ?? s.cell.id).join("; ")}`,
            );
        } else await wait;
        continue;
      }
      await tick();
      const schedule = runtimeSchedule(this.runtime);
      if (!schedule.computing && schedule.waiting === 0 && this.pending.size === 0 && inputsHeldBack() === 0)
        return;
    }
  }

  /**
   * Resolves once the cells have computed every value they were given: no compute pass scheduled or running, no
   * cell pending. Their drawing is not waited for: a value let go now is computed a task later (computeInTask) and
   * drawn in the next frame with whatever the values before it left to draw, and an output draws only its latest
   * value however many came (Lit coalesces), so no drawing queues behind another. Unlike
   * settled(), an input value held back is not waited for: a dragged input asks this to let its held value go as
   * soon as the page has nothing else to compute (view-input.ts).
   */
  async caughtUp(): Promise<void> {
    const frame = () =>
      typeof requestAnimationFrame === "function"
        ? new Promise<void>((r) => requestAnimationFrame(() => r()))
        : nextTask();
    for (;;) {
      if (this.disposed) return;
      await nextTask();
      const schedule = runtimeSchedule(this.runtime);
      if (schedule.computing) await schedule.computing;
      else if (this.pending.size > 0) await new Promise<void>((r) => this.idle.push(r));
      else if (schedule.waiting === 0) break;
      else await frame(); // a pass is due on the next frame (runtime-schedule.ts)
    }
  }

  dispose(): void {
    this.disposed = true;
    this.runtime.dispose();
    for (const r of this.idle.splice(0)) r();
  }

  /** A view's element becomes input `name`; a re-made one carries the choice made on the one it replaces. */
  private adoptInput(name: string, el: InputElementLike, slot: Slot): void {
    const initial = el.value;
    const previous = this.namedInputs.get(name);
    if (previous && previous.el !== el) {
      if (!sameValue(previous.el.value, previous.initial)) carryInput(el, previous.el.value);
    } else if (!previous && this.inputOverrides.has(name)) {
      // A value the input cannot take leaves it at its default, and says so (setProblems), rather than failing
      // the cell that made the input for something only the caller can fix.
      const given = valueFor(name, this.inputOverrides.get(name), el as InputElementLike & { kind?: string });
      if ("value" in given) {
        el.value = given.value;
        this.inputProblems.delete(name);
      } else this.inputProblems.set(name, given.problem);
    }
    this.namedInputs.set(name, { el, slot, initial });
  }

  // ---- definition ----

  private budgetMs = Infinity;

  private reconcile(nb: Notebook, carry: Map<string, Slot>): void {
    this.budgetMs = frontMatterBudget(nb) ?? this.defaultBudgetMs;
    const list = cellsOf(nb);
    const analyses = analyzeNotebook(list, {
      builtins: this.builtinNames,
      locals: CELL_LOCALS,
      isGlobal: this.isGlobal,
    });
    const byId = new Map(this.slots.map((s) => [s.cell.id, s]));
    const used = new Set<Slot>();
    const plan: { cell: Cell; analysis: CellAnalysis; slot?: Slot }[] = list.map((cell) => {
      let slot = carry.get(cell.id) ?? byId.get(cell.id);
      if (slot && used.has(slot)) slot = undefined;
      if (slot) used.add(slot);
      return { cell, analysis: analyses.get(cell.id)!, slot };
    });
    // Delete cells that are gone, and names that cells no longer define, before defining anything new:
    // a name moving from one cell to another must never look like a duplicate in between.
    for (const s of this.slots) {
      if (used.has(s)) continue;
      for (const v of s.outputs.values()) v.delete();
      s.variable.delete();
      this.pending.delete(s);
      for (const [name, n] of this.namedInputs) if (n.slot === s) this.namedInputs.delete(name);
    }
    for (const p of plan) {
      if (!p.slot) continue;
      for (const [name, v] of p.slot.outputs)
        if (!p.analysis.defines.includes(name)) {
          v.delete();
          p.slot.outputs.delete(name);
        }
    }
    const slots: Slot[] = [];
    for (const p of plan) {
      const defKey = JSON.stringify([
        p.cell.kind,
        p.cell.source,
        p.cell.name,
        p.analysis.references,
        p.analysis.defines,
        p.analysis.errors,
        this.budgetMs,
      ]);
      let slot = p.slot;
      if (!slot) {
        const key = this.nextKey++;
        slot = {
          key,
          cell: p.cell,
          analysis: p.analysis,
          variable: null as unknown as Slot["variable"],
          outputs: new Map(),
          defKey: "",
          state: newCellState(p.cell, p.analysis),
          token: 0,
          pendingToken: 0,
        };
        slot.variable = this.module.variable(this.observer(slot));
      }
      slot.cell = p.cell;
      slot.analysis = p.analysis;
      slot.state.id = p.cell.id;
      slot.state.name = p.cell.name;
      slot.state.undefinedReferences = p.analysis.undefinedReferences;
      if (slot.defKey !== defKey) {
        slot.defKey = defKey;
        slot.state.defines = p.analysis.defines;
        slot.state.references = p.analysis.references;
        defineCell(this.host, slot);
      }
      slots.push(slot);
    }
    this.slots = slots;
    this.nb = nb;
  }

  private observer(slot: Slot) {
    return {
      pending: () => {
        slot.pendingToken = slot.token;
        slot.state.status = "pending";
        this.pending.add(slot);
        this.emit(slot);
      },
      fulfilled: (value: unknown) => {
        slot.state.status = "fulfilled";
        slot.state.error = undefined;
        slot.state.notApplicable = undefined;
        const a = slot.analysis;
        const auto =
          a.ts?.expression !== undefined &&
          !a.ts.references.includes("display") &&
          !a.ts.references.includes("view") &&
          !isCheckCall(a.ts.expression);
        slot.state.value = value;
        // SQL cells display their table; an expression cell displays its value (Framework's implicit display).
        if (auto || a.kind === "sql") slot.state.displays = value === undefined ? [] : [value];
        this.settle(slot);
      },
      rejected: (error: unknown) => {
        // Rejected before its code ran (an input failed): what it showed and checked before is stale.
        if (slot.token === slot.pendingToken) {
          slot.state.displays = [];
          slot.state.checks = [];
        }
        slot.state.status = "rejected";
        slot.state.value = undefined;
        slot.state.error = error instanceof Error ? error.message : String(error);
        slot.state.notApplicable = notApplicableReason(error);
        this.settle(slot);
      },
    };
  }

  private settle(slot: Slot) {
    this.pending.delete(slot);
    this.emit(slot);
    if (this.pending.size === 0) for (const r of this.idle.splice(0)) r();
  }

  private emit(slot: Slot) {
    if (this.onCell && !this.disposed)
      this.onCell({
        ...slot.state,
        displays: slot.state.displays.slice(),
        checks: slot.state.checks.slice(),
      });
  }
}
