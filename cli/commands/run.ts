// `jankbook run notebook.md`: executes a notebook headless (same runtime, cells and DuckDB-WASM engine as the
// browser; the cells in a worker it stops at --timeout or when it runs out of memory), prints progress on stderr,
// writes a report, and exits 1 when a run fails to load, a cell fails or overruns, or a check fails, naming each
// (DUNE's use: gate CI on UI performance regressions).
import { writeFile } from "node:fs/promises";
import { extname } from "node:path";
import type { Command } from "commander";
import {
  htmlReport,
  jsonReport,
  markdownReport,
  notApplicableByReason,
  reportOk,
} from "../../workspace/node/headless-report";
import { runNotebookIsolated, type IsolatedResult } from "../../workspace/node/isolated-run";

export interface NotebookCommandOptions {
  runs?: string[];
  set?: string[];
  out?: string;
  timeout?: string;
  embedData?: boolean;
  maxMemory?: string;
  maxRows?: string;
  maxResultMb?: string;
  engine?: string;
}

/** A positive number from an option, or undefined when not given; else an error naming the option. */
function positive(option: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${option} ${value}: expected a positive number`);
  return n;
}

export function parseSets(sets: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of sets) {
    const eq = s.indexOf("=");
    if (eq <= 0) throw new Error(`--set ${s}: expected name=value`);
    out[s.slice(0, eq)] = s.slice(eq + 1);
  }
  return out;
}

const REPORT_TYPES = [".html", ".htm", ".json", ".md"];

export async function executeNotebook(path: string, opts: NotebookCommandOptions): Promise<IsolatedResult> {
  const ext = opts.out ? extname(opts.out).toLowerCase() : "";
  if (opts.out && !REPORT_TYPES.includes(ext))
    throw new Error(`--out ${opts.out}: the report must end in .html, .json or .md`);
  // Options are checked before an engine is started.
  const set = parseSets(opts.set);
  const memoryMb = positive("--max-memory", opts.maxMemory);
  const maxRows = positive("--max-rows", opts.maxRows);
  const maxResultMb = positive("--max-result-mb", opts.maxResultMb);
  // Started, not awaited: the notebook worker loads its modules while the engine starts.
  const engine = opts.engine ? engineFor(path, opts) : undefined;
  const r = await runNotebookIsolated(path, {
    runs: opts.runs,
    set,
    timeoutMs: opts.timeout ? Number(opts.timeout) * 1000 : undefined,
    memoryMb,
    resultCaps: { maxRows, maxBytes: maxResultMb && maxResultMb * 2 ** 20 },
    report: ext === ".json" ? "json" : ext === ".md" ? "md" : ext ? "html" : null,
    embedData: opts.embedData,
    onProgress: (line) => process.stderr.write(`${line}\n`),
    ...(engine ? { engine } : {}),
  });
  if (!engine) return r;
  // The runner closes only an engine it made: this one is ours.
  const close = r.close.bind(r);
  const ours = await engine;
  return Object.assign(r, { close: async () => (await close(), await ours.close()) });
}

async function engineFor(path: string, opts: NotebookCommandOptions) {
  const { chooseEngine } = await import("../../workspace/node/choose-engine");
  const chosen = await chooseEngine(opts.engine!, path);
  process.stderr.write(`${chosen.reason}\n`);
  return chosen.engine;
}

/** Writes the report named by --out (by extension), prints the verdict; returns the exit code. */
export async function report(r: IsolatedResult, out: string | undefined, embedData = false): Promise<number> {
  if (out) {
    const ext = extname(out).toLowerCase();
    const text =
      ext === ".json"
        ? jsonReport(r)
        : ext === ".md"
          ? markdownReport(r)
          : ext === ".html" || ext === ".htm"
            ? await htmlReport(r, embedData)
            : null;
    if (text === null) throw new Error(`--out ${out}: the report must end in .html, .json or .md`);
    await writeFile(out, text);
    process.stderr.write(`wrote ${out}\n`);
  }
  for (const e of r.loadErrors) process.stderr.write(`load failed: ${e}\n`);
  for (const line of r.setErrors) process.stderr.write(`${line}\n`);
  if (r.stopped)
    process.stderr.write(
      `stopped: ${r.stopped.cells.length ? r.stopped.cells.join("; ") : "the notebook"} ${r.stopped.message}\n`,
    );
  for (const s of r.failedCells)
    process.stderr.write(`cell failed: ${s.kind} ${s.name ?? (s.defines.join(", ") || s.id)}: ${s.error}\n`);
  for (const c of r.failedChecks)
    process.stderr.write(`check failed: ${c.name}${c.detail ? ` (${c.detail})` : ""}\n`);
  for (const [reason, cells] of notApplicableByReason(r.notApplicableCells))
    process.stderr.write(
      `not applicable (${cells.length} cell${cells.length > 1 ? "s" : ""}: ${cells.join(", ")}): ${reason}\n`,
    );
  const passed = r.checks.length - r.failedChecks.length;
  const skipped = r.notApplicableCells.length;
  process.stderr.write(
    `${r.states.length} cells, ${r.failedCells.length} failed${skipped ? `, ${skipped} not applicable` : ""}; ` +
      `${r.checks.length} checks, ${passed} passed` +
      `${r.loadErrors.length ? `; ${r.loadErrors.length} load errors` : ""}` +
      `${r.setErrors.length ? "; --set not applied (above)" : ""}` +
      ` (load ${Math.round(r.ms.load)} ms, run ${Math.round(r.ms.run)} ms)\n`,
  );
  return reportOk(r) ? 0 : 1;
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** The bounds of a run's cells, shared by run and publish. */
export function withLimits(command: Command): Command {
  return command
    .option("--max-memory <MB>", "heap limit of the cells (default: half the machine's memory, at most 4096)")
    .option("--max-rows <n>", "fail a query whose result has more rows (default 50,000,000)")
    .option("--max-result-mb <MB>", "fail a query whose result is bigger, as Arrow (default 1024)");
}

export function registerRun(program: Command, setExitCode: (code: number) => void) {
  const command = program
    .command("run")
    .description(
      "run a notebook headless; exit 1 if a run fails to load, a cell fails or overruns, or a check fails",
    )
    .argument("<notebook>", "notebook .md file")
    .option(
      "--runs <dir>",
      "run bundle folder, or a folder of them (repeatable; replaces the front matter's runs)",
      collect,
    )
    .option("--set <name=value>", "set an input (repeatable), e.g. --set tauMs=300", collect)
    .option("--out <file>", "write a report: .html (published page), .json (cell values, checks) or .md")
    .option("--timeout <seconds>", "stop the cells still running after this long and report the rest", "120");
  withLimits(command)
    .option("--embed-data", "with an .html report, embed every result table in full as Arrow")
    .option(
      "--engine <name>",
      "auto (native; DuckDB-WASM if it does not start), wasm (the browser's DuckDB) or native",
      "auto",
    )
    .action(async (path: string, opts: NotebookCommandOptions) => {
      const r = await executeNotebook(path, opts);
      try {
        setExitCode(await report(r, opts.out, opts.embedData));
      } finally {
        await r.close();
      }
    });
}
