// `jankbook import FILE... --out DIR`: the files of one session into one run bundle (tables of the same
// name concatenated, every file listed in the manifest's sources, device context from getprop / wm size /
// dumpsys display / dumpsys battery outputs among them). A Macrobenchmark result is a folder of runs, one
// per iteration. Kinds are detected from the content by the registry in collectors/import/importers.ts.
import { open, readFile, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import type { Table } from "apache-arrow";
import type { Command } from "commander";
import { newManifest, type Manifest, type RunContext } from "../../bundle/manifest";
import { writeBundleFolder } from "../../bundle/node-io";
import type { TableName } from "../../bundle/schema";
import type { TextImport } from "../../collectors/import/framestats";
import {
  detectImporter,
  ImportError,
  ImportFile,
  IMPORTERS,
  type Importer,
} from "../../collectors/import/importers";
import type { BenchmarkRun } from "../../collectors/import/macrobenchmark";
import { detectMethodTrace } from "../../collectors/import/method-trace";
import { importMethodTraceFile, type StreamedImport } from "../../collectors/import/method-trace-file";
import { mergeTables } from "../../collectors/import/merge-tables";
import { mergeContexts, parseContextOverrides } from "../../collectors/import/run-context";

export interface ImportedRun {
  dir: string;
  runId: string;
  kinds: string[];
  tables: Partial<Record<TableName, Table>>;
  complete: boolean;
  warnings: string[];
  manifest: Manifest;
}

export interface ImportOptions {
  runId?: string;
  /** `key=value` context overrides */
  context?: readonly string[];
}

const SYNTHETIC_CLOCK = {
  domain: "synthetic",
  offset_ns: 0,
  note: "Macrobenchmark output has no timestamps: frame k of an iteration is at k x the frame period (docs/macrobenchmark.md)",
};

export function defaultRunId(file: string): string {
  return `import-${basename(file)
    .replace(/\.[^.]*$/, "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")}`;
}

/** Bytes of a file read to detect its kind before reading it all (a method trace is then read in chunks). */
const HEAD_BYTES = 1 << 16;

async function readInput(path: string): Promise<ImportFile> {
  try {
    const file = await open(path);
    try {
      const { size } = await file.stat();
      if (size > HEAD_BYTES) {
        const head = new Uint8Array(HEAD_BYTES);
        const { bytesRead } = await file.read(head, 0, HEAD_BYTES, 0);
        if (detectMethodTrace(head.subarray(0, bytesRead)))
          return new ImportFile(basename(path), head.subarray(0, bytesRead), path);
      }
      return new ImportFile(basename(path), new Uint8Array(await file.readFile()));
    } finally {
      await file.close();
    }
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why =
      err.code === "ENOENT" ? "no such file" : err.code === "EISDIR" ? "a folder, not a file" : err.message;
    throw new ImportError(`${path}: cannot read (${why})`);
  }
}

/** Imports the files of one session into `<out>/<runId>` (Macrobenchmark files: one run per iteration). */
export async function importFiles(
  paths: readonly string[],
  out: string,
  options: ImportOptions = {},
): Promise<ImportedRun[]> {
  if (!paths.length) throw new ImportError("no files to import");
  const overrides = parseContextOverrides(options.context ?? []);
  const files = await Promise.all(paths.map(readInput));
  const kinds = files.map((f) => detectImporter(f));
  const seen = new Set<string>();
  for (const f of files) {
    if (seen.has(f.name))
      throw new ImportError(`${f.name}: given twice (file names name the sources of a run)`);
    seen.add(f.name);
  }
  const session = files.filter((_, i) => !kinds[i]!.runs);
  const firstData = session.find((f) => !kinds[files.indexOf(f)]!.context) ?? session[0] ?? files[0]!;
  const runId = options.runId ?? defaultRunId(firstData.name);
  // A folder-of-runs file names its runs after itself (or --run-id when it is the only file).
  const baseOf = (f: ImportFile) =>
    options.runId && files.length === 1 ? options.runId : defaultRunId(f.name);

  // Context files first: their refresh rate sets the data files' frame budgets.
  const parts: {
    file: string;
    kind: Importer;
    result: TextImport & { files?: Record<string, string> } & Partial<StreamedImport>;
  }[] = [];
  // A method trace is streamed into the bundle (never read whole: docs/scaling.md) unless two would share it.
  const streamable = kinds.filter((k) => k.kind === "method-trace").length === 1;
  const order = files
    .map((_, i) => i)
    .sort((a, b) => Number(!kinds[a]!.context) - Number(!kinds[b]!.context));
  const benchmarkRuns: { file: string; runs: BenchmarkRun[] }[] = [];
  for (const i of order) {
    const f = files[i]!;
    const kind = kinds[i]!;
    const refreshHz =
      overrides.refresh_hz ??
      mergeContexts(parts.map((p) => ({ file: p.file, context: p.result.context }))).context.refresh_hz ??
      null;
    let result;
    try {
      if (f.path !== null && streamable)
        result = importMethodTraceFile(f.path, f.name, runId, join(out, runId));
      else {
        const whole = f.path === null ? f : new ImportFile(f.name, new Uint8Array(await readFile(f.path)));
        result = kind.import(whole, { runId: kind.runs ? baseOf(f) : runId, refreshHz });
      }
    } catch (e) {
      const msg = (e as Error).message;
      // cause: the parser's own error, so a fuzzer can tell a refusal from a crash (bench/fuzz.bench.ts)
      throw new ImportError(msg.includes(f.name) ? msg : `${f.name}: ${msg}`, { cause: e });
    }
    if ("runs" in result) benchmarkRuns.push({ file: f.name, runs: result.runs });
    else parts.push({ file: f.name, kind, result });
    if (f.encoding && f.encoding.encoding !== "utf-8") {
      const note = `${f.name}: read as ${f.encoding.encoding.toUpperCase()}${f.encoding.bom ? " (byte-order mark)" : ""}`;
      for (const w of "runs" in result ? result.runs.map((r) => r.imported.warnings) : [result.warnings])
        w.push(note);
    }
  }
  const ids = benchmarkRuns.flatMap((b) => b.runs.map((r) => r.runId));
  if (parts.length) ids.push(runId);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice) throw new ImportError(`run id ${twice} would be written twice; give the files distinct names`);

  const sessionContext = parts.map((p) => ({ file: p.file, context: p.result.context }));
  const written: ImportedRun[] = [];
  for (const { runs } of benchmarkRuns)
    for (const r of runs) {
      const merged = mergeContexts(
        [{ file: r.imported.source.origin, context: r.imported.context }, ...sessionContext],
        overrides,
      );
      const warnings = [...r.imported.warnings, ...merged.warnings];
      const manifest = newManifest(
        r.runId,
        { ...merged.context, scenario: overrides.scenario ?? r.imported.context.scenario ?? null },
        {
          started_at: r.imported.started_at,
          clock: SYNTHETIC_CLOCK,
          sources: [
            { ...r.imported.source, tables: Object.keys(r.imported.tables) },
            ...parts.map((p) => ({ ...p.result.source, tables: [] })),
          ],
          complete: r.imported.complete,
          warnings,
        },
      );
      const dir = join(out, r.runId);
      written.push({
        dir,
        runId: r.runId,
        kinds: ["macrobenchmark", ...parts.map((p) => p.kind.kind)],
        tables: r.imported.tables,
        complete: r.imported.complete,
        warnings,
        manifest: await writeBundleFolder(dir, manifest, r.imported.tables),
      });
    }
  // Context-only files given with a Macrobenchmark result describe its runs; anything else is a session run.
  const sessionHasData = parts.some((p) => !p.kind.context);
  if (parts.length && (sessionHasData || !benchmarkRuns.length)) {
    const merged = mergeContexts(sessionContext, overrides);
    const { tables, dropped } = mergeTables(
      runId,
      parts.map((p) => ({ file: p.file, tables: p.result.tables })),
    );
    const warnings = [...parts.flatMap((p) => p.result.warnings), ...merged.warnings];
    if (dropped)
      warnings.push(`frames: ${dropped} rows seen in an earlier file (overlapping dumps) kept once`);
    const complete = parts.every((p) => p.result.complete);
    const scenario =
      overrides.scenario ??
      (parts.length === 1
        ? parts[0]!.result.context.scenario
        : `import ${parts.map((p) => p.file).join(", ")}`);
    // A trace that converted its times (Perfetto: BOOTTIME to MONOTONIC; systrace: kept in ftrace's clock) says so.
    const clocks = parts.flatMap((p) => ("clock" in p.result ? [p.result.clock as Manifest["clock"]] : []));
    if (clocks.length > 1)
      warnings.push(`${clocks.length} files carry their own clock; the manifest names the first`);
    const lost: Record<string, number> = {};
    for (const p of parts)
      for (const [type, n] of Object.entries(("lost_lines" in p.result && p.result.lost_lines) || {}))
        lost[type] = (lost[type] ?? 0) + n;
    const manifest = newManifest(
      runId,
      { ...merged.context, scenario: scenario ?? null },
      {
        sources: parts.map((p) => ({
          ...p.result.source,
          tables: p.result.order ?? Object.keys(p.result.tables),
        })),
        complete,
        warnings,
        ...(Object.keys(lost).length ? { lost_lines: lost } : {}),
        ...(clocks[0] ? { clock: clocks[0] } : {}),
      },
    );
    const dir = join(out, runId);
    const streamed = Object.assign({}, ...parts.map((p) => p.result.written ?? {}));
    const m = await writeBundleFolder(dir, manifest, tables, streamed);
    for (const p of parts)
      for (const [name, text] of Object.entries(p.result.files ?? {})) await writeFile(join(dir, name), text);
    written.push({
      dir,
      runId,
      kinds: parts.map((p) => p.kind.kind),
      tables,
      complete,
      warnings,
      manifest: m,
    });
  }
  return written;
}

