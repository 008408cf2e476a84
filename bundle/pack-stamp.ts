// Which run a run.duckdb was packed from: `jb_pack.tables` holds the run id and the manifest's CRC-32 of each
// Arrow file that went in. Another run's database copied into a bundle (or a bundle whose Arrow files changed
// after packing) no longer matches its manifest, and `lake add` and the workspace refuse to trust it.
import type { Manifest } from "./manifest";

export const PACK_STAMP_SCHEMA = "jb_pack";

export interface StampRow {
  run_id: string;
  table_name: string;
  crc32: string | null;
}

/** SQL writing the stamp into `<catalog>.jb_pack.tables` (one row a table of the manifest). */
export function packStampSql(catalog: string, manifest: Manifest): string[] {
  const t = `${catalog}.${PACK_STAMP_SCHEMA}.tables`;
  const rows = Object.entries(manifest.tables).map(
    ([name, entry]) =>
      `(${literal(manifest.run_id)}, ${literal(name)}, ${entry.crc32 === undefined ? "NULL" : literal(entry.crc32)})`,
  );
  return [
    `CREATE SCHEMA IF NOT EXISTS ${catalog}.${PACK_STAMP_SCHEMA}`,
    `CREATE OR REPLACE TABLE ${t} (run_id VARCHAR NOT NULL, table_name VARCHAR NOT NULL, crc32 VARCHAR)`,
    ...(rows.length ? [`INSERT INTO ${t} VALUES ${rows.join(", ")}`] : []),
  ];
}

/** Reads the stamp (empty when the file was packed before stamps existed) and the run ids of its runs table. */
export function packStampQueries(alias: string): {
  stamp: string;
  runs: string;
  hasStamp: string;
  stampAndRuns: string;
} {
  const db = `"${alias.replace(/"/g, '""')}"`;
  return {
    hasStamp: `SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE database_name = '${alias.replace(/'/g, "''")}' AND schema_name = '${PACK_STAMP_SCHEMA}' AND table_name = 'tables'`,
    stamp: `SELECT run_id, table_name, crc32 FROM ${db}.${PACK_STAMP_SCHEMA}.tables`,
    runs: `SELECT DISTINCT run_id FROM ${db}.main.runs`,
    // both in one query (one worker round trip in the browser): the runs' rows have no table_name
    stampAndRuns: `SELECT run_id, table_name, crc32 FROM ${db}.${PACK_STAMP_SCHEMA}.tables UNION ALL SELECT DISTINCT run_id, NULL, NULL FROM ${db}.main.runs`,
  };
}

/**
 * Why the database `where` does not belong to this manifest, or null when it does: its runs and stamp must name
 * the manifest's run id, and the stamp's CRC-32 of each table must be the manifest's. `stamp` is undefined for a
 * file packed before stamps (then only the run id can be checked).
 */
export function packStampError(
  manifest: Manifest,
  stamp: readonly StampRow[] | undefined,
  runIds: readonly string[],
  where: string,
): string | null {
  const id = manifest.run_id;
  const other = [...runIds, ...(stamp ?? []).map((r) => r.run_id)].find((r) => r !== id);
  if (other !== undefined)
    return `${where}: this database holds run ${other}, but the manifest is run ${id} (another run's run.duckdb copied into this bundle?); re-pack it with \`jankbook pack\``;
  if (stamp === undefined) return null;
  const packed = new Map(stamp.map((r) => [r.table_name, r.crc32]));
  for (const [name, entry] of Object.entries(manifest.tables)) {
    if (!packed.has(name))
      return `${where}: table ${name} of the manifest was not packed into this database; re-pack it with \`jankbook pack\``;
    const crc = packed.get(name) ?? undefined;
    if (crc !== entry.crc32)
      return `${where}: table ${name} was packed from a file with CRC-32 ${crc ?? "none"}, the manifest says ${entry.crc32 ?? "none"} (the database is not this bundle's, or its Arrow files changed since); re-pack it with \`jankbook pack\``;
  }
  for (const name of packed.keys())
    if (!(name in manifest.tables))
      return `${where}: table ${name} was packed into this database but the manifest does not list it; re-pack it with \`jankbook pack\``;
  return null;
}

function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
