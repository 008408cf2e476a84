import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readBundleFolder } from "../../../bundle/node-io";
import { importFiles } from "../../../cli/commands/import";
import { importMacrobenchmark, releaseFromFingerprint } from "../../../collectors/import/macrobenchmark";
import { BenchmarkDataError, parseBenchmarkData } from "../../../collectors/sources/macrobenchmark";

const VIEW = "test/fixtures/macrobenchmark/measure-sh_view-click-09-12-2024-msr-disabled-benchmarkData.json";
const STARTUP = "test/fixtures/macrobenchmark/measure-sh_startup-08-07-2024-msr-enabled-benchmarkData.json";
const tmp = () => mkdtempSync(join(tmpdir(), "jb-macro-"));

describe("Macrobenchmark import on a real result (measure-sh, Pixel 4a, 30 iterations)", () => {
  const text = readFileSync(VIEW, "utf8");
  // Independent reading: JSON.parse of the file, values looked up by hand in it.
  const raw = JSON.parse(text);
  const b = raw.benchmarks[0];
  const runs = importMacrobenchmark(text, "view.json", "vc");

  it("makes one run per iteration with the device from the context block", () => {
    expect(runs).toHaveLength(30);
    expect(runs[0]!.runId).toBe("vc-clickWithSnapshot-i000");
    expect(runs[29]!.runId).toBe("vc-clickWithSnapshot-i029");
    expect(runs[0]!.imported.context).toMatchObject({
      device_model: "Pixel 4a",
      manufacturer: "google",
      api_level: 33,
      sdk_release: "13",
      scenario: "sh.measure.benchmark.ViewClickBenchmark#clickWithSnapshot iteration 0",
    });
    // iteration 1's trace file: ViewClickBenchmark_clickWithSnapshot_iter001_2024-12-09-07-37-39.perfetto-trace
    expect(runs[1]!.imported.started_at).toBe("2024-12-09T07:37:39");
    expect(runs[0]!.imported.warnings).toEqual([]);
  });

  it("frames per iteration: duration = period + frameOverrunMs, deadline one period, no jank in this file", () => {
    for (const i of [0, 2, 29]) {
      const f = runs[i]!.imported.tables.frames!;
      const over: number[] = b.sampledMetrics.frameOverrunMs.runs[i];
      expect(f.numRows).toBe(over.length);
      const dur = Array.from(f.getChild("duration")!.toArray() as BigInt64Array);
      expect(dur).toEqual(over.map((o) => 16_666_667n + BigInt(Math.round(o * 1e6))));
      expect(new Set(Array.from(f.getChild("deadline")!.toArray() as BigInt64Array))).toEqual(
        new Set([16_666_667n]),
      );
      expect(f.getChild("source")!.get(0)).toBe("macrobenchmark");
      expect(f.getChild("intended_vsync")!.get(1)).toBe(16_666_667n);
    }
    // every frameOverrunMs in this file is negative (max -5.957 ms), so no frame is janky
    const janky = runs.flatMap((r) =>
      Array.from(r.imported.tables.frames!.getChild("jank")!.toArray() as Iterable<boolean>).filter(Boolean),
    );
    expect(janky).toEqual([]);
    expect(runs.reduce((n, r) => n + r.imported.tables.frames!.numRows, 0)).toBe(946);
  });

  it("benchmark_metrics: this iteration's values, and the file's summaries once (iteration 0)", () => {
    const m0 = runs[0]!.imported.tables.benchmark_metrics!;
    const rows = Array.from({ length: m0.numRows }, (_, i) => ({
      metric: m0.getChild("metric")!.get(i),
      iteration: m0.getChild("iteration")!.get(i),
      stat: m0.getChild("stat")!.get(i),
      value: m0.getChild("value")!.get(i),
    }));
    expect(rows.filter((r) => r.metric === "frameCount")).toEqual([
      { metric: "frameCount", iteration: 0, stat: null, value: 31 },
      { metric: "frameCount", iteration: null, stat: "min", value: 30 },
      { metric: "frameCount", iteration: null, stat: "max", value: 34 },
      { metric: "frameCount", iteration: null, stat: "median", value: 31 },
    ]);
    expect(rows.filter((r) => r.metric === "frameDurationCpuMs" && r.stat === null)).toHaveLength(31);
    expect(rows.find((r) => r.metric === "frameOverrunMs" && r.stat === "P99")!.value).toBeCloseTo(
      -10.7115893,
      6,
    );
    expect(m0.getChild("benchmark")!.get(0)).toBe(
      "sh.measure.benchmark.ViewClickBenchmark#clickWithSnapshot",
    );
    const m5 = runs[5]!.imported.tables.benchmark_metrics!;
    expect(Array.from(m5.getChild("iteration")!.toArray() as Int32Array).every((x) => x === 5)).toBe(true);
  });

  it("a startup result without frames gives runs with metrics only", () => {
    const s = importMacrobenchmark(readFileSync(STARTUP, "utf8"), "startup.json", "st");
    expect(s).toHaveLength(35);
    expect(s[0]!.imported.tables.frames).toBeUndefined();
    expect(s[3]!.imported.tables.benchmark_metrics!.getChild("value")!.get(0)).toBe(
      JSON.parse(readFileSync(STARTUP, "utf8")).benchmarks[0].metrics.timeToInitialDisplayMs.runs[3],
    );
  });
});

