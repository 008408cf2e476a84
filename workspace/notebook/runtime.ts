// The reactive notebook runtime: one implementation for the browser and the headless runner, on
// @observablehq/runtime 6 (a cell's inputs are the names it references, found by parsing; a change recomputes
// exactly its dependents, in topological order).
//
// API
//   const rt = new NotebookRuntime({engine, builtins?, onCell?, isGlobal?});
//   rt.load(nb)                       defines every cell; on a second call, reconciles: cells whose content is
//                                     unchanged keep running state, changed/new ones are (re)defined, gone ones deleted
//   rt.setCellSource(id, source)      -> the cell's new id (ids are content hashes); re-runs that cell and exactly
//                                     its dependents; rt.notebook is the edited Notebook (serializeNotebook it to save)
//   rt.setInput(name, value)          sets the input declared by `const name = view(...)`: sets element.value and
//                                     dispatches "input" (strings are coerced to the default's type: "300" -> 300);
//                                     before the input exists, it becomes that input's starting value
//   rt.value(name)                    -> Promise of a named variable's current value (generators resolved)
//   rt.settled(timeoutMs?)            -> resolves when no cell is pending and nothing is scheduled
//   rt.states() / rt.state(id)        -> CellState for every cell, in notebook order
//   rt.checks()                       -> every check() result of every cell (in notebook order)
//   rt.inputs()                       -> [{name, value, label, kind, cellId}] for every named view
//   rt.dispose()
//
// Cells
//   ```sql id=name```  runs on the engine; `${expr}` is a bound parameter; binds the result (an Arrow Table) to name
//                      and displays it. A re-run interrupts the stale query (engine.interrupt) and drops its result.
//   ```ts```           TypeScript (sucrase); top-level const/let/var/function/class define variables. A cell that
//                      is one expression displays its value (unless it calls display or view itself).
//
// Builtins (every cell sees them; pass `builtins` to add or replace, e.g. the browser passes the real Inputs):
//   jb        cells/index.ts, every analysis                 Plot    @observablehq/plot
//   plot      the editable plot spec (plot-spec.ts)          Inputs  headless stand-ins (headless-inputs.ts)
//   sql       sql`SELECT ... ${x}` -> Promise<Table>, bound  md      md`# text ${x}` -> {__markdown: true, text}
//   invalidation  a promise resolved when the cell re-runs (Observable's)
// Per-cell locals:
//   display(x)              shows x under the cell (returns x)
//   view(el)                displays el; its value is el.value, updated on each "input" event (Framework's idiom:
//                           `const tauMs = view(Inputs.range([50, 2000], {label: "τ (ms)", value: 500, step: 10}))`)
//   check(name, ok, detail?) records a check; a failing one fails `jankbook run` (returns !!ok)
//
// What a display can be, for the UI and publish to render: a PlotSpec (isPlotSpec), Plot options (an object
// with a `marks` array), an Arrow Table (duck-typed: numRows + schema + getChild), a markdown value
// (isMarkdown), an input element (the view's element), a DOM node (browser), or any other value.
import { Runtime, type Module, type Variable } from "@observablehq/runtime";
import * as Plot from "@observablehq/plot";
import * as jb from "../../cells/index";
import type { SqlEngine } from "../db/engine";
import { cells as cellsOf, withCellSource, type Cell, type Notebook } from "./format";
import { headlessInputs } from "./headless-inputs";
import { plot } from "./plot-spec";
import { analyzeNotebook, type CellAnalysis } from "./references";
import { bindSqlTemplate, sqlTag } from "./sql-template";

export type CellStatus = "pending" | "fulfilled" | "rejected";

export interface CheckResult {
  name: string;
  ok: boolean;
  detail?: string;
  cellId: string;
}

export interface CellState {
  id: string;
  kind: Cell["kind"];
  /** sql: the id= name */
  name?: string;
  /** the names this cell defines */
  defines: string[];
  /** the names it references (its inputs) */
  references: string[];
  status: CellStatus;
  /** sql: the Table; ts expression cell: the expression's value; ts declarations: {name: value} */
  value?: unknown;
  /** the error message when rejected (parse error, cycle, duplicate, SQL error, thrown exception, failed input) */
  error?: string;
  displays: unknown[];
  checks: CheckResult[];
  /** references nothing defines (the cell rejects with "x is not defined") */
  undefinedReferences: string[];
  /** how many times the cell's code has started running */
  runs: number;
  /** duration of the last completed run, ms */
  ms?: number;
}

