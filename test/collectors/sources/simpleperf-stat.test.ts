import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  parseSimpleperfStat,
  parseStatCount,
  secondsToNs,
  looksLikeSimpleperfStat,
} from "../../../collectors/sources/simpleperf-stat";
import { hpcSamples, hpcSamplesTable } from "../../../collectors/sources/simpleperf-samples";

const current = readFileSync("test/fixtures/simpleperf/aosp-simpleperf-doc_stat_default_events.txt", "utf8");
const old2018 = readFileSync(
  "test/fixtures/simpleperf/aosp-simpleperf-doc2018_stat_default_events_runtime_pct.txt",
  "utf8",
);

const pick = (r: ReturnType<typeof parseSimpleperfStat>) =>
  r.reports.map((x) => x.rows.map((row) => [row.counter, row.count, row.counted]));

describe("parseStatCount / secondsToNs", () => {
  it.each([
    ["16,513,564", 16_513_564n],
    ["4", 4n],
    ["1320496145", 1_320_496_145n],
    ["25.274251(ms)", 25_274_251n],
    ["886.008130(ms)", 886_008_130n],
    ["0.000001(ms)", 1n],
    ["18446744073709551615", 18446744073709551615n],
    ["1,23,456", undefined],
    ["1.5", undefined],
    ["GHz", undefined],
  ])("%s -> %s", (text, want) => expect(parseStatCount(text)).toBe(want));
  it("reads seconds exactly", () => {
    expect(secondsToNs("10.027923")).toBe(10_027_923_000n);
    expect(secondsToNs("0.1")).toBe(100_000_000n);
    expect(secondsToNs("3")).toBe(3_000_000_000n);
  });
});

