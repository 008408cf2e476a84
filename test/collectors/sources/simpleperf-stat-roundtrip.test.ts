// Reports generated, printed the way each simpleperf era prints them (the writer follows cmd_stat.cpp's
// fprintf formats), parsed back: the numbers, columns and comments must come back unchanged.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hpcSamples } from "../../../collectors/sources/simpleperf-samples";
import { parseSimpleperfStat } from "../../../collectors/sources/simpleperf-stat";
import {
  formatStatCount,
  formatStatReport,
  statComment,
  type StatStyle,
  type StatWriteReport,
  type StatWriteRow,
} from "../../../collectors/sources/simpleperf-stat-writer";

const COUNTERS = `
  cpu-cycles instructions cache-references cache-misses branch-instructions branch-misses task-clock cpu-clock
  context-switches page-faults raw-l1d-cache-refill sched:sched_switch cpu-cycles:u cpu-cycles:k instructions:u
`
  .trim()
  .split(/\s+/);
const STYLES: StatStyle[] = ["2018", "2020", "current", "csv-2018", "csv"];
const hasPct = (s: StatStyle) => s === "2018" || s === "2020" || s === "csv-2018";

const thread = fc.record({
  name: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_.:-]{0,14}( #?[A-Za-z0-9_.:-]{1,8})?$/),
  pid: fc.integer({ min: 1, max: 99_999 }),
  tid: fc.integer({ min: 1, max: 99_999 }),
});

/** A report: each (counter, cpu, thread) once; rows that never ran have count 0 (what the kernel gives). */
const report = (perCore: boolean, perThread: boolean) =>
  fc
    .record({
      elapsedUs: fc.bigInt({ min: 1n, max: 10n ** 9n }),
      threads: fc.uniqueArray(thread, { minLength: 1, maxLength: 3, selector: (t) => t.tid }),
      rows: fc.array(
        fc.record({
          counter: fc.constantFrom(...COUNTERS),
          count: fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.bigInt({ min: 0n, max: 10_000n })),
          cpu: fc.integer({ min: 0, max: 15 }),
          thread: fc.nat(2),
          ran: fc.boolean(),
          runtimeNs: fc.bigInt({ min: 1n, max: 10n ** 12n }),
          scale: fc.constantFrom(1, 1.5, 2, 3, 4, 8),
          generated: fc.boolean(),
        }),
        { minLength: 1, maxLength: 12 },
      ),
    })
    .map(({ elapsedUs, threads, rows }): StatWriteReport => {
      const seen = new Set<string>();
      const out: StatWriteRow[] = [];
      for (const r of rows) {
        const t = perThread ? threads[r.thread % threads.length]! : null;
        const k = `${r.counter}|${perCore ? r.cpu : ""}|${t?.tid ?? ""}`;
        if (seen.has(k)) continue;
        seen.add(k);
        // never-ran rows: count 0, no runtime; only for events whose comment then is empty
        const silent = !r.ran && !/clock|misses/.test(r.counter);
        out.push({
          counter: r.counter,
          count: silent ? 0n : r.count,
          runtimeNs: silent ? 0n : r.runtimeNs,
          cpu: perCore ? r.cpu : null,
          thread: t,
          scale: r.scale,
          generated: r.generated,
        });
      }
      return { elapsedNs: elapsedUs * 1000n, rows: out };
    });

const layouts = fc.record({ perCore: fc.boolean(), perThread: fc.boolean() });

