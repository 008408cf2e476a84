// Runs attached from their database files (docs/scaling.md, "Tier 1"): each packed run is its own read-only
// attached database, and the tables notebooks query (`frames`, `tasks`, ...) become views over every attached
// run's table plus the rows streamed in from bundles without a database file.
import type { DatabaseEntry, Manifest } from "../../bundle/manifest";
import { PACK_STAMP_SCHEMA, packStampError, packStampQueries, type StampRow } from "../../bundle/pack-stamp";
import type { DatabaseFile } from "../../bundle/read-bundle";
import { TABLE_NAMES } from "../../bundle/schema";
import { PACKED_OVERVIEW } from "../../bundle/overview-sql";
import { DATABASE, quoteIdent, STREAMED_SUFFIX, type LoadReport, type SqlEngine } from "./engine";

interface CatalogRow {
  run: boolean;
  schema_name: string;
  table_name: string;
  n: bigint | null;
  column_name: string | null;
}

export class RunViews {
  /** table -> aliases of the attached databases that hold it */
  private readonly attached = new Map<string, string[]>();
  /** tables whose streamed rows were moved aside to `<table>__streamed` when a view took their name */
  private readonly streamedAside = new Set<string>();
  private attachments = 0;
  /** attached runs whose file carries the overview's precomputed slices (workspace/db/node/pack-overview.ts) */
  private readonly overviews: string[] = [];
  /** run id -> alias of its attached database */
  private readonly aliases = new Map<string, string>();

  constructor(readonly engine: SqlEngine) {}

  /**
   * The table the streamed rows of `table` go into: itself while no attached run has it, else its streamed
   * part beside the view (a view cannot be inserted into).
   */
  streamTarget(table: string): string {
    return this.attached.has(table) ? `${table}${STREAMED_SUFFIX}` : table;
  }

  /** After a streaming load: views whose streamed part was created just now take it in. */
  async streamed(tables: readonly string[]): Promise<void> {
    for (const table of tables)
      if (this.attached.has(table) && !this.streamedAside.has(table)) {
        this.streamedAside.add(table);
        await this.createView(table);
        if (table === "frames") await this.refreshOverview();
      }
  }

  /**
   * Attaches a run's database file read-only and points the views at its tables. Row counts are checked against
   * the manifest's `database` entry; a mismatch is reported, the run is still attached. Throws when the file cannot
   * be attached at all (the caller may stream the run instead).
   */
  async attach(
    runId: string,
    label: string,
    file: DatabaseFile,
    entry: DatabaseEntry,
    manifest?: Manifest,
  ): Promise<LoadReport> {
    const engine = this.engine;
    if (!engine.registerDatabaseFile) throw new Error("this engine cannot attach database files");
    const alias = `${DATABASE}_run_${++this.attachments}`;
    this.aliases.set(runId, alias);
    const name = `${alias}.duckdb`;
    const path = await engine.registerDatabaseFile(name, file);
    await engine.query(`ATTACH '${path.replace(/'/g, "''")}' AS ${quoteIdent(alias)} (READ_ONLY)`);
    const catalog = await this.catalog(alias);
    // Another run's database copied into the bundle is not trusted: the caller streams the Arrow files instead.
    const refused =
      manifest && (await this.ownership(alias, manifest, `${label}/${entry.file}`, catalog.stamped));
    if (refused) {
      this.aliases.delete(runId);
      await engine.query(`DETACH ${quoteIdent(alias)}`);
      throw new Error(refused);
    }
    const report: LoadReport = { run_id: runId, tables: [], errors: [] };
    const where = `${label}/${entry.file}`;
    const rows = catalog.rows;
    for (const [table, n] of rows) {
      if (!TABLE_NAMES.includes(table as never)) {
        report.errors.push(`${where}: table ${table} is not in the bundle schema; left out`);
        continue;
      }
      const expected = entry.tables[table];
      if (expected !== n)
        report.errors.push(
          expected === undefined
            ? `${where}: table ${table} (${n} rows) is in the database but its manifest entry does not list it`
            : `${where}: table ${table}: manifest says ${expected} rows, the database has ${n}`,
        );
      report.tables.push({ name: table, rows: n });
    }
    for (const table of Object.keys(entry.tables))
      if (!rows.has(table)) report.errors.push(`${where}: table ${table} is listed but not in the database`);
    for (const e of entry.errors ?? []) report.errors.push(`${where}: packed partly: ${e}`);
    for (const { name: table } of report.tables) {
      await this.moveStreamedAside(table, catalog.local);
      this.attached.set(table, [...(this.attached.get(table) ?? []), alias]);
      await this.createView(table);
    }
    if (catalog.overview) this.overviews.push(alias);
    await this.refreshOverview();
    return report;
  }