describe("Macrobenchmark mapping on hand-made results", () => {
  const doc = (sampled: object) =>
    JSON.stringify({
      context: { build: { brand: "samsung", model: "SM-G991B", version: { sdk: 34 } } },
      benchmarks: [{ name: "scroll", className: "a.B", metrics: {}, sampledMetrics: sampled }],
    });

  it("jank = overrun > 0; with --context refresh_hz=90 the period is 11.11 ms", () => {
    const r = importMacrobenchmark(doc({ frameOverrunMs: { runs: [[-2, 0, 3.5]] } }), "x.json", "x", 90);
    const f = r[0]!.imported.tables.frames!;
    expect(Array.from(f.getChild("duration")!.toArray() as BigInt64Array)).toEqual([
      11_111_111n - 2_000_000n,
      11_111_111n,
      11_111_111n + 3_500_000n,
    ]);
    expect(Array.from(f.getChild("jank")!.toArray() as Iterable<boolean>, Boolean)).toEqual([
      false,
      false,
      true,
    ]);
  });

  it("API < 31 (frameDurationCpuMs only): duration is the CPU time against one period", () => {
    const r = importMacrobenchmark(doc({ frameDurationCpuMs: { runs: [[10, 20]] } }), "x.json", "x");
    const f = r[0]!.imported.tables.frames!;
    expect(Array.from(f.getChild("duration")!.toArray() as BigInt64Array)).toEqual([
      10_000_000n,
      20_000_000n,
    ]);
    expect(Array.from(f.getChild("jank")!.toArray() as Iterable<boolean>, Boolean)).toEqual([false, true]);
  });

  it("flags impossible frame values and leaves out (with a warning) those no duration can hold", () => {
    const r = importMacrobenchmark(
      doc({ frameOverrunMs: { runs: [[-20, 120_000, 1e300, 2]] } }),
      "x.json",
      "x",
    );
    const f = r[0]!.imported.tables.frames!;
    expect(f.numRows).toBe(3);
    expect(Array.from({ length: 3 }, (_, i) => f.getChild("suspect")!.get(i))).toEqual([
      "negative duration",
      "frame of over a minute",
      null,
    ]);
    expect(r[0]!.imported.complete).toBe(false);
    expect(r[0]!.imported.warnings).toEqual([
      "x.json: scroll iteration 0: 1 frame values beyond what a duration can hold (|ms| > 9e12) left out",
    ]);
  });

  it("names bad fields and cut files", () => {
    const cut = readFileSync(VIEW, "utf8").slice(0, 5000);
    expect(() => parseBenchmarkData(cut, "cut.json")).toThrow(
      /^cut\.json at line \d+ column \d+: not valid JSON .*cut off/,
    );
    const d = parseBenchmarkData(doc({ frameOverrunMs: { runs: [1, 2] } }), "bad.json");
    expect(d.warnings).toEqual([
      "bad.json: benchmarks[0]: sampledMetrics.frameOverrunMs.runs is not an array of number arrays; its per-iteration values were left out",
    ]);
    expect(() => parseBenchmarkData("[]", "arr.json")).toThrow(BenchmarkDataError);
  });

  it.each([
    ["google/sunfish/sunfish:13/TQ3A.230805.001.S1/10786265:user/release-keys", "13"],
    ["samsung/o1sxxx/o1s:14/UP1A.231005.007/G991BXXU9FXB1:user/release-keys", "14"],
    ["garbage", null],
  ])("release from fingerprint %s", (fp, want) => expect(releaseFromFingerprint(fp)).toBe(want));

  it("fuzz: mutated results give runs or our error naming the file, never a crash", () => {
    const base = readFileSync(STARTUP, "utf8");
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: base.length - 1 }),
        fc.string({ maxLength: 6 }),
        fc.nat(20),
        (at, ins, del) => {
          const text = base.slice(0, at) + ins + base.slice(at + del);
          try {
            const runs = importMacrobenchmark(text, "m.json", "m");
            for (const r of runs) expect(r.runId).toMatch(/^m-/);
          } catch (e) {
            expect((e as Error).message).toMatch(/^m\.json/);
          }
        },
      ),
      { numRuns: 300, seed: 15 },
    );
  });
});

describe("jankbook import of a Macrobenchmark result", () => {
  it("writes a folder of runs, context files given beside it fill their context", async () => {
    const out = tmp();
    const dir = tmp();
    const { writeFileSync } = await import("node:fs");
    writeFileSync(
      join(dir, "display.txt"),
      "  mBaseDisplayInfo=DisplayInfo{..., renderFrameRate 90.0, ...}\nDISPLAY MANAGER (dumpsys display)\n",
    );
    const runs = await importFiles([STARTUP, join(dir, "display.txt")], out, {
      context: ["app=sh.measure.sample"],
    });
    expect(runs).toHaveLength(35);
    expect(readdirSync(out)).toHaveLength(35);
    const b = await readBundleFolder(runs[7]!.dir);
    expect(b.errors).toEqual([]);
    expect(b.manifest.context).toMatchObject({
      app: "sh.measure.sample",
      device_model: "Pixel 4a",
      refresh_hz: 90,
      api_level: 33,
    });
    expect(b.manifest.clock.domain).toBe("synthetic");
    expect(b.manifest.sources.map((s) => s.kind)).toEqual(["macrobenchmark", "dumpsys-display"]);
    expect(b.tables.get("benchmark_metrics")!.numRows).toBe(1);
  });

  it("two results are two folders of runs named after their files, and --run-id names a lone one's", async () => {
    const out = tmp();
    const runs = await importFiles([STARTUP, VIEW], out);
    expect(runs).toHaveLength(65);
    expect(runs[0]!.runId).toBe(
      "import-measure-sh_startup-08-07-2024-msr-enabled-benchmarkData-startupBenchmark-i000",
    );
    expect(runs[35]!.runId).toBe(
      "import-measure-sh_view-click-09-12-2024-msr-disabled-benchmarkData-clickWithSnapshot-i000",
    );
    const one = await importFiles([STARTUP], tmp(), { runId: "nightly-42" });
    expect(one[34]!.runId).toBe("nightly-42-startupBenchmark-i034");
  });
});