export interface NotebookRuntimeOptions {
  engine: SqlEngine | null;
  builtins?: Record<string, unknown>;
  onCell?: (state: CellState) => void;
  /** is a name a host global? default `name in globalThis` */
  isGlobal?: (name: string) => boolean;
}

export interface MarkdownValue {
  __markdown: true;
  text: string;
}

export function isMarkdown(value: unknown): value is MarkdownValue {
  return typeof value === "object" && value !== null && (value as { __markdown?: unknown }).__markdown === true;
}

/** md`...`: markdown text with interpolated values, rendered (and sanitized) by the UI and publish. */
export function md(strings: TemplateStringsArray | string, ...values: unknown[]): MarkdownValue {
  if (typeof strings === "string") return { __markdown: true, text: strings };
  let text = strings[0]!;
  for (let k = 0; k < values.length; k++) text += String(values[k]) + strings[k + 1]!;
  return { __markdown: true, text };
}

export interface InputElementLike {
  value: unknown;
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
  dispatchEvent(event: Event): boolean;
}

/** Framework's Generators.input: yields el.value now, then again after each "input" event. */
function inputGenerator(el: InputElementLike) {
  let resolve: ((v: unknown) => void) | null = null;
  let stale = true;
  const onInput = () => {
    if (resolve) {
      resolve(el.value);
      resolve = null;
    } else stale = true;
  };
  el.addEventListener("input", onInput);
  const generator = {
    next() {
      if (stale) {
        stale = false;
        return { done: false, value: Promise.resolve(el.value) };
      }
      return { done: false, value: new Promise((r) => (resolve = r)) };
    },
    return() {
      el.removeEventListener("input", onInput);
      return { done: true, value: undefined };
    },
    throw(e: unknown): never {
      throw e;
    },
    [Symbol.iterator]() {
      return generator;
    },
  };
  return generator;
}

const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<unknown>;

/** Names each cell gets as its own local, not as a runtime variable. */
export const CELL_LOCALS = ["display", "view", "check"] as const;

interface Slot {
  key: number;
  cell: Cell;
  analysis: CellAnalysis;
  variable: Variable;
  outputs: Map<string, Variable>;
  defKey: string;
  state: CellState;
  token: number;
  pendingToken: number;
}

interface NamedInput {
  el: InputElementLike;
  slot: Slot;
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
  /** bumped on every engine.interrupt(), so a query that was collateral damage can tell and retry */
  private interruptEpoch = 0;
  private disposed = false;