  /**
   * What the attach needs from the catalogs, in one query (each costs a worker round trip, 50-250 ms under load):
   * the run's tables and their row counts (the file's metadata: nothing is scanned), whether it carries the pack
   * stamp and the overview's slices and spans (workspace/db/node/pack-overview.ts; a file packed before spans had
   * t0_plausible has its frames sliced live), and the tables already streamed into the main database.
   */
  private async catalog(
    alias: string,
  ): Promise<{ rows: Map<string, number>; stamped: boolean; overview: boolean; local: Set<string> }> {
    const found = await this.engine.query(
      `SELECT database_name = ? AS run, schema_name, table_name, estimated_size::BIGINT AS n, NULL::VARCHAR AS column_name FROM duckdb_tables() WHERE database_name = ? OR (database_name = current_database() AND schema_name = 'main')
       UNION ALL SELECT true, schema_name, table_name, NULL, column_name FROM duckdb_columns() WHERE database_name = ? AND schema_name = ? AND ((table_name = 'frames' AND column_name = 'janky_frames') OR (table_name = 'spans' AND column_name = 't0_plausible'))`,
      [alias, alias, alias, PACKED_OVERVIEW],
    );
    const rows = new Map<string, number>();
    const local = new Set<string>();
    let stamped = false;
    let overviewColumns = 0;
    for (const r of found.toArray() as CatalogRow[]) {
      if (!r.run) local.add(r.table_name);
      else if (r.column_name !== null) overviewColumns++;
      else if (r.schema_name === "main") rows.set(r.table_name, Number(r.n));
      else if (r.schema_name === PACK_STAMP_SCHEMA && r.table_name === "tables") stamped = true;
    }
    return { rows, stamped, overview: overviewColumns === 2, local };
  }

  /** Why the attached database is not this manifest's run (bundle/pack-stamp.ts), or null: one query reads both. */
  private async ownership(
    alias: string,
    manifest: Manifest,
    where: string,
    stamped: boolean,
  ): Promise<string | null> {
    const q = packStampQueries(alias);
    const found = (await this.engine.query(stamped ? q.stampAndRuns : q.runs)).toArray() as StampRow[];
    const runIds = found.filter((r) => r.table_name == null).map((r) => String(r.run_id));
    const stamp = stamped
      ? found
          .filter((r) => r.table_name != null)
          .map((r) => ({
            run_id: String(r.run_id),
            table_name: String(r.table_name),
            crc32: r.crc32 == null ? null : String(r.crc32),
          }))
      : undefined;
    return packStampError(manifest, stamp, runIds, where);
  }

