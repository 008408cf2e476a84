// A table that failed to load is absent from DuckDB, so a cell reading it would see DuckDB's "Table with name
// frames does not exist! Did you mean pg_namespace?". This engine wrapper gives such a cell the load
// error instead: the table's own messages, or the run's when its manifest could not be read at all.
import type { SqlEngine } from "../db/engine";
import { isBundleTable, tableSource } from "../../bundle/table-sources";

export interface LoadOutcome {
  run_id: string;
  dir: string;
  errors: string[];
  failed?: boolean;
}

/** DuckDB's message for a missing table (Catalog Error), with the table's name. */
const MISSING_TABLE = /Table with name "?([^\s"!]+)"? does not exist/i;

/** The load errors that concern `table`: those naming it, and every error of a run that did not load at all. */
export function loadErrorsFor(table: string, runs: readonly LoadOutcome[]): string[] {
  const named = new RegExp(`\\btable ${table.replace(/[^\w]/g, "")}\\b`);
  return runs.flatMap((r) =>
    r.failed ? r.errors.map((e) => `run ${r.dir} did not load: ${e}`) : r.errors.filter((e) => named.test(e)),
  );
}

/** The message a query failure should show: DuckDB's, unless the table it misses failed to load. */
export function explainQueryError(message: string, runs: readonly LoadOutcome[]): string {
  const missing = MISSING_TABLE.exec(message);
  if (!missing) return message;
  const errors = loadErrorsFor(missing[1]!, runs);
  if (!errors.length) return message;
  return `table ${missing[1]} is missing because loading failed: ${errors.join("; ")}`;
}

const NOT_APPLICABLE = "not applicable: ";

/**
 * A cell that reads a table no loaded run has: the notebook does not apply to these runs (a Perfetto trace has no
 * method trace), which is not a failure. Dependents of such a cell are rejected with this same error, so they
 * count as not applicable too.
 */
export class NotApplicableError extends Error {
  readonly notApplicable: string;
  constructor(
    readonly table: string,
    reason = tableSource(table),
  ) {
    super(NOT_APPLICABLE + reason);
    this.name = "NotApplicableError";
    this.notApplicable = reason;
  }
}

/**
 * The reason a rejected cell does not apply to its runs, or undefined when it really failed. The runtime hands a
 * dependent a new error with the same message (@observablehq/runtime's variable_rejector), so the message counts too.
 */
export function notApplicableReason(error: unknown): string | undefined {
  const reason = (error as { notApplicable?: unknown } | null)?.notApplicable;
  if (typeof reason === "string") return reason;
  const message = error instanceof Error ? error.message : undefined;
  return message?.startsWith(NOT_APPLICABLE) ? message.slice(NOT_APPLICABLE.length) : undefined;
}

/**
 * The error a query failure should throw: the load error when the table it misses failed to load; not applicable
 * when it misses a table of the bundle contract that no run has; else DuckDB's own.
 */
export function queryFailure(e: unknown, runs: readonly LoadOutcome[]): unknown {
  const message = (e as Error)?.message ?? String(e);
  const explained = explainQueryError(message, runs);
  if (explained !== message) return new Error(explained);
  const missing = MISSING_TABLE.exec(message)?.[1];
  if (missing && isBundleTable(missing)) return new NotApplicableError(missing);
  return e;
}

/** `runs`: the load outcomes, or a function giving them as they are now (the workspace loads runs while cells run). */
export function explainLoadFailures(
  engine: SqlEngine,
  runs: readonly LoadOutcome[] | (() => readonly LoadOutcome[]),
): SqlEngine {
  const now = typeof runs === "function" ? runs : () => runs;
  return {
    ...engine,
    query: async (sql, params) => {
      try {
        return await engine.query(sql, params);
      } catch (e) {
        throw queryFailure(e, now());
      }
    },
    insertArrowStream: (t, b, o) => engine.insertArrowStream(t, b, o),
    interrupt: () => engine.interrupt(),
    close: () => engine.close(),
  };
}
