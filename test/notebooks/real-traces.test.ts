// Every notebook under notebooks/, run on real traces from the wild (a Winscope capture of a phone, catapult's
// atrace capture): what the trace lacks is listed as not applicable with what it would need, nothing fails; and
// `jankbook run` exits 0 on such a run, listing those cells by reason. real-traces-slices.test.ts runs them on the
// traces whose imports fill other tables; every real trace fills one of the table sets the two files cover.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tableSource } from "../../bundle/table-sources";
import { jankbookInProcess, ROOT } from "../support/cli";
import { everyNotebookOn } from "./real-traces-support";

const TRACES = {
  perfetto: "perfetto/winscope_shell_transitions_trace.perfetto-trace",
  systrace: "systrace/catapult_atrace_data.txt",
} as const;

// every notebook on each trace (the tests are declared at the top: the hooks that import the traces serve both blocks)
const dirs = everyNotebookOn(TRACES);

describe("jankbook run on a real trace", () => {
  it("triage on the systrace exits 0, lists its inapplicable cells by reason, and its report groups them", async () => {
    const report = join(dirs.systrace, "..", "triage-systrace.json");
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
