// The overview's queries meet DuckDB's own words when a table is not there (a run removed while the chart redraws,
// a table that failed to load, a view left without a part): "Table with name frames does not exist! Did you mean
// "pg_namespace"?" points at a system table the user never asked for. The chart says what it lacks instead.

const MISSING = /Table with name "?([^\s"!]+)"? does not exist/i;
const MISSING_SCHEMA = /Catalog "?([^\s"!]+)"? does not exist|schema "?([^\s"!]+)"? does not exist/i;

/** The overview's message for a failed query: what is missing and why that can be, else DuckDB's own. */
export function overviewError(e: unknown): Error {
  const message = (e as Error).message ?? String(e);
  const table = MISSING.exec(message)?.[1];
  if (table)
    return new Error(
      `the overview needs table ${table}, which no loaded run has now (it failed to load, or its run was removed); the run list says why`,
    );
  const schema = MISSING_SCHEMA.exec(message);
  if (schema)
    return new Error(
      `the overview's precomputed slices (${schema[1] ?? schema[2]}) are gone (a packed run was removed while it redrew); it redraws from the runs still loaded`,
    );
  return e instanceof Error ? e : new Error(message);
}
