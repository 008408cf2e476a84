// `jankbook run notebook.md`: executes a notebook headless (same runtime, cells and DuckDB-WASM engine as the
// browser), prints progress on stderr, writes a report, and exits 1 when a cell fails or a check fails, naming
// each failed check (DUNE's use: gate CI on UI performance regressions).
import { writeFile } from "node:fs/promises";
import { extname } from "node:path";
import type { Command } from "commander";
import { runNotebookFile, type HeadlessResult } from "../../workspace/notebook/headless";
import { snapshotNotebook } from "../../workspace/notebook/snapshot";
import { publishNotebook } from "../../workspace/publish/publish";
import { createNodePublishContext } from "../../workspace/publish/node-context";

export interface NotebookCommandOptions {
  runs?: string[];
  set?: string[];
  out?: string;
  timeout?: string;
  embedData?: boolean;
  engine?: string;
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

export async function executeNotebook(path: string, opts: NotebookCommandOptions): Promise<HeadlessResult> {
  if (opts.out && !REPORT_TYPES.includes(extname(opts.out).toLowerCase()))
    throw new Error(`--out ${opts.out}: the report must end in .html, .json or .md`);
  return runNotebookFile(path, {
    runs: opts.runs,
    set: parseSets(opts.set),
    timeoutMs: opts.timeout ? Number(opts.timeout) * 1000 : undefined,
    onProgress: (line) => process.stderr.write(`${line}\n`),
    ...(opts.engine ? { engine: await engineFor(path, opts) } : {}),
  });
}

async function engineFor(path: string, opts: NotebookCommandOptions) {
  const { chooseEngine } = await import("../../workspace/db/choose-engine");
  const chosen = await chooseEngine(opts.engine!, path, opts.runs);
  process.stderr.write(`${chosen.reason}\n`);
  return chosen.engine;
}

export function renderHtml(r: HeadlessResult, embedData = false): string {
  return publishNotebook(r.notebook, r.states, createNodePublishContext(r.provenance, { embedData }));
}

function markdownReport(r: HeadlessResult): string {
  const lines = [
    `# ${r.provenance.title ?? r.path}`,
    "",
    `jankbook ${r.provenance.jankbookVersion}, ${r.provenance.generatedAt}`,
    "",
  ];
  lines.push(
    "## Runs",
    "",
    ...r.provenance.runs.map(
      (x) =>
        `- ${x.run_id}: ${x.app ?? ""} ${x.app_version ?? ""} on ${x.device_model ?? "?"} (API ${x.api_level ?? "?"}), ${x.started_at ?? ""}`,
    ),
    "",
  );
  if (r.provenance.inputs.length)
    lines.push(
      "## Inputs",
      "",
      ...r.provenance.inputs.map((i) => `- ${i.name} = ${JSON.stringify(i.value)}`),
      "",
    );
  lines.push(
    "## Checks",
    "",
    ...(r.checks.length
      ? r.checks.map((c) => `- [${c.ok ? "x" : " "}] ${c.name}${c.detail ? `: ${c.detail}` : ""}`)
      : ["(none)"]),
    "",
  );
  lines.push("## Cells", "", "| cell | status | ms | error |", "|---|---|---|---|");
  for (const s of r.states)
    lines.push(
      `| ${s.kind} ${s.name ?? s.defines.join(", ") ?? s.id} | ${s.status} | ${s.ms === undefined ? "" : Math.round(s.ms)} | ${(s.error ?? "").replace(/\|/g, "\\|").replace(/\n/g, " ")} |`,
    );
  return lines.join("\n") + "\n";
}

async function jsonReport(r: HeadlessResult): Promise<string> {
  const snapshot = await snapshotNotebook(r.runtime);
  return JSON.stringify(
    {
      notebook: r.path,
      ok: r.failedCells.length === 0 && r.failedChecks.length === 0,
      provenance: r.provenance,
      checks: r.checks,
      cells: r.states.map((s, k) => ({
        ...snapshot.cells[k],
        ms: s.ms,
        defines: s.defines,
        references: s.references,
      })),
      ms: r.ms,
    },
    null,
    2,
  );
}

/** Writes the report named by --out (by extension), prints the verdict; returns the exit code. */
export async function report(r: HeadlessResult, out: string | undefined, embedData = false): Promise<number> {
  if (out) {
    const ext = extname(out).toLowerCase();
    const text =
      ext === ".json"
        ? await jsonReport(r)
        : ext === ".md"
          ? markdownReport(r)
          : ext === ".html" || ext === ".htm"
            ? renderHtml(r, embedData)
            : null;
    if (text === null) throw new Error(`--out ${out}: the report must end in .html, .json or .md`);
    await writeFile(out, text);
    process.stderr.write(`wrote ${out}\n`);
  }
  for (const s of r.failedCells)
    process.stderr.write(`cell failed: ${s.kind} ${s.name ?? (s.defines.join(", ") || s.id)}: ${s.error}\n`);
  for (const c of r.failedChecks)
    process.stderr.write(`check failed: ${c.name}${c.detail ? ` (${c.detail})` : ""}\n`);
  const passed = r.checks.length - r.failedChecks.length;
  process.stderr.write(
    `${r.states.length} cells, ${r.failedCells.length} failed; ${r.checks.length} checks, ${passed} passed` +
      ` (load ${Math.round(r.ms.load)} ms, run ${Math.round(r.ms.run)} ms)\n`,
  );
  return r.failedCells.length || r.failedChecks.length ? 1 : 0;
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

export function registerRun(program: Command, setExitCode: (code: number) => void) {
  program
    .command("run")
    .description("run a notebook headless; exit 1 if a cell or a check fails")
    .argument("<notebook>", "notebook .md file")
    .option(
      "--runs <dir>",
      "run bundle folder, or a folder of them (repeatable; replaces the front matter's runs)",
      collect,
    )
    .option("--set <name=value>", "set an input (repeatable), e.g. --set tauMs=300", collect)
    .option("--out <file>", "write a report: .html (published page), .json (cell values, checks) or .md")
    .option("--timeout <seconds>", "give up on cells still running after this long", "120")
    .option("--embed-data", "with an .html report, embed every result table in full as Arrow")
    .option("--engine <name>", "auto (native past 2M rows), wasm (the browser's DuckDB) or native", "auto")
    .action(async (path: string, opts: NotebookCommandOptions) => {
      const r = await executeNotebook(path, opts);
      try {
        setExitCode(await report(r, opts.out, opts.embedData));
      } finally {
        await r.close();
        if (opts.engine) await r.engine.close();
      }
    });
}
