// `jankbook import` on simpleperf stat output: detection among the other kinds and the bundle written.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readBundleFolder } from "../../../bundle/node-io";
import { importFile } from "../../../cli/commands/import";
import { detectFramestats } from "../../../collectors/import/framestats";
import { detectGfxinfo } from "../../../collectors/import/gfxinfo";
import { detectLogcat } from "../../../collectors/import/logcat";
import { detectSimpleperfStat } from "../../../collectors/import/simpleperf";
import { formatStatReport } from "../../../collectors/sources/simpleperf-stat-writer";

const tmp = () => mkdtempSync(join(tmpdir(), "jb-import-sp-"));
const fixture = "test/fixtures/simpleperf/aosp-simpleperf-doc_stat_default_events.txt";

describe("jankbook import: simpleperf stat", () => {
  it("is told apart from the other text kinds", () => {
    const sp = readFileSync(fixture, "utf8");
    expect([detectSimpleperfStat(sp), detectFramestats(sp), detectGfxinfo(sp), detectLogcat(sp)]).toEqual([
      true,
      false,
      false,
      false,
    ]);
    const gfx = readFileSync("test/fixtures/gfxinfo/droid-monitor_api28_chrome_gfxinfo.txt", "utf8");
    const log = readFileSync("test/fixtures/logcat/loghub_Android_2k_threadtime.log", "utf8");
    expect([detectSimpleperfStat(gfx), detectSimpleperfStat(log)]).toEqual([false, false]);
  });

  it("writes hpc_samples for the AOSP sample, ts at the end of the 10.027923 s count", async () => {
    const r = await importFile(fixture, tmp());
    expect(r.kind).toBe("simpleperf-stat");
    expect(r.dir).toMatch(/import-aosp-simpleperf-doc_stat_default_events$/);
    const b = await readBundleFolder(r.dir);
    expect(b.errors).toEqual([]);
    expect(b.manifest.complete).toBe(true);
    expect(b.manifest.sources).toEqual([
      {
        kind: "simpleperf-stat",
        origin: "aosp-simpleperf-doc_stat_default_events.txt",
        tables: ["hpc_samples"],
      },
    ]);
    expect(b.manifest.warnings).toEqual([
      "aosp-simpleperf-doc_stat_default_events.txt: hpc_samples.ts is ns since simpleperf stat began counting (the output holds no device clock)",
    ]);
    const t = b.tables.get("hpc_samples")!;
    expect(t.numRows).toBe(8);
    expect(t.getChild("counter")!.get(5)).toBe("task-clock");
    expect(t.getChild("value")!.get(5)).toBe(25_274_251);
    expect(t.getChild("ts")!.get(0)).toBe(10_027_923_000n);
  });

  it("an --interval --per-core CSV series: per-interval counts per core; a bad line marks the bundle incomplete", async () => {
    const out = tmp();
    const file = join(out, "stat.csv");
    const report = (s: number, a: bigint, b: bigint) =>
      formatStatReport(
        {
          elapsedNs: BigInt(s) * 100_000_000n,
          rows: [
            { counter: "instructions", count: a, cpu: 0 },
            { counter: "instructions", count: b, cpu: 4 },
          ],
        },
        "csv",
      );
    const text = report(1, 1000n, 50n) + report(2, 1600n, 50n) + report(3, 1700n, 90n);
    writeFileSync(file, text);
    const b = await readBundleFolder((await importFile(file, out, "iv")).dir);
    const t = b.tables.get("hpc_samples")!;
    expect(Array.from(t.getChild("ts")!.toArray() as BigInt64Array)).toEqual(
      [1e8, 1e8, 2e8, 2e8, 3e8, 3e8].map(BigInt),
    );
    expect(Array.from(t.getChild("cpu")!.toArray() as Int32Array)).toEqual([0, 4, 0, 4, 0, 4]);
    expect(Array.from(t.getChild("value")!.toArray() as Float64Array)).toEqual([1000, 50, 600, 0, 100, 40]);
    expect(b.manifest.complete).toBe(true);
    expect(b.manifest.warnings[0]).toMatch(/^stat\.csv: 3 reports read as running totals/);

    const lines = text.split("\n");
    lines.splice(5, 0, "instructions,garbage");
    writeFileSync(file, lines.join("\n"));
    const bad = await readBundleFolder((await importFile(file, out, "bad")).dir);
    expect(bad.manifest.complete).toBe(false);
    expect(bad.manifest.warnings[0]).toBe(
      'stat.csv line 6: no count,event_name pair: "instructions,garbage"',
    );
    expect(bad.tables.get("hpc_samples")!.numRows).toBe(6);
  });

  it("output cut before its Total test time line imports every counter row, marked incomplete", async () => {
    const dir = tmp();
    const full = readFileSync(fixture, "utf8");
    const cut = join(dir, "cut.txt");
    writeFileSync(cut, full.slice(0, full.indexOf("Total test time")));
    const r = await importFile(cut, dir);
    expect(r.kind).toBe("simpleperf-stat");
    const b = await readBundleFolder(r.dir);
    expect(b.manifest.complete).toBe(false);
    expect(b.manifest.warnings.join("\n")).toContain("output cut off");
    const t = b.tables.get("hpc_samples")!;
    expect(t.numRows).toBe(8);
    expect(t.getChild("counter")!.get(0)).toBe("cpu-cycles");
    expect(Number(t.getChild("value")!.get(0))).toBe(16_513_564);
  });
});
