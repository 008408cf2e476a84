// Fuzzing the method trace and simpleperf stat importers with mutants of the real fixtures: every
// input ends in a result or our own error; nothing impossible comes back unflagged; no cut file is "complete".
// Bounded: a fixed number of runs per property; no clock is read here: `npm run bench -- fuzz` runs every mutant
// in a child process with a hard limit and counts the ones that hang.
import { readFileSync, readdirSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { importLogcat } from "../../../collectors/import/logcat";
import { importSimpleperfStat } from "../../../collectors/import/simpleperf";
import { readMethodTrace, type MethodTrace } from "../../../collectors/sources/method-trace";
import { mutantOf } from "../../support/mutant-of";
import { methodTraceImpossible } from "../../support/mutants";
import { fcRuns } from "../../support/fc-runs";

const TRACES = readdirSync("test/fixtures/dmtrace")
  .filter((f) => f.endsWith(".trace"))
  .map((f) => ({ name: f, bytes: new Uint8Array(readFileSync(`test/fixtures/dmtrace/${f}`)) }));
const STATS = readdirSync("test/fixtures/simpleperf").map((f) => ({
  name: f,
  text: readFileSync(`test/fixtures/simpleperf/${f}`, "utf8"),
}));

/** readMethodTrace, with anything but our own Error counted as a crash. */
function read(bytes: Uint8Array): MethodTrace | Error {
  try {
    return readMethodTrace(bytes);
  } catch (e) {
    expect(e).toBeInstanceOf(Error);
    expect((e as Error).constructor).toBe(Error); // not a TypeError or RangeError from a bad offset
    expect((e as Error).message).toMatch(/method trace/);
    return e as Error;
  }
}

describe("fuzz: method traces", () => {
  it("mutants of every real trace: a result or our error; impossible values always flagged", () => {
    fc.assert(
      fc.property(
        mutantOf(TRACES, (f) => f.bytes),
        (m) => {
          const t = read(m.bytes);
          if (t instanceof Error) return;
          // Nothing past what the bytes can hold: a record takes at least 9 bytes.
          expect(t.records.action.length).toBeLessThanOrEqual(Math.ceil(m.bytes.length / 9));
          if (!t.partial) expect(methodTraceImpossible(t)).toEqual([]);
        },
      ),
      { numRuns: fcRuns(150), seed: 15 },
    );
  });

  it("any cut of a trace with data is never complete", () => {
    const withData = TRACES.filter(({ bytes }) => {
      const t = read(bytes);
      return !(t instanceof Error) && t.records.action.length > 0;
    });
    fc.assert(
      fc.property(
        fc.constantFrom(...withData),
        fc.double({ min: 0, max: 1, noNaN: true }),
        ({ bytes }, f) => {
          const cut = Math.min(bytes.length - 1, Math.floor(f * bytes.length));
          const t = read(bytes.subarray(0, cut));
          if (!(t instanceof Error)) expect(t.partial).toBe(true);
        },
      ),
      { numRuns: 150, seed: 15 },
    );
  });
});

describe("fuzz: simpleperf stat", () => {
  it("mutants of the real outputs: never throws; a cut before the last Total line is incomplete", () => {
    fc.assert(
      fc.property(
        mutantOf(STATS, (f) => new TextEncoder().encode(f.text)),
        (m) => {
          const { text } = m.fixture;
          const mutated = new TextDecoder().decode(m.bytes);
          const r = importSimpleperfStat(mutated, "x.txt", "r");
          const totalEnd = text.lastIndexOf("seconds") + "seconds".length;
          if (m.kind === "truncate" && m.at < totalEnd) expect(r.complete).toBe(false);
          // Counts are whole, non-negative numbers whatever the bytes were.
          const t = r.tables.hpc_samples;
          if (t) for (const v of t.getChild("value")!.toArray() as BigInt64Array) expect(v >= 0n).toBe(true);
        },
      ),
      { numRuns: 300, seed: 15 },
    );
  });
});

describe("fuzz: logcat and the agent's lines in it", () => {
  const LOGS = [
    "logcat/loghub_Android_2k_threadtime.log",
    "agent/recorded-v1.log",
    "agent/recorded-v2.log",
  ].map((f) => ({ name: f, text: readFileSync(`test/fixtures/${f}`, "utf8") }));
  /** A nullable bigint column through the vector's iterator (toArray() gives nulls as 0n). */
  const col = (t: { getChild(n: string): Iterable<unknown> | null }, n: string) =>
    Array.from(t.getChild(n)!) as (bigint | null)[];

  it("a file cut inside a line is never complete, and no task it yields ends before it starts", () => {
    fc.assert(
      fc.property(fc.constantFrom(...LOGS), fc.double({ min: 0, max: 1, noNaN: true }), ({ text }, f) => {
        const at = Math.floor(f * text.length);
        const r = importLogcat(text.slice(0, at), "x.log", "r");
        const lineEnd = text.indexOf("\n", at);
        const lost = text.slice(at, lineEnd < 0 ? undefined : lineEnd);
        // cut inside a line: partial, unless that line still reads as a whole log line, which a warning then names
        if (at > 0 && text[at - 1] !== "\n" && lost.trim() !== "")
          expect(
            !r.complete ||
              r.warnings.some((w) => /no newline at the end; the line reads as a whole log line/.test(w)),
          ).toBe(true);
        const tasks = r.tables.tasks;
        if (tasks) {
          const [s, e] = [col(tasks, "started"), col(tasks, "ended")];
          s.forEach((v, i) => v !== null && e[i] !== null && expect(e[i]! >= v).toBe(true));
        }
      }),
      { numRuns: 300, seed: 15 },
    );
  });

  it("a cut that leaves only the indent of the next line is partial too (agent v2 log at byte 1346)", () => {
    const text = LOGS[2]!.text.slice(0, 1346);
    expect(text.endsWith("|\n ")).toBe(true); // the line after the last whole one is lost but for a blank
    const r = importLogcat(text, "x.log", "r");
    expect(r.complete).toBe(false);
    expect(r.warnings).toContain(
      `x.log line ${text.split("\n").length}: no newline at the end: the file may be cut inside this line (its message may be short); import partial`,
    );
  });

  it("names the line a cut file ends inside (loghub cut mid-message, found by the fuzz bench): read whole, with a warning", () => {
    const text = LOGS[0]!.text.slice(0, 146354);
    const r = importLogcat(text, "x.log", "r");
    // the last line's header and tag are whole; only its message may be short, which the warning says
    expect(r.complete).toBe(true);
    expect(r.tables.logcat!.numRows).toBe(text.split("\n").length); // the cut line is kept, not dropped
    expect(r.warnings).toContain(
      `x.log line ${text.split("\n").length}: no newline at the end; the line reads as a whole log line (if the file was cut, its message may be short)`,
    );
  });
});
