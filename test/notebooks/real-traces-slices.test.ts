// Every notebook under notebooks/ on the real traces whose imports fill slices and counters (catapult's atrace
// capture with app markers) or counters alone (old systrace HTML): nothing fails, what they lack is not
// applicable. With real-traces.test.ts this covers every table set a real trace in the fixtures imports to.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { everyNotebookOn, REAL_TRACES } from "./real-traces-support";
import { importFiles } from "../../cli/commands/import";
import { jankbookInProcess, ROOT } from "../support/cli";

const TRACES = {
  "atrace with app markers": "systrace/catapult_decompressed_atrace_data.txt",
  "systrace HTML": "systrace/third_party/catapult_counter_tracks.html",
} as const;

const dirs = everyNotebookOn(TRACES);

describe("perfetto-frames on a real trace without FrameTimeline", () => {
  it("jankbook run exits 0; every cell past the table list is listed as not applicable, saying what to record", async () => {
    const report = join(dirs["atrace with app markers"], "..", "perfetto-frames.json");
    const r = await jankbookInProcess(
      "run",
      join(ROOT, "notebooks/examples/perfetto-frames.md"),
      "--runs",
      dirs["atrace with app markers"],
      "--out",
      report,
    );
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(readFileSync(report, "utf8")) as {
      ok: boolean;
      notApplicable: { reason: string; cells: string[] }[];
      cells: { status: string; name?: string; defines: string[] }[];
    };
    expect(json.ok).toBe(true);
    // the runs and the table list ran; everything else needs FrameTimeline (alone, or with what else it reads)
    expect(
      json.cells.filter((c) => c.status === "fulfilled").map((c) => c.name ?? c.defines.join(",")),
    ).toEqual(["runs_loaded", "tableNames,columnNames,rowsIn,available,needs,missing,requireData"]);
    const skipped = json.cells.filter((c) => c.status === "rejected").length;
    expect(json.notApplicable.reduce((n, g) => n + g.cells.length, 0)).toBe(skipped);
    for (const g of json.notApplicable) expect(g.reason).toMatch(/no FrameTimeline: record on Android 12\+/);
  }, 120_000);
});

describe("the real traces in the fixtures", () => {
  it("each imports to a table set one of the two files runs every notebook on", async () => {
    const covered = new Set([
      "", // winscope_shell_transitions_trace (real-traces.test.ts)
      "thread_states threads", // catapult_atrace_data (real-traces.test.ts)
      "counter_samples processes slices threads",
      "counter_samples processes threads",
    ]);
    const fixtures = [
      ...readdirSync(join(ROOT, "test/fixtures/perfetto"))
        .filter((n) => n.startsWith("winscope_"))
        .map((n) => `perfetto/${n}`),
      ...readdirSync(join(ROOT, "test/fixtures/systrace"))
        .filter((n) => n.startsWith("catapult_"))
        .map((n) => `systrace/${n}`),
      ...readdirSync(join(ROOT, "test/fixtures/systrace/third_party")).map(
        (n) => `systrace/third_party/${n}`,
      ),
    ].sort();
    expect(fixtures).toEqual(Object.keys(REAL_TRACES).sort());
    const out = mkdtempSync(join(tmpdir(), "jankbook-real-tables-"));
    for (const f of fixtures) {
      const [run] = await importFiles([join(ROOT, "test/fixtures", f)], join(out, f.replace(/\W/g, "_")));
      const tables = readdirSync(run!.dir)
        .filter((n) => n.endsWith(".arrows"))
        .map((n) => n.replace(/\.arrows$/, ""))
        .sort()
        .join(" ");
      expect(tables, f).toBe(REAL_TRACES[f]);
      expect(covered.has(tables), f).toBe(true);
    }
  }, 120_000);
});
