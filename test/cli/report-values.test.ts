// `jankbook run --out report.json` writes every item of a cell's arrays, maps, sets and typed arrays: a report
// that kept the first 100 with `ok: true` and no word of the rest read as the whole answer.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, spawnJankbook } from "../support/cli";

const tmp = await mkdtemp(join(tmpdir(), "jb-report-values-"));
afterAll(() => rm(tmp, { recursive: true, force: true }));

interface ReportCell {
  defines: string[];
  values: Record<string, unknown>;
}

describe("jankbook run --out report.json", () => {
  it("writes long values in full", async () => {
    const out = join(tmp, "report.json");
    const r = await spawnJankbook(["run", join(ROOT, "test/cli/fixtures/long-values.md"), "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(await readFile(out, "utf8")) as { ok: boolean; cells: ReportCell[] };
    expect(report.ok).toBe(true);
    const values = Object.assign({}, ...report.cells.map((c) => c.values)) as Record<string, unknown>;
    expect(values.squares).toEqual(Array.from({ length: 250 }, (_, i) => i * i));
    expect(values.byFrame).toEqual({ map: Array.from({ length: 150 }, (_, i) => [`f${i}`, i]) });
    expect(values.kinds).toEqual({
      set: Array.from({ length: 120 }, (_, i) => (i % 2 ? `odd${i}` : `even${i}`)),
    });
    expect(values.ms).toEqual({ typed: Array.from({ length: 300 }, (_, i) => i / 4) });
    // the run's first 300 frames (synthetic-feed-scroll has 1800), each its own vsync, in order
    const vsyncs = values.vsyncs as number[];
    expect(vsyncs).toHaveLength(300);
    expect(vsyncs.every((v, i) => i === 0 || v > vsyncs[i - 1]!)).toBe(true);
  });
});
