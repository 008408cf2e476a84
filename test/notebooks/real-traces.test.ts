// Every notebook under notebooks/, run on real traces from the wild (a Winscope capture of a phone, catapult's
// atrace capture): what the trace lacks is listed as not applicable with what it would need, nothing fails; and
// `jankbook run` exits 0 on such a run, listing those cells by reason.
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tableSource } from "../../bundle/table-sources";
import { importFiles } from "../../cli/commands/import";
import type { SqlEngine } from "../../workspace/db/engine";
import { createNodeEngine } from "../../workspace/db/node/duckdb-node";
import { runNotebookFile } from "../../workspace/node/headless";
import { ROOT, jankbookInProcess } from "../support/cli";

const TRACES = {
  perfetto: "test/fixtures/perfetto/winscope_shell_transitions_trace.perfetto-trace",
  systrace: "test/fixtures/systrace/catapult_atrace_data.txt",
} as const;
type Kind = keyof typeof TRACES;

function notebooks(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => n !== "runs")
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? notebooks(path) : name.endsWith(".md") ? [path] : [];
    });
}

const out = mkdtempSync(join(tmpdir(), "jankbook-real-traces-"));
const dirs = {} as Record<Kind, string>;
// One engine per trace, kept across notebooks (the runner loads a run once per engine): no engine start per run.
// The runner closes the engine it is given, so it gets a view whose close() leaves it open; afterAll closes it.
const engines = {} as Record<Kind, SqlEngine>;
const opened: SqlEngine[] = [];
beforeAll(async () => {
  for (const kind of Object.keys(TRACES) as Kind[]) {
    const [run] = await importFiles([join(ROOT, TRACES[kind])], join(out, kind));
    dirs[kind] = run!.dir;
    const engine = await createNodeEngine();
    opened.push(engine);
    engines[kind] = { ...engine, close: async () => {} };
  }
}, 180_000);
afterAll(async () => {
  for (const e of opened) await e.close();
});

describe("every notebook on real traces", () => {
  const all = notebooks(join(ROOT, "notebooks")).map((p) => p.slice(ROOT.length + 1));
  const cases = all.flatMap((nb) => (Object.keys(TRACES) as Kind[]).map((kind) => [nb, kind] as const));

  it("finds the notebooks", () => expect(all.length).toBeGreaterThan(10));

  it.each(cases)("%s on the %s trace: nothing fails; what it lacks is not applicable", async (nb, kind) => {
    const r = await runNotebookFile(join(ROOT, nb), { runs: [dirs[kind]], engine: engines[kind] });
    try {
      expect(r.failedCells.map((c) => `${c.name ?? c.defines.join(",")}: ${c.error}`)).toEqual([]);
      expect(r.failedChecks).toEqual([]);
      // every cell that did not run says what the run would need, in the words of bundle/table-sources.ts
      for (const c of r.notApplicableCells) expect(c.notApplicable).toMatch(/^no [^:]+: /);
      // a notebook that needs the method table says so; one that reads it only if there (compare.md's `maybe(...)`)
      // says in place which tables its runs lack
      const source = readFileSync(join(ROOT, nb), "utf8");
      if (source.includes("FROM methods") && !source.includes("maybe(sql`SELECT * FROM methods"))
        expect(r.notApplicableCells.map((c) => c.notApplicable)).toContain(tableSource("methods"));
    } finally {
      await r.close();
    }
  });
});

describe("jankbook run on a real trace", () => {
  it("triage on the systrace exits 0, lists its inapplicable cells by reason, and its report groups them", async () => {
    const report = join(out, "triage-systrace.json");
    const r = await jankbookInProcess(
      "run",
      join(ROOT, "notebooks/triage.md"),
      "--runs",
      dirs.systrace,
      "--out",
      report,
    );
    expect(r.stderr).not.toMatch(/cell failed|check failed|load failed/);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`): ${tableSource("methods")}\n`);
    expect(r.stderr).toMatch(/^\d+ cells, 0 failed, \d+ not applicable; /m);
    const json = JSON.parse(readFileSync(report, "utf8")) as {
      ok: boolean;
      notApplicable: { reason: string; cells: string[] }[];
      cells: { status: string; notApplicable?: string }[];
    };
    expect(json.ok).toBe(true);
    const skipped = json.cells.filter((c) => c.status === "rejected");
    expect(skipped.every((c) => c.notApplicable !== undefined)).toBe(true);
    expect(json.notApplicable.reduce((n, g) => n + g.cells.length, 0)).toBe(skipped.length);
    expect(json.notApplicable.map((g) => g.reason)).toContain(tableSource("frames"));
  });
});
