// Every case-study notebook (notebooks/cases/*.md, found by listing the folder) headless, as `jankbook run` runs
// it: on its own runs every check passes; with the runs its front matter calls `healthy:` (the same scenario
// without the bug) in place of them, a check of the finding fails, not a run or a cell: no run fails to load, no
// cell fails, and each failed check is one that passed on the case. The notebooks share one DuckDB (emptied
// between runs: an engine costs seconds to start); the first notebook also goes through the CLI both ways for its
// exit codes, 0 and 1.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../../cli/main";
import { quoteIdent, type SqlEngine } from "../../workspace/db/engine";
import { createNodeEngine } from "../../workspace/db/node/duckdb-node";
import { runNotebookFile, type HeadlessResult } from "../../workspace/node/headless";
import { parseNotebook } from "../../workspace/notebook/format";
import { hasGlob, matchRunNames } from "../../workspace/notebook/runs";

const DIR = join(import.meta.dirname, "../../notebooks/cases");
const NOTEBOOKS = readdirSync(DIR)
  .filter((n) => n.endsWith(".md"))
  .sort();
const out = mkdtempSync(join(tmpdir(), "jankbook-cases-"));

/** `jankbook run <nb> [--runs dir]...` in this process: its exit code and the names of the checks that failed. */
async function cli(nb: string, ...args: string[]): Promise<{ code: number; failed: string[] }> {
  const report = join(out, "report.json");
  const spy = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  try {
    const code = await main(["node", "jankbook", "run", nb, "--out", report, ...args]);
    const r = JSON.parse(readFileSync(report, "utf8")) as { checks: { name: string; ok: boolean }[] };
    return { code, failed: r.checks.filter((c) => !c.ok).map((c) => c.name) };
  } finally {
    spy.mockRestore();
  }
}

let shared: SqlEngine;
beforeAll(async () => {
  shared = await createNodeEngine();
}, 120_000);
afterAll(() => shared?.close());

/** The notebook headless on the shared engine, emptied first (a new wrapper: the runner loads its runs again). */
async function headless(nb: string, runs?: string[]): Promise<HeadlessResult> {
  const objects = (await shared.query(
    "SELECT table_name, table_type FROM information_schema.tables WHERE table_catalog = 'jb'",
  )) as unknown as { toArray(): { table_name: string; table_type: string }[] };
  for (const o of objects.toArray())
    await shared.query(
      `DROP ${o.table_type === "VIEW" ? "VIEW" : "TABLE"} IF EXISTS ${quoteIdent(o.table_name)}`,
    );
  const engine: SqlEngine = {
    query: (sql, params) => shared.query(sql, params),
    insertArrowStream: (table, ipc, options) => shared.insertArrowStream(table, ipc, options),
    interrupt: () => shared.interrupt(),
    close: async () => {},
  };
  return runNotebookFile(nb, { engine, runs });
}

const loadErrors = (r: HeadlessResult) =>
  r.provenance.runs.flatMap((x) => x.errors.map((e) => `${x.run_id}: ${e}`));
const failedCells = (r: HeadlessResult) =>
  r.failedCells.map((c) => `${c.name ?? c.defines.join(",")}: ${c.error}`);

/** The `healthy:` runs of a notebook as folders, by the rule `runs:` follows (relative to the notebook). */
function healthyRuns(nb: string): string[] {
  const field = parseNotebook(readFileSync(nb, "utf8")).frontMatter?.fields.find(([k]) => k === "healthy");
  if (!field) return [];
  const list = parseNotebook(`---\nruns:${field[1]}\n---\n`).frontMatter!.runs;
  return list.flatMap((entry) => {
    const path = join(dirname(nb), entry);
    if (!hasGlob(entry)) return [path];
    const parent = dirname(path);
    return matchRunNames(entry.split("/").pop()!, readdirSync(parent)).map((n) => join(parent, n));
  });
}

describe("notebooks/cases", () => {
  it("holds the case notebooks, each naming healthy runs that exist", () => {
    expect(NOTEBOOKS.length).toBeGreaterThanOrEqual(5);
    for (const name of NOTEBOOKS) {
      const healthy = healthyRuns(join(DIR, name));
      expect(healthy, `${name}: healthy:`).not.toEqual([]);
      for (const dir of healthy) expect(existsSync(join(dir, "manifest.json")), dir).toBe(true);
    }
  });

  it("jankbook run exits 0 on the first notebook's runs and 1 on its healthy runs, naming the check", async () => {
    const nb = join(DIR, NOTEBOOKS[0]!);
    expect(await cli(nb)).toEqual({ code: 0, failed: [] });
    const healthy = await cli(nb, ...healthyRuns(nb).flatMap((d) => ["--runs", d]));
    expect(healthy.code).toBe(1);
    expect(healthy.failed.length).toBeGreaterThan(0);
    // the report names checks the notebook states, each a finding of the case
    const source = readFileSync(nb, "utf8");
    for (const name of healthy.failed) expect(source).toContain(`check(${JSON.stringify(name)}`);
  }, 120_000);

  describe.each(NOTEBOOKS)("%s", (name) => {
    const nb = join(DIR, name);
    let passed: string[] = [];

    it("on its runs: every check passes", async () => {
      const r = await headless(nb);
      try {
        expect(loadErrors(r)).toEqual([]);
        expect(failedCells(r)).toEqual([]);
        expect(r.failedChecks.map((c) => `${c.name}: ${c.detail}`)).toEqual([]);
        expect(r.checks.length).toBeGreaterThan(0);
        passed = r.checks.map((c) => c.name);
      } finally {
        await r.close();
      }
    }, 60_000);

    it("on its healthy runs: a check of the finding fails, not a run or a cell", async () => {
      const r = await headless(nb, healthyRuns(nb));
      try {
        expect(r.provenance.runs.map((x) => x.dir).sort()).toEqual(healthyRuns(nb).sort());
        expect(loadErrors(r)).toEqual([]);
        expect(failedCells(r)).toEqual([]);
        const failed = r.failedChecks.map((c) => c.name);
        expect(failed.length).toBeGreaterThan(0);
        // the same checks ran; the ones that fail now are the finding, which passed on the case's runs
        expect(r.checks.map((c) => c.name)).toEqual(passed);
        for (const f of failed) expect(passed).toContain(f);
      } finally {
        await r.close();
      }
    }, 60_000);
  });
});
