import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildCalls } from "../../../collectors/method-trace-calls";
import { readMethodTrace } from "../../../collectors/sources/method-trace";
import { findKeyEnd } from "../../../collectors/sources/method-trace-key";

const DIR = "test/fixtures/dmtrace/";
const load = (f: string) => new Uint8Array(readFileSync(DIR + f));
const REGULAR = load("firefox-profiler_art-trace-regular.trace");
const STREAMING = load("firefox-profiler_art-trace-streaming.trace");
// Read off the file by hand: the key ends with "*end\n"; the v3 header is 32 bytes; dual-clock records are 14.
const DATA_START = findKeyEnd(REGULAR) + 5 + 32;
const RECORD = 14;

/** Negative durations in the calls built from a trace: the independent symptom of a corrupt time. */
function negativeCalls(bytes: Uint8Array): number {
  const calls = buildCalls(readMethodTrace(bytes));
  const inclusive = calls.getChild("inclusive")!.toArray() as BigInt64Array;
  let bad = 0;
  for (const v of inclusive) if (v < 0n) bad++;
  return bad;
}

describe("method trace sanity checks", () => {
  it("the real fixtures pass them untouched (no new warnings, not partial)", () => {
    for (const bytes of [REGULAR, STREAMING]) {
      const t = readMethodTrace(bytes);
      expect(t.partial).toBe(false);
      expect(t.warnings.filter((w) => /step back|num-method-calls|corrupt/.test(w))).toEqual([]);
    }
  });

  it("a regular trace cut at a record boundary is partial: 2,057 of the key's 13,295 records", () => {
    const t = readMethodTrace(REGULAR.subarray(0, DATA_START + 2057 * RECORD));
    expect(t.events.numRows).toBe(2057);
    expect(t.partial).toBe(true);
    expect(t.warnings.join("\n")).toContain(
      "num-method-calls=13295 but the data holds 2057 records: 11238 are missing",
    );
  });

  it("a flipped byte in a time: calls with negative durations appear, and the trace is flagged", () => {
    const flipped = REGULAR.slice();
    // Record 100's wall time is bytes 10-13 of the record; its top byte's high bit makes it 2^31 µs later.
    flipped[DATA_START + 100 * RECORD + 13]! ^= 0x80;
    expect(negativeCalls(REGULAR)).toBe(0);
    expect(negativeCalls(flipped)).toBeGreaterThan(0);
    const t = readMethodTrace(flipped);
    expect(t.partial).toBe(true);
    expect(t.warnings.join("\n")).toMatch(
      /1 records step back in time .* record 101 on thread \d+ at byte \d+/,
    );
  });

  it("a corrupt method definition length in a streaming trace is reported with its byte and read past", () => {
    // The second method definition sits at byte 143 (read off the file: 00 00 01, u2 length 85, the line).
    const damaged = STREAMING.slice();
    const view = new DataView(damaged.buffer);
    expect(view.getUint16(143 + 3, true)).toBe(85);
    view.setUint16(143 + 3, 85 + 3000, true);
    const t = readMethodTrace(damaged);
    const whole = readMethodTrace(STREAMING);
    expect(t.partial).toBe(true);
    expect(t.warnings[0]).toBe(
      "byte 143: method definition says 3085 bytes but its line ends after 85 (length corrupt); read on from byte 233",
    );
    expect(t.events.numRows).toBe(whole.events.numRows);
  });

  it("a thread definition whose length runs into binary records stops the reading, partial", () => {
    // The first thread definition is at byte 118: 00 00 02, u2 id, u2 length 4, "main".
    const damaged = STREAMING.slice();
    const view = new DataView(damaged.buffer);
    expect(view.getUint16(118 + 5, true)).toBe(4);
    view.setUint16(118 + 5, 40, true);
    const t = readMethodTrace(damaged);
    expect(t.partial).toBe(true);
    expect(t.warnings.join("\n")).toContain("byte 118: thread definition of length 40 holds control bytes");
  });

  it("property: any cut of the regular trace is never complete", () => {
    fc.assert(
      fc.property(fc.integer({ min: DATA_START, max: REGULAR.length - 1 }), (end) => {
        expect(readMethodTrace(REGULAR.subarray(0, end)).partial).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it("property: a flipped byte among the records never gives negative durations unflagged", () => {
    const records = (REGULAR.length - DATA_START) / RECORD;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: records - 1 }),
        fc.integer({ min: 6, max: 13 }),
        fc.integer({ min: 0, max: 7 }),
        (record, byte, bit) => {
          const bytes = REGULAR.slice();
          bytes[DATA_START + record * RECORD + byte]! ^= 1 << bit;
          if (negativeCalls(bytes) > 0) expect(readMethodTrace(bytes).partial).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });
});
