// How one notebook cell becomes @observablehq/runtime variables: a hidden variable that runs the cell's code
// (TypeScript through sucrase, or SQL on the engine with bound parameters) and one visible variable per name it
// defines. The NotebookRuntime (runtime.ts) owns the slots and reports their state.
import type { Module, Variable } from "@observablehq/runtime";
import type { SqlEngine } from "../db/engine";
import type { Cell } from "./format";
import type { CellState } from "./cell-state";
import type { CellAnalysis } from "./references";
import { freshName, instrumentBudget } from "./budget-transform";
import { budgetTick, leaveCell, startStretch } from "./cell-budget";
import { queryRetryingCollateral } from "./query-retry";
import { bindSqlTemplate } from "./sql-template";
import { inputGenerator, type InputElementLike } from "./view-input";

/** Names each cell gets as its own local, not as a runtime variable. */
export const CELL_LOCALS = ["display", "view", "check"] as const;

/** One cell's place in the runtime; kept across reloads while the cell's content is unchanged. */
export interface Slot {
  key: number;
  cell: Cell;
  analysis: CellAnalysis;
  variable: Variable;
  outputs: Map<string, Variable>;
  defKey: string;
  state: CellState;
  /** bumped when the cell's code starts; display/check calls from a stale run carry an older token */
  token: number;
  /** the token when the cell last went pending: equal on rejection means its code never started */
  pendingToken: number;
}

/** What cell code needs from the runtime that owns it. */
export interface CellHost {
  readonly engine: SqlEngine | null;
  readonly module: Module;
  /** report a changed state (displays, checks) */
  emit(slot: Slot): void;
  /**
   * `const name = view(el)`: el becomes input `name` (setInput, inputs(), publish), starting with the value chosen
   * on the input it replaces when el still offers it (input-carry.ts), else with a setInput value given before
   */
  adoptInput(name: string, el: InputElementLike, slot: Slot): void;
  /** resolves once the values already given to the cells are computed (runtime.ts `caughtUp`); absent where
   * nothing is drawn (headless) */
  caughtUp?(): Promise<void>;
  /** an input's value goes to its dependents (runtime.ts: their pass starts a task later, not a frame later);
   * absent headless */
  inputLetGo?(): void;
  /** the engine has one connection: interrupting a stale query bumps this epoch so collateral victims retry */
  interruptEpoch(): number;
  interruptStale(): void;
  /** awaited before a cell's code starts: the headless worker starts cells one macrotask apart, in notebook
   * order, so the cells above one that never returns run and are reported (runtime option yieldBeforeCells); the
   * browser gives a cell a task of its own once the task has spent its slice, and drops a superseded run there
   * (yieldBetweenCells) */
  beforeRun?: (slot: Slot) => Promise<void>;
  /** how long a cell's code may run without yielding (cell-budget.ts); Infinity: not instrumented at all */
  budgetMs(): number;
}

const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor as new (
  ...args: string[]
) => (...a: unknown[]) => Promise<unknown>;

function now(): number {
  return typeof performance !== "undefined" ? performance.now() : Date.now();
}

/**
 * A cell run starts: fresh displays and checks; calls from stale runs are ignored by token. Reported at once, so
 * a host watching from outside knows which cell's code is running if it never returns.
 */
function begin(slot: Slot, host?: CellHost): number {
  slot.state.runs++;
  slot.state.displays = [];
  slot.state.checks = [];
  const token = ++slot.token;
  host?.emit(slot);
  return token;
}

/** (Re)defines the slot's variable from its analysis, and adds a variable for each name it newly defines. */
export function defineCell(host: CellHost, slot: Slot): void {
  const a = slot.analysis;
  const name = `cell ${slot.key}`;
  if (a.errors.length > 0) defineFailure(slot, name, a.errors.join("; "));
  else if (a.kind === "sql") defineSql(host, slot, name);
  else defineTs(host, slot, name);
  for (const d of a.defines) {
    if (slot.outputs.has(d)) continue;
    // Observer `true`: reachable (so computed) without being shown.
    const pick =
      a.kind === "sql" ? (table: unknown) => table : (exports: Record<string, unknown>) => exports[d];
    slot.outputs.set(d, host.module.variable(true).define(d, [name], pick));
  }
}

function defineFailure(slot: Slot, name: string, message: string) {
  slot.variable.define(name, [], () => {
    begin(slot);
    throw new Error(message);
  });
}

/** Does the cell read the loaded runs' tables (a SQL cell, or code calling sql``)? It re-runs when the runs change. */
export function readsTables(analysis: CellAnalysis): boolean {
  return analysis.kind === "sql" || (analysis.ts?.references.includes("sql") ?? false);
}

/** How errors name a cell: its SQL name, else what it defines, else its id. */
export function cellLabel(slot: Slot): string {
  const defines = slot.analysis.defines;
  return slot.cell.name ?? (defines.length ? defines.join(", ") : slot.cell.id);
}

