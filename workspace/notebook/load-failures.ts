// A table that failed to load is absent from DuckDB, so a cell reading it would see DuckDB's "Table with name
// frames does not exist! Did you mean pg_namespace?". This engine wrapper gives such a cell the load
// error instead: the table's own messages, or the run's when its manifest could not be read at all.
import type { SqlEngine } from "../db/engine";

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
        const message = (e as Error).message;
        const explained = explainQueryError(message, now());
        if (explained === message) throw e;
        throw new Error(explained);
      }
    },
    insertArrowStream: (t, b, o) => engine.insertArrowStream(t, b, o),
    interrupt: () => engine.interrupt(),
    close: () => engine.close(),
  };
}