describe("parseSimpleperfStat on the AOSP doc samples", () => {
  it("current format: header, counts with separators, task-clock in ms", () => {
    const r = parseSimpleperfStat(current, "doc.txt");
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.reports).toHaveLength(1);
    expect(r.reports[0]!.elapsedNs).toBe(10_027_923_000n);
    expect(r.reports[0]!.line).toBe(1);
    expect(pick(r)[0]).toEqual([
      ["cpu-cycles", 16_513_564n, true],
      ["stalled-cycles-frontend", 4_564_133n, true],
      ["stalled-cycles-backend", 6_520_383n, true],
      ["instructions", 4_900_403n, true],
      ["branch-misses", 47_821n, true],
      ["task-clock", 25_274_251n, true],
      ["context-switches", 4n, true],
      ["page-faults", 466n, true],
    ]);
    const rows = r.reports[0]!.rows;
    expect(rows.map((x) => x.comment)).toEqual([
      "1.612904 GHz",
      "341.490 M/sec",
      "591.666 M/sec",
      "612.859 M/sec",
      "6.085 M/sec",
      "0.002520 cpus used",
      "158.264 /sec",
      "18.438 K/sec",
    ]);
    expect(
      rows.every((x) => x.runtimePct === null && x.cpu === null && x.thread === null && !x.generated),
    ).toBe(true);
    expect(rows.map((x) => x.line)).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
    expect(r.perCore).toBe(false);
  });

  it("2018 format: no header, (100%) runtime column, task-clock first column unpadded", () => {
    const r = parseSimpleperfStat(old2018);
    expect(r.errors).toEqual([]);
    expect(r.reports[0]!.elapsedNs).toBe(10_023_829_000n);
    expect(pick(r)[0]).toEqual([
      ["cpu-cycles", 1_320_496_145n, true],
      ["instructions", 510_426_028n, true],
      ["branch-misses", 4_692_338n, true],
      ["task-clock", 886_008_130n, true],
      ["context-switches", 753n, true],
      ["page-faults", 870n, true],
    ]);
    const rows = r.reports[0]!.rows;
    expect(rows.map((x) => x.runtimePct)).toEqual([100, 100, 100, 100, 100, 100]);
    expect(rows[1]!.comment).toBe("2.587047 cycles per instruction");
    // the printed comments agree with the counts: cycles / instructions, task-clock s / test time s
    expect((1_320_496_145 / 510_426_028).toFixed(6)).toBe("2.587047");
    expect((0.88600813 / 10.023829).toFixed(6)).toBe("0.088390");
  });

  it("both fixtures become hpc_samples rows at the end of the counting", () => {
    const s = hpcSamples(parseSimpleperfStat(current), { originNs: 5_000_000_000n });
    expect(s.warnings).toEqual([]);
    expect(s.ts).toEqual(Array(8).fill(15_027_923_000n));
    expect(s.value).toEqual([16513564, 4564133, 6520383, 4900403, 47821, 25274251, 4, 466]);
    expect(s.cpu).toEqual(Array(8).fill(null));
    const t = hpcSamplesTable("run1", hpcSamples(parseSimpleperfStat(old2018)));
    expect(t.numRows).toBe(6);
    expect(t.getChild("counter")!.toArray()).toEqual(
      "cpu-cycles instructions branch-misses task-clock context-switches page-faults".split(" "),
    );
    expect(Array.from(t.getChild("ts")!.toArray() as BigInt64Array)).toEqual(Array(6).fill(10_023_829_000n));
    expect(Array.from(t.getChild("value")!.toArray() as Float64Array)).toEqual([
      1320496145, 510426028, 4692338, 886008130, 753, 870,
    ]);
    expect(t.getChild("cpu")!.nullCount).toBe(6);
  });

  it("--per-core sample from the docs: a cpu column per row", () => {
    const text = `Performance counter statistics:

# cpu        count  event_name   # count / runtime
  0      1,667,660  cpu-cycles   # 1.571565 GHz
  1      3,850,440  cpu-cycles   # 1.736958 GHz
  2      2,463,792  cpu-cycles   # 1.701367 GHz
  3      2,350,528  cpu-cycles   # 1.700841 GHz
  5      7,919,520  cpu-cycles   # 2.377081 GHz
  6    105,622,673  cpu-cycles   # 2.381331 GHz

Total test time: 3.002703 seconds.
`;
    const r = parseSimpleperfStat(text);
    expect(r.errors).toEqual([]);
    expect(r.perCore).toBe(true);
    const s = hpcSamples(r);
    expect(s.cpu).toEqual([0, 1, 2, 3, 5, 6]);
    expect(s.value).toEqual([1667660, 3850440, 2463792, 2350528, 7919520, 105622673]);
    expect(new Set(s.ts)).toEqual(new Set([3_002_703_000n]));
  });

  it("multiplexing sample from the docs: a zero count with no comment is not counted; the log warning is kept whole", () => {
    const text = `Performance counter statistics:

#   count  event_name           # count / runtime
  490,713  cache-references     # 151.682 M/sec
   33,282  cache-misses:u       # 5.050 M/sec
        0  instructions         #

Total test time: 1.000867 seconds.
simpleperf W cmd_stat.cpp:946] It seems the number of hardware events are more than the number of
available CPU PMU hardware counters. That will trigger hardware counter
multiplexing. As a result, events are not counted all the time processes
running, and event counts are smaller than what really happens.
Use --print-hw-counter to show available hardware counters.
`;
    const r = parseSimpleperfStat(text);
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(pick(r)[0]).toEqual([
      ["cache-references", 490_713n, true],
      ["cache-misses:u", 33_282n, true],
      ["instructions", 0n, false],
    ]);
    expect(r.messages).toHaveLength(1);
    expect(r.messages[0]!.level).toBe("W");
    expect(r.messages[0]!.line).toBe(9);
    expect(r.messages[0]!.text).toMatch(
      /^It seems the number of hardware events .* Use --print-hw-counter to show available hardware counters\.$/,
    );
    const s = hpcSamples(r);
    expect(s.counter).toEqual(["cache-references", "cache-misses:u"]);
    expect(s.warnings).toEqual([
      "instructions: not counted in 1 of 1 reports (no time on a hardware counter: multiplexed out, or not supported by this PMU); no sample for those",
    ]);
  });
});