/** A cell ending in `check(...)`: its checks list says the outcome; the call's true or false is not shown too. */
export function isCheckCall(expression: string): boolean {
  return /^\s*check\s*\(/.test(expression);
}

function defineTs(host: CellHost, slot: Slot, name: string) {
  const ts = slot.analysis.ts!;
  const refs = slot.analysis.references;
  const budgetMs = host.budgetMs();
  const label = cellLabel(slot);
  let js = ts.js;
  // Statements, then an expression: its value is the cell's (Observable's rule), kept in a fresh local. The
  // statement is rewritten in place without adding a line, so line numbers stay those of the cell.
  const valueName = ts.last ? freshName("$jbValue", js) : undefined;
  if (ts.last)
    js = `${js.slice(0, ts.last.start)}${valueName} = (${js.slice(ts.last.exprStart, ts.last.exprEnd)});${js.slice(ts.last.end)}`;
  // `const x = view(...)` -> `const x = view.as("x")(...)`: the input knows its name (setInput, publish).
  for (const v of [...ts.views].sort((p, q) => q.start - p.start))
    js = js.slice(0, v.start) + `view.as(${JSON.stringify(v.name)})` + js.slice(v.end);
  const single = ts.expression !== undefined && ts.views.length === 0;
  const exportsText = `{${ts.defines.join(", ")}}`;
  let body = single
    ? `"use strict";\nreturn (\n${ts.expression}\n);`
    : valueName
      ? `"use strict"; let ${valueName};\n${js}\nreturn [${exportsText}, ${valueName}];`
      : `"use strict";\n${js}\nreturn ${exportsText};`;
  // As a one-expression cell: shown unless the cell shows things itself (display, view).
  const showsLast =
    !!valueName &&
    !ts.references.includes("display") &&
    !ts.references.includes("view") &&
    !isCheckCall(ts.js.slice(ts.last!.exprStart, ts.last!.exprEnd));
  // The budget's tick is one more parameter, named so that nothing in the cell can shadow it. Lines of the body
  // map back to the cell: sucrase keeps every line where it was.
  const tickName = freshName("$jbTick", body);
  if (Number.isFinite(budgetMs)) {
    const exprLine = single ? js.slice(0, js.indexOf(ts.expression!)).split("\n").length : 0;
    body = instrumentBudget(body, { tick: tickName, lineOffset: single ? exprLine - 3 : -1 });
  }
  let fn: (...a: unknown[]) => Promise<unknown>;
  try {
    fn = new AsyncFunction(...CELL_LOCALS, tickName, ...refs, body);
  } catch (e) {
    defineFailure(slot, name, `syntax error: ${(e as Error).message}`);
    return;
  }
  slot.variable.define(name, refs, async (...args: unknown[]) => {
    if (host.beforeRun) await host.beforeRun(slot);
    const token = begin(slot, host);
    const t0 = now();
    const display = (x: unknown) => {
      if (token === slot.token) {
        slot.state.displays = [...slot.state.displays, x];
        host.emit(slot);
      }
      return x;
    };
    const check = (checkName: string, ok: unknown, detail?: unknown) => {
      if (token === slot.token)
        slot.state.checks = [
          ...slot.state.checks,
          {
            name: String(checkName),
            ok: !!ok,
            detail: detail === undefined ? undefined : String(detail),
            cellId: slot.cell.id,
          },
        ];
      return !!ok;
    };
    const makeView = (inputName?: string) => (el: InputElementLike) => {
      if (!el || typeof el.addEventListener !== "function" || !("value" in el))
        throw new Error(`view: expected an input element (e.g. Inputs.range(...)), got ${typeof el}`);
      if (inputName !== undefined) host.adoptInput(inputName, el, slot);
      display(el);
      return inputGenerator(el, { caughtUp: host.caughtUp, letGo: host.inputLetGo });
    };
    const view = Object.assign(makeView(), { as: makeView });
    const tick = Number.isFinite(budgetMs) ? budgetTick(label, budgetMs) : undefined;
    if (tick) startStretch(label, budgetMs);
    try {
      let result: Promise<unknown>;
      try {
        result = fn(display, view, check, tick, ...args);
      } finally {
        if (tick) leaveCell();
      }
      if (!valueName) return await result;
      const [exports, value] = (await result) as [Record<string, unknown>, unknown];
      if (showsLast && value !== undefined) display(value);
      return exports;
    } finally {
      slot.state.ms = now() - t0;
    }
  });
}

function defineSql(host: CellHost, slot: Slot, name: string) {
  const template = slot.analysis.sql!.template!;
  const refs = slot.analysis.references;
  const exprFn = new Function(
    ...refs,
    `"use strict";\nreturn [${template.expressions.map((e) => `(${e})`).join(", ")}];`,
  ) as (...a: unknown[]) => unknown[];
  slot.variable.define(
    name,
    ["invalidation", ...refs],
    async (invalidation: Promise<void>, ...args: unknown[]) => {
      if (host.beforeRun) await host.beforeRun(slot);
      begin(slot, host);
      const t0 = now();
      const engine = host.engine;
      if (!engine) throw new Error("no SQL engine is loaded");
      const bound = bindSqlTemplate(template, exprFn(...args));
      let invalidated = false;
      let done = false;
      invalidation.then(() => {
        invalidated = true;
        // A stale query is pointless: stop it. Its late result is dropped by the runtime (version check).
        if (!done) host.interruptStale();
      });
      try {
        return await queryRetryingCollateral(engine, bound.sql, bound.params, host, () => invalidated);
      } finally {
        done = true;
        slot.state.ms = now() - t0;
      }
    },
  );
}