  /**
   * Removes an attached run: the views stop reading its database, which is then detached (a read-only file has
   * no rows to delete). A view left with no part is dropped. Returns whether the run was attached.
   */
  async detach(runId: string): Promise<boolean> {
    const alias = this.aliases.get(runId);
    if (alias === undefined) return false;
    this.aliases.delete(runId);
    const overview = this.overviews.indexOf(alias);
    if (overview >= 0) this.overviews.splice(overview, 1);
    for (const [table, aliases] of this.attached) {
      if (!aliases.includes(alias)) continue;
      const rest = aliases.filter((a) => a !== alias);
      if (rest.length > 0 || this.streamedAside.has(table)) {
        this.attached.set(table, rest);
        await this.createView(table);
      } else {
        this.attached.delete(table);
        await this.engine.query(`DROP VIEW IF EXISTS ${DATABASE}.main.${quoteIdent(table)}`);
      }
    }
    if (this.overviews.length === 0)
      await this.engine.query(`DROP SCHEMA IF EXISTS ${DATABASE}.${PACKED_OVERVIEW} CASCADE`);
    else await this.refreshOverview();
    await this.engine.query(`DETACH ${quoteIdent(alias)}`);
    return true;
  }

  /**
   * `jb_overview.frames` and `.spans`: the packed runs' slices; `jb_overview.other_frames`: the frames of every
   * other run, the only ones the overview still slices (never a scan of a packed run's frames).
   */
  private async refreshOverview(): Promise<void> {
    if (this.overviews.length === 0) return;
    const q = (sql: string) => this.engine.query(sql);
    await q(`CREATE SCHEMA IF NOT EXISTS ${DATABASE}.${PACKED_OVERVIEW}`);
    for (const table of ["frames", "spans"])
      await q(
        `CREATE OR REPLACE VIEW ${DATABASE}.${PACKED_OVERVIEW}.${table} AS ${this.overviews
          .map((a) => `SELECT * FROM ${quoteIdent(a)}.${PACKED_OVERVIEW}.${table}`)
          .join(" UNION ALL ")}`,
      );
    // the packed runs' frame rows, from their files' metadata (FRAMES_PACKED_COUNTED_SQL)
    await q(
      `CREATE OR REPLACE VIEW ${DATABASE}.${PACKED_OVERVIEW}.packed_rows AS SELECT coalesce(sum(estimated_size), 0)::BIGINT AS n FROM duckdb_tables() WHERE schema_name = 'main' AND table_name = 'frames' AND database_name IN (${this.overviews.map((a) => `'${a.replace(/'/g, "''")}'`).join(", ")})`,
    );
    const others = (this.attached.get("frames") ?? [])
      .filter((a) => !this.overviews.includes(a))
      .map((a) => `SELECT * FROM ${quoteIdent(a)}.main.frames`);
    if (this.streamedAside.has("frames"))
      others.push(`SELECT * FROM ${DATABASE}.main.${quoteIdent(`frames${STREAMED_SUFFIX}`)}`);
    const none = `SELECT * FROM ${quoteIdent(this.overviews[0]!)}.main.frames LIMIT 0`;
    await q(
      `CREATE OR REPLACE VIEW ${DATABASE}.${PACKED_OVERVIEW}.other_frames AS ${others.length ? others.join(" UNION ALL BY NAME ") : none}`,
    );
  }

  /** A table streamed before any run with it was attached gives its name to the view and keeps its rows aside. */
  private async moveStreamedAside(table: string, local: ReadonlySet<string>): Promise<void> {
    if (this.attached.has(table) || !local.has(table)) return;
    await this.engine.query(
      `ALTER TABLE ${quoteIdent(table)} RENAME TO ${quoteIdent(`${table}${STREAMED_SUFFIX}`)}`,
    );
    this.streamedAside.add(table);
  }

  /** Runs differ in the columns they have (older bundles lack newer nullable ones): the union goes by name. */
  private async createView(table: string): Promise<void> {
    const parts = (this.attached.get(table) ?? []).map(
      (alias) => `SELECT * FROM ${quoteIdent(alias)}.main.${quoteIdent(table)}`,
    );
    if (this.streamedAside.has(table))
      parts.push(`SELECT * FROM ${DATABASE}.main.${quoteIdent(`${table}${STREAMED_SUFFIX}`)}`);
    await this.engine.query(
      `CREATE OR REPLACE VIEW ${DATABASE}.main.${quoteIdent(table)} AS ${parts.join(" UNION ALL BY NAME ")}`,
    );
  }
}