  constructor(options: NotebookRuntimeOptions) {
    this.engine = options.engine;
    this.onCell = options.onCell;
    this.isGlobal = options.isGlobal;
    const engine = options.engine;
    const builtins: Record<string, unknown> = {
      jb,
      Plot,
      plot,
      Inputs: headlessInputs,
      md,
      sql: (strings: TemplateStringsArray, ...values: unknown[]) => {
        if (!engine) throw new Error("sql: no SQL engine is loaded");
        const bound = sqlTag(strings, ...values);
        return engine.query(bound.sql, bound.params);
      },
      ...options.builtins,
    };
    this.builtinNames = new Set([...Object.keys(builtins), "invalidation", "visibility"]);
    // Builtins are given to the Runtime as definitions (functions are called), so wrap each value.
    const defs: Record<string, () => unknown> = {};
    for (const [name, value] of Object.entries(builtins)) defs[name] = () => value;
    this.runtime = new Runtime(defs, options.isGlobal ? (name: string) => {
      if (options.isGlobal!(name)) return (globalThis as Record<string, unknown>)[name];
      throw new Error(`${name} is not defined`);
    } : undefined);
    this.module = this.runtime.module();
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

  setInput(name: string, value: unknown): void {
    this.inputOverrides.set(name, value);
    const named = this.namedInputs.get(name);
    if (named) {
      named.el.value = coerce(value, named.el.value);
      named.el.dispatchEvent(new Event("input", { bubbles: true }));
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
    return [...this.namedInputs].map(([name, { el, slot }]) => ({
      name,
      value: el.value,
      label: (el as { label?: unknown }).label === undefined ? undefined : labelText((el as { label?: unknown }).label),
      kind: (el as { kind?: string }).kind,
      cellId: slot.cell.id,
    }));
  }

  async settled(timeoutMs = 0): Promise<void> {
    const started = Date.now();
    const rt = this.runtime as unknown as { _computing: Promise<void> | null; _dirty: Set<unknown>; _updates: Set<unknown>; _precomputes: unknown[] };
    const tick = () => new Promise<void>((r) => setTimeout(r, 0));
    for (;;) {
      if (this.disposed) return;
      await tick();
      if (rt._computing) {
        await rt._computing;
        continue;
      }
      if (this.pending.size > 0) {
        const wait = new Promise<void>((r) => this.idle.push(r));
        if (timeoutMs > 0) {
          const left = timeoutMs - (Date.now() - started);
          let timer: ReturnType<typeof setTimeout> | undefined;
          const timeout = new Promise<"timeout">((r) => (timer = setTimeout(() => r("timeout"), Math.max(0, left))));
          const result = await Promise.race([wait, timeout]);
          clearTimeout(timer);
          if (result === "timeout")
            throw new Error(`cells still running after ${timeoutMs} ms: ${[...this.pending].map((s) => s.state.name ?? s.state.defines.join(",") ?? s.cell.id).join("; ")}`);
        } else await wait;
        continue;
      }
      await tick();
      if (!rt._computing && this.pending.size === 0 && rt._dirty.size === 0 && rt._updates.size === 0 && rt._precomputes.length === 0) return;
    }
  }

  dispose(): void {
    this.disposed = true;
    this.runtime.dispose();
    for (const r of this.idle.splice(0)) r();
  }

  // ---- definition ----

  private reconcile(nb: Notebook, carry: Map<string, Slot>): void {
    const list = cellsOf(nb);
    const analyses = analyzeNotebook(list, { builtins: this.builtinNames, locals: CELL_LOCALS, isGlobal: this.isGlobal });
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
      const defKey = JSON.stringify([p.cell.kind, p.cell.source, p.cell.name, p.analysis.references, p.analysis.defines, p.analysis.errors]);
      let slot = p.slot;
      if (!slot) {
        const key = this.nextKey++;
        slot = {
          key,
          cell: p.cell,
          analysis: p.analysis,
          variable: null as unknown as Variable,
          outputs: new Map(),
          defKey: "",
          state: newState(p.cell, p.analysis),
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
        this.define(slot);
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
        const a = slot.analysis;
        const auto = a.ts?.expression !== undefined && !a.ts.references.includes("display") && !a.ts.references.includes("view");
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
    if (this.onCell && !this.disposed) this.onCell({ ...slot.state, displays: slot.state.displays.slice(), checks: slot.state.checks.slice() });
  }

  private define(slot: Slot) {
    const a = slot.analysis;
    const name = `cell ${slot.key}`;
    if (a.errors.length > 0) {
      const message = a.errors.join("; ");
      slot.variable.define(name, [], () => {
        this.begin(slot);
        throw new Error(message);
      });
    } else if (a.kind === "sql") this.defineSql(slot, name);
    else this.defineTs(slot, name);
    for (const d of a.defines) {
      if (slot.outputs.has(d)) continue;
      // Observer `true`: reachable (so computed) without being shown.
      const pick = a.kind === "sql" ? (table: unknown) => table : (exports: Record<string, unknown>) => exports[d];
      slot.outputs.set(d, this.module.variable(true).define(d, [name], pick));
    }
  }

  /** A cell run starts: fresh displays and checks; calls from stale runs are ignored by token. */
  private begin(slot: Slot): number {
    slot.state.runs++;
    slot.state.displays = [];
    slot.state.checks = [];
    return ++slot.token;
  }

  private defineTs(slot: Slot, name: string) {
    const ts = slot.analysis.ts!;
    const refs = slot.analysis.references;
    let js = ts.js;
    // `const x = view(...)` -> `const x = view.as("x")(...)`: the input knows its name (setInput, publish).
    for (const v of [...ts.views].sort((p, q) => q.start - p.start))
      js = js.slice(0, v.start) + `view.as(${JSON.stringify(v.name)})` + js.slice(v.end);
    const body =
      ts.expression !== undefined && ts.views.length === 0
        ? `"use strict";\nreturn (\n${ts.expression}\n);`
        : `"use strict";\n${js}\nreturn {${ts.defines.join(", ")}};`;
    let fn: (...a: unknown[]) => Promise<unknown>;
    try {
      fn = new AsyncFunction(...CELL_LOCALS, ...refs, body);
    } catch (e) {
      const message = `syntax error: ${(e as Error).message}`;
      slot.variable.define(name, [], () => {
        this.begin(slot);
        throw new Error(message);
      });
      return;
    }
    slot.variable.define(name, refs, async (...args: unknown[]) => {
      const token = this.begin(slot);
      const t0 = now();
      const display = (x: unknown) => {
        if (token === slot.token) {
          slot.state.displays = [...slot.state.displays, x];
          this.emit(slot);
        }
        return x;
      };
      const check = (checkName: string, ok: unknown, detail?: unknown) => {
        if (token === slot.token)
          slot.state.checks = [...slot.state.checks, { name: String(checkName), ok: !!ok, detail: detail === undefined ? undefined : String(detail), cellId: slot.cell.id }];
        return !!ok;
      };
      const makeView = (inputName?: string) => (el: InputElementLike) => {
        if (!el || typeof el.addEventListener !== "function" || !("value" in el))
          throw new Error(`view: expected an input element (e.g. Inputs.range(...)), got ${typeof el}`);
        if (inputName !== undefined) {
          if (this.inputOverrides.has(inputName)) el.value = coerce(this.inputOverrides.get(inputName), el.value);
          this.namedInputs.set(inputName, { el, slot });
        }
        display(el);
        return inputGenerator(el);
      };
      const view = Object.assign(makeView(), { as: makeView });
      try {
        return await fn(display, view, check, ...args);
      } finally {
        slot.state.ms = now() - t0;
      }
    });
  }

  private defineSql(slot: Slot, name: string) {
    const template = slot.analysis.sql!.template!;
    const refs = slot.analysis.references;
    const exprFn = new Function(...refs, `"use strict";\nreturn [${template.expressions.map((e) => `(${e})`).join(", ")}];`) as (...a: unknown[]) => unknown[];
    slot.variable.define(name, ["invalidation", ...refs], async (invalidation: Promise<void>, ...args: unknown[]) => {
      this.begin(slot);
      const t0 = now();
      const engine = this.engine;
      if (!engine) throw new Error("no SQL engine is loaded");
      const bound = bindSqlTemplate(template, exprFn(...args));
      let invalidated = false;
      let done = false;
      invalidation.then(() => {
        invalidated = true;
        // A stale query is pointless: stop it. Its late result is dropped by the runtime (version check).
        if (!done) {
          this.interruptEpoch++;
          void engine.interrupt();
        }
      });
      try {
        for (;;) {
          const epoch = this.interruptEpoch;
          try {
            const table = await engine.query(bound.sql, bound.params);
            return table;
          } catch (e) {
            // Interrupted because another cell's query was stale (one connection): run ours again.
            if (!invalidated && epoch !== this.interruptEpoch) continue;
            throw e;
          }
        }
      } finally {
        done = true;
        slot.state.ms = now() - t0;
      }
    });
  }
}

function now(): number {
  return typeof performance !== "undefined" ? performance.now() : Date.now();
}

function labelText(label: unknown): string {
  if (typeof label === "string") return label;
  const node = label as { textContent?: string } | null;
  return node && typeof node.textContent === "string" ? node.textContent : String(label);
}

/** `--set tauMs=300` arrives as text: make it the type of the input's current value. */
function coerce(value: unknown, current: unknown): unknown {
  if (typeof value !== "string") return value;
  if (typeof current === "number") {
    const n = Number(value);
    if (value.trim() === "" || Number.isNaN(n)) throw new Error(`input expects a number, got "${value}"`);
    return n;
  }
  if (typeof current === "boolean") {
    if (value !== "true" && value !== "false") throw new Error(`input expects true or false, got "${value}"`);
    return value === "true";
  }
  return value;
}

function newState(cell: Cell, analysis: CellAnalysis): CellState {
  return {
    id: cell.id,
    kind: cell.kind,
    name: cell.name,
    defines: analysis.defines,
    references: analysis.references,
    status: "pending",
    displays: [],
    checks: [],
    undefinedReferences: analysis.undefinedReferences,
    runs: 0,
  };
}
