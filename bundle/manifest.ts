// manifest.json: what a run is, where its tables are, and how complete it is (DESIGN.md, "The run bundle").
import { SCHEMA_VERSION, TABLE_NAMES } from "./schema";

export interface RunContext {
  app: string;
  app_version?: string | null;
  scenario?: string | null;
  device_model?: string | null;
  manufacturer?: string | null;
  sdk_release?: string | null;
  api_level?: number | null;
  cpu_abi?: string | null;
  screen_width?: number | null;
  screen_height?: number | null;
  refresh_hz?: number | null;
  network?: string | null;
  battery_level?: number | null;
}

export interface SourceRecord {
  /** framestats, logcat, method-trace, simpleperf, getprop, generator, ... */
  kind: string;
  /** file name or adb command the data came from */
  origin: string;
  /** tables filled from it */
  tables?: string[];
}

export interface Manifest {
  schema_version: number;
  run_id: string;
  created_by: string;
  started_at: string | null;
  synthetic: boolean;
  context: RunContext;
  clock: { domain: string; offset_ns: number; note?: string };
  sources: SourceRecord[];
  complete: boolean;
  warnings: string[];
  /** table name -> file name and row count */
  tables: Record<string, { file: string; rows: number }>;
  /** the run's DuckDB database file, when packed (`jankbook pack`): the fast form of the same tables */
  database?: DatabaseEntry;
}

export interface DatabaseEntry {
  /** file name beside manifest.json, e.g. run.duckdb */
  file: string;
  /** DuckDB storage version it was written with (readable by every DuckDB since that version) */
  storage_version: string;
  /** the DuckDB that wrote it */
  written_by: string;
  /** table name -> rows in the database (runs included) */
  tables: Record<string, number>;
  /** what the Arrow files held that did not make it in (a cut or mistyped table); absent when none */
  errors?: string[];
}

export class BundleError extends Error {
  constructor(
    readonly file: string,
    message: string,
    readonly table?: string,
    readonly column?: string,
  ) {
    super(`${file}: ${message}`);
    this.name = "BundleError";
  }
}

function expect(cond: unknown, file: string, message: string): asserts cond {
  if (!cond) throw new BundleError(file, message);
}

/** Parses and checks manifest.json; anything it cannot trust is an error naming the field. */
export function parseManifest(text: string, file = "manifest.json"): Manifest {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new BundleError(file, `not valid JSON (${(e as Error).message})`);
  }
  expect(raw && typeof raw === "object" && !Array.isArray(raw), file, "expected a JSON object");
  const m = raw as Record<string, unknown>;
  const version = m.schema_version;
  expect(
    typeof version === "number" && Number.isInteger(version),
    file,
    "schema_version missing or not an integer",
  );
  if (version > SCHEMA_VERSION)
    throw new BundleError(
      file,
      `schema_version ${version} is newer than this jankbook understands (${SCHEMA_VERSION}); upgrade jankbook to open it`,
    );
  expect(typeof m.run_id === "string" && m.run_id.length > 0, file, "run_id missing or empty");
  const context = m.context as Record<string, unknown> | undefined;
  expect(context && typeof context === "object", file, "context missing");
  expect(typeof context.app === "string", file, "context.app missing");
  const tables = m.tables as Record<string, { file?: unknown; rows?: unknown }> | undefined;
  expect(tables && typeof tables === "object", file, "tables missing");
  for (const [name, entry] of Object.entries(tables)) {
    expect(TABLE_NAMES.includes(name as never) && name !== "runs", file, `tables.${name}: unknown table`);
    expect(typeof entry?.file === "string", file, `tables.${name}.file missing`);
    expect(typeof entry.rows === "number", file, `tables.${name}.rows missing`);
  }
  const database = parseDatabaseEntry(m.database, file);
  const clock = (m.clock ?? { domain: "CLOCK_MONOTONIC", offset_ns: 0 }) as Manifest["clock"];
  return {
    schema_version: version,
    run_id: m.run_id,
    created_by: typeof m.created_by === "string" ? m.created_by : "unknown",
    started_at: typeof m.started_at === "string" ? m.started_at : null,
    synthetic: m.synthetic === true,
    context: context as unknown as RunContext,
    clock,
    sources: Array.isArray(m.sources) ? (m.sources as SourceRecord[]) : [],
    complete: m.complete !== false,
    warnings: Array.isArray(m.warnings) ? (m.warnings as unknown[]).map(String) : [],
    tables: tables as Manifest["tables"],
    ...(database ? { database } : {}),
  };
}

function parseDatabaseEntry(raw: unknown, file: string): DatabaseEntry | undefined {
  if (raw === undefined || raw === null) return undefined;
  const d = raw as Record<string, unknown>;
  expect(typeof d === "object" && typeof d.file === "string", file, "database.file missing");
  expect(
    !/[\\/]/.test(d.file) && d.file !== "..",
    file,
    `database.file ${d.file}: must be a file name beside manifest.json`,
  );
  expect(typeof d.storage_version === "string", file, "database.storage_version missing");
  const tables = d.tables as Record<string, unknown> | undefined;
  expect(tables && typeof tables === "object", file, "database.tables missing");
  for (const [name, rows] of Object.entries(tables))
    expect(
      typeof rows === "number" && Number.isInteger(rows),
      file,
      `database.tables.${name}: row count missing`,
    );
  return {
    file: d.file,
    storage_version: d.storage_version,
    written_by: typeof d.written_by === "string" ? d.written_by : "unknown",
    tables: tables as Record<string, number>,
    ...(Array.isArray(d.errors) ? { errors: d.errors.map(String) } : {}),
  };
}

export function newManifest(runId: string, context: RunContext, init: Partial<Manifest> = {}): Manifest {
  return {
    schema_version: SCHEMA_VERSION,
    run_id: runId,
    created_by: "jankbook",
    started_at: null,
    synthetic: false,
    context,
    clock: { domain: "CLOCK_MONOTONIC", offset_ns: 0 },
    sources: [],
    complete: true,
    warnings: [],
    tables: {},
    ...init,
  };
}
