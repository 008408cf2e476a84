// What notebook SQL may run on `jankbook serve`'s native engine (docs/scaling.md): queries only, and none
// that reads files or the network. The statement tree comes from DuckDB's own parser (json_serialize_sql,
// which serializes SELECT statements only); `enable_external_access=false` on the engine is the real guard
// behind it.
import type { SqlEngine } from "./engine";

/** Table functions and scalar functions that reach files, the network or the process's environment. */
const FILE_FUNCTION =
  /^(read_\w*|sniff_csv|parquet_\w+|glob|query|query_table|getenv|\w+_scan|iceberg_\w+|delta_\w+|load_aws_credentials)$/i;

/** A string DuckDB would open as a file or URL in FROM (replacement scan: `FROM 'x.csv'`, `FROM 's3://…'`). */
const PATH_LIKE = /[/\\:]|\.(csv|tsv|json|jsonl|ndjson|parquet|txt|gz|zst|duckdb|db|xlsx)$/i;
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;

export class RefusedSql extends Error {}

/** The first keyword of each statement, skipping comments, for a refusal that names what was asked. */
export function firstKeyword(sql: string): string {
  const text = sql.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, " ").trim();
  return (/^[A-Za-z_]+/.exec(text)?.[0] ?? text.slice(0, 20)).toUpperCase();
}

/** Every string property named `key` anywhere in a parsed statement tree, with its owning node. */
function* nodes(tree: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(tree)) for (const x of tree) yield* nodes(x);
  else if (tree && typeof tree === "object") {
    yield tree as Record<string, unknown>;
    for (const v of Object.values(tree)) yield* nodes(v);
  }
}

/** Why a parsed tree (json_serialize_sql's output) is refused, or null when it may run. */
export function refusalOfTree(tree: unknown): string | null {
  for (const n of nodes(tree)) {
    const fn = n.function_name;
    if (typeof fn === "string" && FILE_FUNCTION.test(fn))
      return `${fn}() reads files or the network; query the runs' and the lake's tables instead`;
    if (n.type === "BASE_TABLE" && typeof n.table_name === "string" && PATH_LIKE.test(n.table_name))
      return `FROM '${n.table_name}' would read a file; query the runs' and the lake's tables instead`;
    if (n.type === "VALUE_CONSTANT") {
      const v = (n.value as { value?: unknown } | undefined)?.value;
      if (typeof v === "string" && URL_LIKE.test(v)) return `'${v}' is a URL; this server reaches no network`;
    }
  }
  return null;
}

/**
 * Throws RefusedSql when `sql` is not a query, or reaches files or the network. Parses with the engine itself,
 * so quoting and comments are read exactly as DuckDB reads them.
 */
export async function checkSql(engine: SqlEngine, sql: string): Promise<void> {
  const t = await engine.query("SELECT json_serialize_sql(?::VARCHAR)::VARCHAR AS j", [sql]);
  const parsed = JSON.parse(String(t.getChild("j")!.get(0))) as {
    error: boolean;
    error_type?: string;
    error_message?: string;
    statements?: unknown[];
  };
  if (parsed.error) {
    // "not implemented" is json_serialize_sql's answer for every statement that is not a SELECT.
    if (parsed.error_type === "not implemented")
      throw new RefusedSql(
        `refused by jankbook serve: ${firstKeyword(sql)} statements are not allowed from notebook SQL (queries only: no COPY, ATTACH, INSTALL, LOAD, PRAGMA, SET, CREATE, ...)`,
      );
    throw new Error(parsed.error_message ?? "the statement does not parse");
  }
  const why = refusalOfTree(parsed.statements);
  if (why) throw new RefusedSql(`refused by jankbook serve: ${why}`);
}