/** One file into one run (the single-file form of importFiles); throws for a multi-run Macrobenchmark file. */
export async function importFile(
  file: string,
  out: string,
  runId?: string,
): Promise<{ dir: string; kind: string; imported: ImportedRun }> {
  const runs = await importFiles([file], out, { runId });
  if (runs.length !== 1) throw new ImportError(`${file}: holds ${runs.length} runs; use importFiles`);
  // The source's own kind names the flavour (systrace-ctrace, not systrace).
  const run = runs[0]!;
  return { dir: run.dir, kind: run.manifest.sources[0]?.kind ?? run.kinds[0]!, imported: run };
}

function rowsLine(tables: Manifest["tables"]): string {
  return (
    Object.entries(tables)
      .map(([k, t]) => `${k} ${t.rows}`)
      .join(", ") || "no tables"
  );
}

function contextLine(c: RunContext): string {
  const screen = c.screen_width && c.screen_height ? `${c.screen_width}x${c.screen_height}` : null;
  const parts = [
    c.device_model,
    c.api_level ? `API ${c.api_level}` : null,
    screen,
    c.refresh_hz ? `${c.refresh_hz} Hz` : null,
  ];
  return parts.filter(Boolean).join(", ");
}

export function registerImport(program: Command, setExitCode: (code: number) => void) {
  program
    .command("import")
    .description(
      "import the saved files of one session into a run bundle (method trace, framestats, gfxinfo, logcat, simpleperf stat, getprop, wm size, dumpsys display/battery; a Macrobenchmark result becomes one run per iteration)",
    )
    .argument("<files...>", "files to import; each one's kind is detected from its content")
    .requiredOption("--out <dir>", "folder to write the bundle into (one sub-folder per run)")
    .option("--run-id <id>", "run id (default: import-<first data file name>)")
    .option(
      "--context <key=value>",
      "set a context field (device_model, api_level, refresh_hz, screen=1080x2400, ...); repeatable",
      (v: string, prev: string[]) => [...prev, v],
      [] as string[],
    )
    .option("--pack", "also write run.duckdb (jankbook pack) for every run; done anyway past 100,000 rows")
    .addHelpText("after", `\nAccepted kinds:\n${IMPORTERS.map((i) => `  ${i.describe}`).join("\n")}\n`)
    .action(
      async (files: string[], o: { out: string; runId?: string; context: string[]; pack?: boolean }) => {
        const runs = await importFiles(files, o.out, { runId: o.runId, context: o.context });
        // The database file opens big runs at once (docs/scaling.md); a small run loads as fast from its
        // Arrow files, and packing costs ~0.5 s of DuckDB start-up that a 1 MB import's budget
        // (docs/budgets.md) has no room for.
        const packed = await packBig(runs, o.pack === true);
        const shown = runs.length > 12 ? runs.slice(0, 10) : runs;
        for (const r of shown) {
          const ctx = contextLine(r.manifest.context);
          process.stdout.write(
            `${r.dir}: ${r.kinds.join(" + ")}: ${rowsLine(r.manifest.tables)}${ctx ? ` (${ctx})` : ""}${r.complete ? "" : "  [incomplete]"}\n`,
          );
          for (const w of r.warnings.slice(0, 30)) process.stdout.write(`  warning: ${w}\n`);
          if (r.warnings.length > 30)
            process.stdout.write(`  ... ${r.warnings.length - 30} more warnings in manifest.json\n`);
        }
        for (const line of packed) process.stdout.write(`${line}\n`);
        if (shown.length < runs.length)
          process.stdout.write(`... and ${runs.length - shown.length} more runs in ${o.out}\n`);
        if (runs.some((r) => !r.complete)) setExitCode(2);
      },
    );
}

/** Rows in a run at which import writes run.duckdb without being asked. */
export const PACK_ROWS = 100_000;

async function packBig(runs: ImportedRun[], always: boolean): Promise<string[]> {
  const big = runs.filter(
    (r) => always || Object.values(r.manifest.tables).reduce((n, t) => n + t.rows, 0) >= PACK_ROWS,
  );
  if (!big.length) return [];
  const { packBundle } = await import("../../workspace/db/node/pack-bundle");
  const lines: string[] = [];
  for (const r of big) {
    const p = await packBundle(r.dir);
    lines.push(
      `${p.file}: packed${p.errors.length ? ` (${p.errors.length} errors: ${p.errors.join("; ")})` : ""}`,
    );
  }
  return lines;
}
