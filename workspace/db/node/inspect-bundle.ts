// What `jankbook info` reports without decoding a table: the manifest, each Arrow file's message headers walked
// through the splitter `run` loads it with (arrow-headers.ts: schemas, record batch headers, null counts of required
// columns, cuts: the faults `run` catches, found the same way), and a packed run's database from its catalog (row
// counts from DuckDB's metadata, the pack stamp).
import { DuckDBInstance } from "@duckdb/node-api";
import { bundlePath } from "../../../bundle/bundle-path";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { walkArrowHeaders } from "../../../bundle/arrow-headers";
import { BundleError, parseManifest, type Manifest } from "../../../bundle/manifest";
import { packStampError, packStampQueries, type StampRow } from "../../../bundle/pack-stamp";

export interface BundleInspection {
  manifest: Manifest;
  /** rows per table as the Arrow files hold them (runs from the manifest), in load order */
  tables: { name: string; rows: number }[];
  /** a packed run's database: rows per table from its catalog */
  database?: { file: string; tables: Record<string, number> };
  errors: string[];
}

export async function inspectBundle(dir: string): Promise<BundleInspection> {
  const manifestPath = join(dir, "manifest.json");
  const text = await readFile(manifestPath, "utf8").catch((e: Error) => {
    throw Object.assign(new BundleError(manifestPath, `cannot read (${e.message})`), { cause: e });
  });
  const manifest = parseManifest(text, manifestPath);
  const tables: BundleInspection["tables"] = [{ name: "runs", rows: 1 }];
  const errors: string[] = [];
  for (const [name, entry] of Object.entries(manifest.tables)) {
    const file = join(dir, entry.file);
    try {
      const walked = await walkArrowHeaders(await bundlePath(dir, entry.file), file, name, entry.crc32);
      tables.push({ name, rows: walked.rows });
      errors.push(...walked.errors.map((e) => e.message));
      if (walked.errors.length === 0 && walked.rows !== entry.rows)
        errors.push(`${file}: table ${name}: manifest says ${entry.rows} rows, file has ${walked.rows}`);
    } catch (e) {
      tables.push({ name, rows: 0 });
      errors.push((e as Error).message);
    }
  }
  const database = manifest.database ? await inspectDatabase(dir, manifest, errors) : undefined;
  return { manifest, tables, ...(database ? { database } : {}), errors };
}

async function inspectDatabase(
  dir: string,
  manifest: Manifest,
  errors: string[],
): Promise<BundleInspection["database"]> {
  const entry = manifest.database!;
  const where = `${dir}/${entry.file}`;
  const instance = await DuckDBInstance.create(":memory:");
  const conn = await instance.connect();
  try {
    const path = await bundlePath(dir, entry.file);
    await conn.run(`ATTACH '${path.replace(/'/g, "''")}' AS db (READ_ONLY)`);
    const rows = async (sql: string, params?: string[]) =>
      (await conn.runAndReadAll(sql, params)).getRowObjectsJS();
    const tables: Record<string, number> = {};
    for (const r of await rows(
      "SELECT table_name, estimated_size::BIGINT AS n FROM duckdb_tables() WHERE database_name = 'db' AND schema_name = 'main' ORDER BY 1",
    ))
      tables[String(r.table_name)] = Number(r.n);
    for (const [name, n] of Object.entries(entry.tables))
      if (tables[name] !== n)
        errors.push(
          `${where}: table ${name}: manifest says ${n} rows, the database has ${tables[name] ?? "no such table"}`,
        );
    const q = packStampQueries("db");
    const stamped = Number((await rows(q.hasStamp))[0]?.n ?? 0) > 0;
    const stamp = stamped ? ((await rows(q.stamp)) as unknown as StampRow[]) : undefined;
    const refused = packStampError(
      manifest,
      stamp,
      (await rows(q.runs)).map((r) => String(r.run_id)),
      where,
    );
    if (refused) errors.push(refused);
    return { file: entry.file, tables };
  } catch (e) {
    errors.push(e instanceof BundleError ? e.message : `${where}: cannot open (${(e as Error).message})`);
    return undefined;
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
