// The Perfetto export read back with an independent decoder: every track's begins and ends pair up into
// exactly the spans the bundle's rows say, flows join each task's queued slice to its running slice.
import { readFileSync } from "node:fs";
import type { Table } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { readBundleFolder } from "../../bundle/node-io";
import { bundleToPerfetto } from "../../export/bundle-to-perfetto";
import { importSystrace } from "../../collectors/import/systrace";
import { SAMPLES_DIR } from "../../workspace/node/headless";
import { decode, f64, int, str, sub, subs, u64s, type Message } from "./proto-decode";

interface Span {
  track: string;
  ts: number;
  dur: number | null;
  name: string;
  flowOut: bigint[];
  flowIn: bigint[];
}

/** Tracks by uuid and the spans and counter values on them, paired with a stack per track. */
function readBack(trace: Uint8Array) {
  const packets = subs(decode(trace), 1);
  const names = new Map<bigint, string>();
  const descriptors = new Map<bigint, Message>();
  const spans: Span[] = [];
  const counters: { track: string; ts: number; value: number }[] = [];
  const open = new Map<bigint, Span[]>();
  let clock: Message | undefined;
  const interned = new Map<bigint, string>();
  let internedTwice = 0;
  for (const p of packets) {
    for (const n of subs(sub(p, 12) ?? new Map(), 2)) {
      if (interned.has(int(n, 1)!)) internedTwice++;
      interned.set(int(n, 1)!, str(n, 2)!);
    }
    expect(int(p, 10)).toBe(1n); // one trusted sequence
    const d = sub(p, 60);
    if (d) {
      const uuid = int(d, 1)!;
      descriptors.set(uuid, d);
      names.set(uuid, str(d, 2) ?? str(sub(d, 4) ?? new Map(), 5) ?? str(sub(d, 3) ?? new Map(), 6) ?? "");
    }
    clock ??= sub(p, 6);
    const e = sub(p, 11);
    if (!e) continue;
    const ts = Number(int(p, 8));
    const track = int(e, 11)!;
    const type = Number(int(e, 9));
    const stack = open.get(track) ?? [];
    open.set(track, stack);
    if (type === 1 || type === 3) {
      const s = {
        track: names.get(track)!,
        ts,
        dur: type === 3 ? 0 : null,
        name: interned.get(int(e, 10)!)!,
        flowOut: u64s(e, 47),
        flowIn: u64s(e, 48),
      };
      spans.push(s);
      if (type === 1) stack.push(s);
    } else if (type === 2) {
      const s = stack.pop();
      expect(s, `END without BEGIN on ${names.get(track)} at ${ts}`).toBeDefined();
      s!.dur = ts - s!.ts;
    } else if (type === 4) counters.push({ track: names.get(track)!, ts, value: f64(e, 44)! });
  }
  return { spans, counters, descriptors, clock, packets, interned, internedTwice };
}

/** Every row of a table as a plain object. */
const jsonRows = (t: Table): Record<string, unknown>[] =>
  t.toArray().map((r: { toJSON(): Record<string, unknown> }) => r.toJSON());

const key = (s: { track: string; ts: number; dur: number | null; name: string }) =>
  `${s.track}|${s.ts}|${s.dur}|${s.name}`;