describe("parseSimpleperfStat: other shapes", () => {
  it("CSV, current and 2018 (percentage, generated rows), per-core CSV", () => {
    const csvNow = [
      "Performance counter statistics,",
      "16513564,cpu-cycles,1.612904,GHz,",
      "25.274251(ms),task-clock,0.002520,cpus used,",
      "0,cpu-clock,,",
      "900,cpu-cycles:u,0.5,GHz,",
      "100,cpu-cycles:k,0.1,GHz,",
      "1000,cpu-cycles,0.6,GHz,(generated),",
      "Total test time,10.027923,seconds,",
    ].join("\n");
    const a = parseSimpleperfStat(csvNow);
    expect(a.errors).toEqual([]);
    expect(a.reports[0]!.csv).toBe(true);
    expect(a.reports[0]!.elapsedNs).toBe(10_027_923_000n);
    expect(a.reports[0]!.rows.map((r) => [r.counter, r.count, r.comment, r.generated, r.counted])).toEqual([
      ["cpu-cycles", 16_513_564n, "1.612904 GHz", false, true],
      ["task-clock", 25_274_251n, "0.002520 cpus used", false, true],
      ["cpu-clock", 0n, "", false, true],
      ["cpu-cycles:u", 900n, "0.5 GHz", false, true],
      ["cpu-cycles:k", 100n, "0.1 GHz", false, true],
      ["cpu-cycles", 1000n, "0.6 GHz", true, true],
    ]);
    // the generated :u + :k sum is not a sample of its own
    expect(hpcSamples(a).counter).toEqual([
      "cpu-cycles",
      "task-clock",
      "cpu-clock",
      "cpu-cycles:u",
      "cpu-cycles:k",
    ]);

    const csv2018 = [
      "Performance counter statistics,",
      "1320496145,cpu-cycles,0.131736,GHz,(100%),",
      "4692338,branch-misses,2.5%,level 1 cache refill rate, read,(48%),",
      "20,instructions:u,7.0,M/sec,(100%) (generated),",
      "0,page-faults,0.000,/sec,(0%),",
      "Total test time,10.023829,seconds,",
    ].join("\n");
    const b = parseSimpleperfStat(csv2018);
    expect(b.errors).toEqual([]);
    expect(
      b.reports[0]!.rows.map((r) => [r.counter, r.count, r.comment, r.runtimePct, r.generated, r.counted]),
    ).toEqual([
      ["cpu-cycles", 1_320_496_145n, "0.131736 GHz", 100, false, true],
      ["branch-misses", 4_692_338n, "2.5% level 1 cache refill rate, read", 48, false, true],
      ["instructions:u", 20n, "7.0 M/sec", 100, true, true],
      ["page-faults", 0n, "0.000 /sec", 0, false, false],
    ]);
    const s = hpcSamples(b);
    expect(s.counter).toEqual(["cpu-cycles", "branch-misses"]);
    expect(s.warnings).toContain(
      "branch-misses: counted only 48% of the time in some reports (hardware counter multiplexing); values are the raw counts as printed, not scaled up",
    );

    const perCore = parseSimpleperfStat(
      [
        "Performance counter statistics,",
        "0,1667660,cpu-cycles,1.571565,GHz,",
        "7,105622673,cpu-cycles,2.381331,GHz,",
        "Total test time,3.002703,seconds,",
      ].join("\n"),
    );
    expect(perCore.reports[0]!.rows.map((r) => [r.cpu, r.count])).toEqual([
      [0, 1_667_660n],
      [7, 105_622_673n],
    ]);
  });

  it("--per-thread (names with spaces and '#') and --per-thread --per-core: summed per counter and core", () => {
    const text = `Performance counter statistics:

# thread_name      pid    tid  cpu      count  event_name   # count / runtime
  RenderThread     4242   4290  1    300,000  cpu-cycles   # 1.5 GHz
  Jit thread #2    4242   4251  1     20,000  cpu-cycles   # 1.1 GHz
  main             4242   4242  4  1,000,000  cpu-cycles   # 2.1 GHz

Total test time: 1.000100 seconds.
`;
    const r = parseSimpleperfStat(text);
    expect(r.errors).toEqual([]);
    expect(r.perThread).toBe(true);
    expect(r.reports[0]!.rows.map((x) => [x.thread, x.cpu, x.count])).toEqual([
      [{ name: "RenderThread", pid: 4242, tid: 4290 }, 1, 300_000n],
      [{ name: "Jit thread #2", pid: 4242, tid: 4251 }, 1, 20_000n],
      [{ name: "main", pid: 4242, tid: 4242 }, 4, 1_000_000n],
    ]);
    const s = hpcSamples(r);
    expect([s.cpu, s.value]).toEqual([
      [1, 4],
      [320000, 1000000],
    ]);
    expect(s.warnings).toContain(
      "--per-thread output: counts summed over threads per counter and core (hpc_samples has no thread column)",
    );
  });

  it("perf-style <not counted> and refused events", () => {
    const text = `simpleperf E event_type.cpp:503] Unknown event_type 'raw-foo', try \`simpleperf list\` to list all possible event type names
simpleperf E 11-23 14:59:01.123  4290  4290 event_selection_set.cpp:257] Event type 'stalled-cycles-backend' is not supported on the device
Performance counter statistics:

   <not counted>  cache-misses     #
           1,234  cpu-cycles       # 0.001 GHz

Total test time: 0.500000 seconds.
`;
    const r = parseSimpleperfStat(text);
    expect(r.errors).toEqual([]);
    expect(r.unsupported).toEqual(["raw-foo", "stalled-cycles-backend"]);
    expect(r.messages.map((m) => m.text)).toEqual([
      "Unknown event_type 'raw-foo', try `simpleperf list` to list all possible event type names",
      "Event type 'stalled-cycles-backend' is not supported on the device",
    ]);
    expect(pick(r)[0]).toEqual([
      ["cache-misses", null, false],
      ["cpu-cycles", 1234n, true],
    ]);
    const s = hpcSamples(r);
    expect(s.counter).toEqual(["cpu-cycles"]);
    expect(s.warnings).toContain("simpleperf refused event raw-foo: not supported on this device");
  });

  it("a bad line: error names the line and content, rows before and after it are kept", () => {
    const text = [
      "Performance counter statistics:",
      "",
      "  1,000  cpu-cycles   # 1 GHz",
      "  12 34 56  cpu-cycles   # x",
      "  2,000  instructions   # 0.5 cycles per instruction",
      "",
      "Total test time: 0.100000 seconds.",
    ].join("\n");
    const r = parseSimpleperfStat(text, "bad.txt");
    expect(r.errors).toEqual([
      'bad.txt line 4: unexpected "12 34" before the count: "  12 34 56  cpu-cycles   # x"',
    ]);
    expect(pick(r)[0]).toEqual([
      ["cpu-cycles", 1000n, true],
      ["instructions", 2000n, true],
    ]);
    const noHash = parseSimpleperfStat(text.replace("12 34 56  cpu-cycles   # x", "12 34 56 xyz"), "bad.txt");
    expect(noHash.errors).toEqual(['bad.txt line 4: not a counter row: "  12 34 56 xyz"']);
    const badCount = parseSimpleperfStat(text.replace("12 34 56  cpu-cycles", "1.5x  cpu-cycles"), "bad.txt");
    expect(badCount.errors).toEqual(['bad.txt line 4: "1.5x" is not a count: "  1.5x  cpu-cycles   # x"']);
  });

  it("a report cut off before its Total test time keeps its rows, one interval after the report before", () => {
    const one = (t: string, v: string) =>
      `Performance counter statistics:\n\n  ${v}  cpu-cycles   # 1 GHz\n\nTotal test time: ${t} seconds.\n`;
    const text =
      one("0.100100", "1,000") +
      one("0.200150", "2,500") +
      "Performance counter statistics:\n\n  3,000  cpu-cycles   # 1 GHz\n";
    const r = parseSimpleperfStat(text, "cut.txt");
    // 0.200150 + (0.200150 - 0.100100) = 0.300200 s
    expect(r.reports.map((x) => x.elapsedNs)).toEqual([100_100_000n, 200_150_000n, 300_200_000n]);
    expect(r.reports.map((x) => x.cutOff)).toEqual([false, false, true]);
    expect(r.reports[2]!.rows.map((x) => x.count)).toEqual([3000n]);
    expect(r.warnings).toEqual([
      'cut.txt line 14: the report begun at line 11 has no "Total test time" line (output cut off); its 1 rows are kept, at an estimated 0.3002 s',
    ]);
    expect(r.errors).toEqual([]);
  });

  it("the AOSP sample cut before its Total line keeps all 8 rows; a row cut mid-number is left out", () => {
    const full = readFileSync("test/fixtures/simpleperf/aosp-simpleperf-doc_stat_default_events.txt", "utf8");
    const noTotal = full.slice(0, full.indexOf("Total test time"));
    const r = parseSimpleperfStat(noTotal, "cut.txt");
    expect(r.reports).toHaveLength(1);
    expect(r.reports[0]!.cutOff).toBe(true);
    expect(r.reports[0]!.elapsedNs).toBe(0n);
    // The rows as printed in the file, read off by hand.
    expect(r.reports[0]!.rows.map((x) => [x.counter, x.count])).toEqual([
      ["cpu-cycles", 16513564n],
      ["stalled-cycles-frontend", 4564133n],
      ["stalled-cycles-backend", 6520383n],
      ["instructions", 4900403n],
      ["branch-misses", 47821n],
      ["task-clock", 25274251n],
      ["context-switches", 4n],
      ["page-faults", 466n],
    ]);
    expect(r.warnings[0]).toMatch(/no "Total test time" line \(output cut off\); its 8 rows are kept/);
    // A text row cut before its "#" is no row (an error); a CSV row cut after its count's first digits would
    // read as a smaller count of an event named by a prefix, so the file's unterminated last row is left out.
    const text = parseSimpleperfStat(full.slice(0, full.indexOf("466") + 1), "mid.txt");
    expect(text.reports[0]!.rows).toHaveLength(7);
    expect(text.errors).toEqual(['mid.txt line 11: not a counter row: "            4"']);
    const csv = parseSimpleperfStat(
      "Performance counter statistics,\n16513564,cpu-cycles,1.612904,GHz,\n45,stalled-cyc",
      "mid.csv",
    );
    expect(csv.reports[0]!.rows.map((x) => [x.counter, x.count])).toEqual([["cpu-cycles", 16513564n]]);
    expect(csv.warnings).toContain(
      'mid.csv line 3: the file ends inside this row (no newline after it), left out: "45,stalled-cyc"',
    );
  });

  it("text outside reports is a warning, a Total line without a report an error", () => {
    const r = parseSimpleperfStat("$ simpleperf stat -p 1\nTotal test time: 1.0 seconds.\n" + current, "x");
    expect(r.warnings).toEqual(['x line 1: outside any report, ignored: "$ simpleperf stat -p 1"']);
    expect(r.errors).toEqual([
      'x line 2: a Total test time line without a report before it: "Total test time: 1.0 seconds."',
    ]);
    expect(r.reports).toHaveLength(1);
  });

  it("--verbose per-fd lines are skipped", () => {
    const text =
      "Performance counter statistics:\n\ncpu-cycles(tid 4242, cpu -1): count 1000, time_enabled 5, time running 5, id 7\n  1,000  cpu-cycles   # 1 GHz\n\nTotal test time: 0.1 seconds.\n";
    expect(pick(parseSimpleperfStat(text))).toEqual([[["cpu-cycles", 1000n, true]]]);
  });

  it("looksLikeSimpleperfStat", () => {
    expect(looksLikeSimpleperfStat(current)).toBe(true);
    expect(looksLikeSimpleperfStat(old2018)).toBe(true);
    expect(
      looksLikeSimpleperfStat(
        "Performance counter statistics,\n1,cpu-cycles,,\nTotal test time,1.0,seconds,\n",
      ),
    ).toBe(true);
    expect(looksLikeSimpleperfStat("Performance counter stats for 'ls':\n")).toBe(false);
    expect(looksLikeSimpleperfStat("---PROFILEDATA---\n")).toBe(false);
  });
});
