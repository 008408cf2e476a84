// Every notebook under notebooks/, run on real traces from the wild (a Winscope capture of a phone, catapult's
// atrace capture): what the trace lacks is listed as not applicable with what it would need, nothing fails, and
// `jankbook run` exits 0.
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tableSource } from "../../bundle/table-sources";
import { importFiles } from "../../cli/commands/import";
import { ROOT, jankbookInProcess } from "../support/cli";

const TRACES = {
  perfetto: "test/fixtures/perfetto/winscope_shell_transitions_trace.perfetto-trace",
  systrace: "test/fixtures/systrace/catapult_atrace_data.txt",
};

function notebooks(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => n !== "runs")
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? notebooks(path) : name.endsWith(".md") ? [path] : [];
    });
}

interface Report {
  ok: boolean;
  notApplicable: { reason: string; cells: string[] }[];
  cells: { status: string; notApplicable?: string; error?: string }[];
}

describe("every notebook on real traces", () => {
  const out = mkdtempSync(join(tmpdir(), "jankbook-real-traces-"));
  const dirs: Record<string, string> = {};
  beforeAll(async () => {
    for (const [kind, file] of Object.entries(TRACES)) {
      const [run] = await importFiles([join(ROOT, file)], join(out, kind));
      dirs[kind] = run!.dir;
    }
  });

  const all = notebooks(join(ROOT, "notebooks")).map((p) => p.slice(ROOT.length + 1));
  const cases = all.flatMap((nb) => Object.keys(TRACES).map((kind) => [nb, kind] as const));

  it.each(cases)(
    "%s on the %s trace exits 0, its inapplicable cells listed with reasons",
    async (nb, kind) => {
      const report = join(out, `${kind}-${nb.replace(/\W/g, "_")}.json`);
      const r = await jankbookInProcess("run", join(ROOT, nb), "--runs", dirs[kind]!, "--out", report);
      expect(r.stderr).not.toMatch(/cell failed|check failed|load failed/);
      expect(r.code, r.stderr).toBe(0);
      const json = JSON.parse(readFileSync(report, "utf8")) as Report;
      expect(json.ok).toBe(true);
      const skipped = json.cells.filter((c) => c.status === "rejected");
      // every rejected cell is not applicable, and the report groups exactly those by reason
      expect(skipped.filter((c) => c.notApplicable === undefined).map((c) => c.error)).toEqual([]);
      expect(json.notApplicable.reduce((n, g) => n + g.cells.length, 0)).toBe(skipped.length);
      // neither trace has a method trace or the agent's tables: each notebook that reads them says so
      const reasons = json.notApplicable.map((g) => g.reason);
      for (const reason of reasons) expect(reason).toMatch(/^no [^:]+: /);
      if (skipped.length) expect(r.stderr).toMatch(/not applicable \(\d+ cells?: /);
      if (readFileSync(join(ROOT, nb), "utf8").includes("FROM methods"))
        expect(reasons).toContain(tableSource("methods"));
    },
  );
});