describe("bundleToPerfetto on the paper-cases sample run", async () => {
  const b = await readBundleFolder(SAMPLES_DIR + "paper-cases-pixel-4a");
  const rows = (t: string) => jsonRows(b.tables.get(t as never)!);
  const out = bundleToPerfetto(b.tables);
  const back = readBack(out.trace);

  it("frames: an expected and an actual slice per frame, named by the jank verdict", () => {
    const want = rows("frames")
      .filter((f) => f.suspect == null)
      .flatMap((f) => {
        const iv = Number(f.intended_vsync);
        const window = (f.window as string | null) ?? "app";
        return [
          { track: `Expected frames ${window}`, ts: iv, dur: Number(f.deadline), name: "Expected frame" },
          {
            track: `Actual frames ${window}`,
            ts: iv,
            dur: Number(f.duration),
            name: f.jank ? "Janky frame" : "On-time frame",
          },
        ];
      });
    const got = back.spans.filter((s) => /frames/.test(s.track));
    expect(got.map(key).sort()).toEqual(want.map(key).sort());
    expect(want.length).toBe(2 * 416);
  });

  it("tasks: queued [scheduled, started] and running [started, ended], one flow from each queued to its running", () => {
    const tasks = rows("tasks");
    const want = tasks.flatMap((t) => {
      const name = (t.task_class as string) ?? (t.category as string);
      const s = Number(t.scheduled);
      const st = t.started == null ? null : Number(t.started);
      const en = t.ended == null ? null : Number(t.ended);
      return [
        { track: "queued", ts: s, dur: st === null ? null : st - s, name },
        ...(st === null ? [] : [{ track: "running", ts: st, dur: en === null ? null : en - st, name }]),
      ];
    });
    const got = back.spans.filter((s) => s.track === "queued" || s.track === "running");
    expect(got.map(key).sort()).toEqual(want.map(key).sort());
    const started = tasks.filter((t) => t.started != null).length;
    const outs = got.flatMap((s) => s.flowOut);
    const ins = got.flatMap((s) => s.flowIn);
    expect(outs).toHaveLength(started);
    expect([...ins].sort()).toEqual([...outs].sort());
    for (const s of got.filter((x) => x.flowIn.length)) {
      const from = got.find((x) => x.flowOut[0] === s.flowIn[0])!;
      expect(from.ts + from.dur!).toBe(s.ts); // the flow leaves when the task is picked up
    }
  });

  it("render ops and input events: every row once, at its time", () => {
    const ops = rows("render_ops");
    const got = back.spans.filter((s) => s.track.startsWith("Render ops"));
    expect(got).toHaveLength(ops.length);
    const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
    expect(sorted(got.map((s) => s.ts + (s.dur ?? 0)))).toEqual(
      sorted(ops.map((o) => Number(o.start) + Number(o.dur))),
    );
    expect(sorted(got.map((s) => s.ts))).toEqual(sorted(ops.map((o) => Number(o.start))));
    expect(
      back.spans
        .filter((s) => s.track === "Input events")
        .map((s) => s.ts)
        .sort(),
    ).toEqual(
      rows("ui_events")
        .map((e) => Number(e.ts))
        .sort(),
    );
  });

  it("interns each event name once per sequence; the first packet clears incremental state, events need it", () => {
    expect(back.internedTwice).toBe(0);
    expect(new Set(back.interned.values()).size).toBe(back.interned.size);
    expect(back.interned.size).toBe(new Set(back.spans.map((s) => s.name)).size);
    expect(int(back.packets[0]!, 13)).toBe(1n);
    for (const p of back.packets.filter((x) => x.has(11))) expect(int(p, 13)).toBe(2n);
  });

  it("declares its clock: BOOTTIME equal to the run's CLOCK_MONOTONIC", () => {
    const clocks = (back.clock?.get(1) ?? []).map((c) => (c.wire === 2 ? decode(c.bytes) : new Map()));
    expect(clocks.map((c) => int(c, 1))).toEqual([6n, 3n]);
    expect(int(clocks[0]!, 2)).toBe(int(clocks[1]!, 2));
    expect(out.written).toMatchObject({ frames: 832, render_ops: rows("render_ops").length });
  });
});

describe("bundleToPerfetto: slices and counters of an imported systrace", () => {
  it("thread slices on thread tracks, async ones on named process tracks, counters on counter tracks", () => {
    const imp = importSystrace(
      new Uint8Array(readFileSync("test/fixtures/systrace/catapult_decompressed_atrace_data.txt")),
      "d.txt",
      "r",
    );
    const out = bundleToPerfetto(imp.tables);
    const back = readBack(out.trace);
    const slices = jsonRows(imp.tables.slices!);
    const got = back.spans.map((s) => `${s.ts}|${s.dur}|${s.name}`).sort();
    expect(got).toEqual(
      slices.map((s) => `${Number(s.ts)}|${s.dur == null ? null : Number(s.dur)}|${s.name}`).sort(),
    );
    const threads = [...back.descriptors.values()].filter((d) => sub(d, 4));
    expect(threads.length).toBe(new Set(slices.filter((s) => s.tid != null).map((s) => s.tid)).size);
    expect(back.counters).toHaveLength(88);
  });
});

describe("bundleToPerfetto on the feed-methods sample run", async () => {
  const b = await readBundleFolder(SAMPLES_DIR + "feed-methods-pixel-4a");
  const rows = (t: string) => jsonRows(b.tables.get(t as never)!);
  const back = readBack(bundleToPerfetto(b.tables).trace);

  it("calls: one slice per call on its thread's track, named class.method, from enter to exit", () => {
    const methods = new Map(
      rows("methods").map((m) => [Number(m.method_id), `${m.class_name}.${m.method_name}`]),
    );
    const threads = new Map(rows("threads").map((t) => [t.thread_id as number, t.name as string]));
    const want = rows("calls").map((c) => ({
      track: `Calls: ${threads.get(c.thread_id as number) ?? "thread"} (${c.thread_id})`,
      ts: Number(c.enter),
      dur: Number(c.exit) - Number(c.enter),
      name: methods.get(Number(c.method_id))!,
    }));
    const got = back.spans.filter((s) => s.track.startsWith("Calls: "));
    expect(want.length).toBeGreaterThan(100);
    expect(got.map(key).sort()).toEqual(want.map(key).sort());
  });

  it("counters: every hpc and heap sample on a counter track named after it", () => {
    const want = [
      ...rows("hpc_samples").map(
        (s) => `${s.counter}${s.cpu == null ? "" : ` cpu${s.cpu}`}|${Number(s.ts)}|${s.value}`,
      ),
      ...rows("heap_samples").map((s) => `heap ${s.kind}|${Number(s.ts)}|${Number(s.value)}`),
    ];
    expect(back.counters.map((c) => `${c.track}|${c.ts}|${c.value}`).sort()).toEqual(want.sort());
  });
});
