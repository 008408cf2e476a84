// PerfettoTraceWriter by hand: lanes for overlapping spans, instants, open slices, input order not mattering.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PerfettoTraceWriter, type SpanInput } from "../../export/perfetto-trace-writer";
import { decode, int, str, sub, subs } from "./proto-decode";

function events(trace: Uint8Array) {
  const tracks = new Map<bigint, { name?: string; parent?: bigint }>();
  const out: { ts: bigint; type: bigint; track: bigint }[] = [];
  for (const p of subs(decode(trace), 1)) {
    const d = sub(p, 60);
    if (d) tracks.set(int(d, 1)!, { name: str(d, 2), parent: int(d, 5) });
    const e = sub(p, 11);
    if (e) out.push({ ts: int(p, 8)!, type: int(e, 9)!, track: int(e, 11)! });
  }
  return { tracks, out };
}

function write(spans: SpanInput[]) {
  const w = new PerfettoTraceWriter();
  const parent = w.track("Tasks");
  const t = w.track("queued", parent);
  for (const s of spans) w.slice(t, s);
  return w.finish();
}

describe("PerfettoTraceWriter", () => {
  it("puts overlapping, non-nested spans on a second same-named lane under the same parent; nested ones stay", () => {
    const { tracks, out } = events(
      write([
        { ts: 0, dur: 10, name: "a" },
        { ts: 2, dur: 3, name: "nested in a" },
        { ts: 5, dur: 10, name: "overlaps a" },
        { ts: 10, dur: 0, name: "instant" },
        { ts: 20, dur: null, name: "open" },
      ]),
    );
    const queued = [...tracks].filter(([, t]) => t.name === "queued");
    expect(queued).toHaveLength(2);
    expect(queued.map(([, t]) => t.parent)).toEqual([1n, 1n]);
    const [lane0, lane1] = queued.map(([u]) => u);
    const on = (u: bigint) => out.filter((e) => e.track === u).map((e) => [Number(e.ts), Number(e.type)]);
    // BEGIN 1, END 2, INSTANT 3: a [0,10] holds the nested [2,5]; the instant at 10 follows a's end; open never ends.
    expect(on(lane0!)).toEqual([
      [0, 1],
      [2, 1],
      [5, 2],
      [10, 2],
      [10, 3],
      [20, 1],
    ]);
    expect(on(lane1!)).toEqual([
      [5, 1],
      [15, 2],
    ]);
    // Leaves in time order across lanes.
    expect(out.map((e) => e.ts)).toEqual(
      [...out.map((e) => e.ts)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    );
  });

  it("the same spans in any input order give the same bytes", () => {
    const span = fc.record({
      ts: fc.integer({ min: 0, max: 1000 }),
      dur: fc.option(fc.integer({ min: 0, max: 300 }), { nil: null }),
      name: fc.constantFrom("a", "b", "c"),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(span, { selector: (s) => `${s.ts}|${s.dur}`, maxLength: 30 }),
        fc.nat(),
        (spans, seed) => {
          const sorted = [...spans].sort((x, y) => x.ts - y.ts || (y.dur ?? Infinity) - (x.dur ?? Infinity));
          const shuffled = [...spans].sort(
            (x, y) => ((x.ts * 7919 + seed) % 101) - ((y.ts * 7919 + seed) % 101),
          );
          expect(Buffer.from(write(shuffled)).equals(Buffer.from(write(sorted)))).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
