// manifest.json: what a run is, where its tables are, and how complete it is (docs/architecture.md).
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
  /** table name -> file name, row count and the file's CRC-32 (8 hex digits; absent in older bundles) */
  tables: Record<string, { file: string; rows: number; crc32?: string }>;
  /** the run's DuckDB database file, when packed (`jankbook pack`): the fast form of the same tables */
  database?: DatabaseEntry;
  /** agent lines lost per type (docs/agent-protocol.md, "Lost lines"); absent when none was */
  lost_lines?: Record<string, number>;
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

/** A table's file: a plain name inside the bundle folder (no separators, no "..", no leading dot). */
export const SAFE_FILE = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;

type Check = (v: unknown) => string | null;
const str: Check = (v) => (typeof v === "string" ? null : "a string");
const strOrNull: Check = (v) => (v === null || typeof v === "string" ? null : "a string or null");
const bool: Check = (v) => (typeof v === "boolean" ? null : "true or false");
const num: Check = (v) => (typeof v === "number" && Number.isFinite(v) ? null : "a number");
const numOrNull: Check = (v) => (v === null ? null : num(v) && "a number or null");
const intOrNull: Check = (v) =>
  v === null || (typeof v === "number" && Number.isSafeInteger(v)) ? null : "an integer or null";
const strings: Check = (v) =>
  Array.isArray(v) && v.every((x) => typeof x === "string") ? null : "an array of strings";

// The manifest's schema: field -> check; optional fields may be absent (never of another type).
const CONTEXT: Record<string, Check> = {
  app: str,
  app_version: strOrNull,
  scenario: strOrNull,
  device_model: strOrNull,
  manufacturer: strOrNull,
  sdk_release: strOrNull,
  api_level: intOrNull,
  cpu_abi: strOrNull,
  screen_width: intOrNull,
  screen_height: intOrNull,
  refresh_hz: numOrNull,
  network: strOrNull,
  battery_level: numOrNull,
};
const CLOCK: Record<string, Check> = { domain: str, offset_ns: num, note: str };
const SOURCE: Record<string, Check> = { kind: str, origin: str, tables: strings };
/** lost_lines: line type -> count, each a whole number from 0. */
const counts: Check = (v) =>
  isObject(v) && Object.values(v).every((n) => typeof n === "number" && Number.isSafeInteger(n) && n >= 0)
    ? null
    : "an object of line counts";
const OPTIONAL_TOP: Record<string, Check> = {
  created_by: str,
  started_at: strOrNull,
  synthetic: bool,
  complete: bool,
  warnings: strings,
  lost_lines: counts,
};

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Checks the fields of `o` that `schema` names (unknown fields are left for newer writers); `required` must be there. */
function checkFields(
  o: Record<string, unknown>,
  schema: Record<string, Check>,
  path: string,
  file: string,
  required: string[] = [],
) {
  for (const name of required) expect(name in o, file, `${path}${name} missing`);
  for (const [name, check] of Object.entries(schema)) {
    if (!(name in o) || (o[name] === undefined && !required.includes(name))) continue;
    const wrong = check(o[name]);
    if (wrong) throw new BundleError(file, `${path}${name}: expected ${wrong}, got ${show(o[name])}`);
  }
}

function show(v: unknown): string {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Parses and checks manifest.json against its schema; a wrong field is an error naming the field. */
export function parseManifest(text: string, file = "manifest.json"): Manifest {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new BundleError(file, `not valid JSON (${(e as Error).message})`);
  }
  expect(isObject(raw), file, "expected a JSON object");
  const m = raw;
  const version = m.schema_version;
  expect(
    typeof version === "number" && Number.isInteger(version) && version >= 1,
    file,
    `schema_version: expected an integer from 1, got ${show(version)}`,
  );
  if (version > SCHEMA_VERSION)
    throw new BundleError(
      file,
      `schema_version ${version} is newer than this jankbook understands (${SCHEMA_VERSION}); upgrade jankbook to open it`,
    );
  expect(typeof m.run_id === "string" && m.run_id.length > 0, file, "run_id missing or empty");
  checkFields(m, OPTIONAL_TOP, "", file);
  const context = m.context;
  expect(isObject(context), file, "context missing or not an object");
  checkFields(context, CONTEXT, "context.", file, ["app"]);
  if (m.clock !== undefined) {
    expect(isObject(m.clock), file, "clock: expected an object");
    checkFields(m.clock, CLOCK, "clock.", file, ["domain", "offset_ns"]);
  }
  if (m.sources !== undefined) {
    expect(Array.isArray(m.sources), file, "sources: expected an array");
    m.sources.forEach((x: unknown, i) => {
      expect(isObject(x), file, `sources[${i}]: expected an object`);
      checkFields(x, SOURCE, `sources[${i}].`, file, ["kind", "origin"]);
    });
  }
  const tables = m.tables;
  expect(isObject(tables), file, "tables missing or not an object");
  for (const [name, entry] of Object.entries(tables)) {
    expect(TABLE_NAMES.includes(name as never) && name !== "runs", file, `tables.${name}: unknown table`);
    expect(isObject(entry), file, `tables.${name}: expected an object`);
    expect(typeof entry.file === "string", file, `tables.${name}.file missing`);
    // The file is read relative to the bundle: a path out of it ("../../etc/hostname") is refused.
    expect(
      SAFE_FILE.test(entry.file) && !entry.file.includes(".."),
      file,
      `tables.${name}.file: ${show(entry.file)} is not a plain file name inside the bundle`,
    );
    expect(
      typeof entry.rows === "number" && Number.isSafeInteger(entry.rows) && entry.rows >= 0,
      file,
      `tables.${name}.rows: expected a row count, got ${show(entry.rows)}`,
    );
    expect(
      entry.crc32 === undefined || (typeof entry.crc32 === "string" && /^[0-9a-f]{8}$/.test(entry.crc32)),
      file,
      `tables.${name}.crc32: expected 8 hex digits, got ${show(entry.crc32)}`,
    );
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
    warnings: Array.isArray(m.warnings) ? (m.warnings as string[]) : [],
    tables: tables as Manifest["tables"],
    ...(database ? { database } : {}),
    ...(m.lost_lines !== undefined ? { lost_lines: m.lost_lines as Record<string, number> } : {}),
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