describe("simpleperf stat round trip", () => {
  it("print in each era's format -> parse: same counts, columns, comments", () => {
    fc.assert(
      fc.property(
        layouts.chain(({ perCore, perThread }) =>
          fc.tuple(fc.constant({ perCore, perThread }), report(perCore, perThread)),
        ),
        ([{ perCore, perThread }, rep]) => {
          for (const style of STYLES) {
            if (style === "2018" && (perCore || perThread)) continue; // no per-core/per-thread before 2020
            const text = formatStatReport(rep, style);
            const r = parseSimpleperfStat(text, style);
            expect(r.errors, text).toEqual([]);
            expect(r.warnings).toEqual([]);
            expect(r.reports).toHaveLength(1);
            const got = r.reports[0]!;
            expect(got.elapsedNs).toBe(rep.elapsedNs);
            expect(got.csv).toBe(style.startsWith("csv"));
            expect(
              got.rows.map((x) => ({
                counter: x.counter,
                count: x.count,
                cpu: x.cpu,
                thread: x.thread,
                generated: x.generated,
              })),
            ).toEqual(
              rep.rows.map((x) => ({
                counter: x.counter,
                count: x.count,
                cpu: x.cpu ?? null,
                thread: x.thread ?? null,
                generated: x.generated ?? false,
              })),
            );
            expect(got.rows.map((x) => x.comment)).toEqual(rep.rows.map((x) => statComment(x, rep, " ")));
            expect(got.rows.map((x) => x.runtimePct)).toEqual(
              rep.rows.map((x) => (hasPct(style) ? Number((100 / x.scale!).toFixed(0)) : null)),
            );
            // without "(N%)", a never-ran row is told by its zero count and empty comment
            expect(got.rows.map((x) => x.counted)).toEqual(
              rep.rows.map((x) => hasPct(style) || x.runtimeNs !== 0n),
            );
            expect(r.perCore).toBe(perCore);
            expect(r.perThread).toBe(perThread);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("an --interval series of running totals -> the per-interval counts (auto-detected), per core", () => {
    const series = fc.record({
      counters: fc.uniqueArray(
        fc.constantFrom("cpu-cycles", "instructions", "task-clock", "context-switches", "cache-misses"),
        { minLength: 1, maxLength: 5 },
      ),
      cpus: fc.constantFrom([null], [0, 1, 2, 3], [4, 7]),
      steps: fc.array(
        fc.tuple(
          fc.integer({ min: 50_000, max: 2_000_000 }),
          fc.array(fc.integer({ min: 1, max: 1e12 }), { minLength: 20, maxLength: 20 }),
        ),
        { minLength: 1, maxLength: 15 },
      ),
      style: fc.constantFrom<StatStyle>("current", "csv", "2020", "csv-2018"),
    });
    fc.assert(
      fc.property(series, ({ counters, cpus, steps, style }) => {
        const totals = new Map<string, bigint>();
        let elapsedUs = 0n;
        let text = "";
        const want: [bigint, number | null, string, number][] = [];
        for (const [stepUs, values] of steps) {
          elapsedUs += BigInt(stepUs);
          const rows: StatWriteRow[] = [];
          let k = 0;
          for (const counter of counters)
            for (const cpu of cpus) {
              const v = values[k++ % values.length]!;
              const key = `${counter}|${cpu}`;
              const total = (totals.get(key) ?? 0n) + BigInt(v);
              totals.set(key, total);
              rows.push({ counter, count: total, cpu });
              want.push([elapsedUs * 1000n, cpu, counter, v]);
            }
          text += formatStatReport({ elapsedNs: elapsedUs * 1000n, rows }, style);
        }
        const s = hpcSamples(parseSimpleperfStat(text), { originNs: 7n });
        expect(s.values).toBe("cumulative");
        expect(s.ts.map((t, i) => [t, s.cpu[i], s.counter[i], s.value[i]])).toEqual(
          want.map(([t, c, n, v]) => [t + 7n, c, n, v]),
        );
      }),
      { numRuns: 150 },
    );
  });

  it("--interval-only-values: counts taken as they are when told so, and auto-detected once one goes down", () => {
    const text = [5, 3, 8]
      .map((v, i) =>
        formatStatReport(
          {
            elapsedNs: BigInt(i + 1) * 100_000_000n,
            rows: [{ counter: "cpu-cycles", count: BigInt(v) * 1000n }],
          },
          "current",
        ),
      )
      .join("");
    for (const values of ["interval", "auto"] as const) {
      const s = hpcSamples(parseSimpleperfStat(text), { values });
      expect(s.values).toBe("interval");
      expect(s.value).toEqual([5000, 3000, 8000]);
      expect(s.ts).toEqual([100_000_000n, 200_000_000n, 300_000_000n]);
    }
    expect(hpcSamples(parseSimpleperfStat(text), { values: "auto" }).warnings[0]).toMatch(
      /^3 reports read as per-interval counts/,
    );
    // told "cumulative" on such data: the drop is reported, not turned into a negative count
    const c = hpcSamples(parseSimpleperfStat(text), { values: "cumulative" });
    expect(c.value).toEqual([5000, 3000, 5000]);
    expect(c.warnings).toEqual([
      "line 10: cpu-cycles went down from 5000 to 3000; not a running total, kept as is",
    ]);
  });

  it("two runs in one file: running totals start again", () => {
    const one = (t: bigint, v: bigint) =>
      formatStatReport({ elapsedNs: t, rows: [{ counter: "page-faults", count: v }] }, "current");
    const text =
      one(100_000_000n, 10n) + one(200_000_000n, 25n) + one(100_000_000n, 4n) + one(200_000_000n, 9n);
    const s = hpcSamples(parseSimpleperfStat(text));
    expect(s.value).toEqual([10, 15, 4, 5]);
    expect(s.warnings.some((w) => /not after the one before .* a new simpleperf run/.test(w))).toBe(true);
  });

  it("garbage inside a report: one error naming its line, every other row kept; arbitrary text never throws", () => {
    fc.assert(
      fc.property(
        report(false, false),
        fc.stringMatching(/^@[A-Za-z0-9 ]{0,30}$/),
        fc.nat(),
        (rep, junk, at) => {
          const lines = formatStatReport(rep, "current").split("\n");
          const where = 3 + (at % rep.rows.length); // after the title, blank line and header
          lines.splice(where, 0, junk);
          const r = parseSimpleperfStat(lines.join("\n"), "f");
          expect(r.errors).toEqual([`f line ${where + 1}: not a counter row: "${junk.trimEnd()}"`]);
          expect(r.reports[0]!.rows.map((x) => x.count)).toEqual(rep.rows.map((x) => x.count));
        },
      ),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(
        fc.string({ maxLength: 400 }),
        (s) => void parseSimpleperfStat("Performance counter statistics:\n" + s),
      ),
    );
  });

  it("counts print as simpleperf prints them", () => {
    expect(formatStatCount("cpu-cycles", 16_513_564n, false)).toBe("16,513,564");
    expect(formatStatCount("cpu-cycles", 16_513_564n, true)).toBe("16513564");
    expect(formatStatCount("task-clock", 25_274_251n, false)).toBe("25.274251(ms)");
    expect(formatStatCount("cpu-clock:u", 1n, true)).toBe("0.000001(ms)");
    expect(formatStatCount("page-faults", 466n, false)).toBe("466");
  });
});
