// Nothing collected is lost: a run in which the app draws nothing still writes its tasks, method
// trace and heap samples; the heap samples are the phone's dumpsys meminfo figures at each sample's Uptime;
// after a disconnect the manifest says which requested data (method trace, counters) was lost.
import { describe, expect, it } from "vitest";
import { type CollectOptions } from "../../../collectors/adb/collect-device";
import type { PhoneOptions } from "../../../collectors/simulator/phone";
import { simulatedCollector } from "./sim-harness";

const S = 1e9;
const collectSim = simulatedCollector("noloss");
const collect = (port: number, phone: Partial<PhoneOptions>, collect: Partial<CollectOptions>) =>
  collectSim({ phone, collect, port });

type Rows = { numRows: number; getChild(n: string): { get(i: number): unknown } | null };

describe("collect keeps everything it read", () => {
  it("the app renders nothing: tasks, method trace and heap are written; the bundle says why it has no frames", async () => {
    const { res, bundle, phone } = await collect(
      6793,
      { rendersNothing: true },
      { methodTrace: true, meminfoIntervalMs: 400 },
    );
    expect(res.manifest.complete).toBe(false);
    expect(res.manifest.warnings).toContain(
      "framestats: no frame was rendered during the run (or none was read); no frames table",
    );
    expect(bundle.tables.has("frames")).toBe(false);
    const truth = phone.groundTruth().counts;
    expect(bundle.tables.get("tasks")!.numRows).toBe(truth.tasks);
    expect(bundle.tables.get("ui_events")!.numRows).toBe(truth.ui_events);
    // the method trace the phone wrote, read whole
    const written = phone.methodTraces.get("/data/local/tmp/jankbook-noloss.trace")!;
    expect(written).toBeDefined();
    expect(bundle.tables.get("methods")!.numRows).toBeGreaterThan(0);
    expect(bundle.tables.get("method_events")!.numRows).toBe(written.spec.records.length);
    expect(bundle.tables.get("calls")!.numRows).toBeGreaterThan(0);

    // heap_samples: every kind of each sample is the model's figure at that sample's Uptime, in bytes
    const heap = bundle.tables.get("heap_samples")! as unknown as Rows;
    const samples = new Map<bigint, Map<string, bigint>>();
    for (let i = 0; i < heap.numRows; i++) {
      const ts = heap.getChild("ts")!.get(i) as bigint;
      const byKind = samples.get(ts) ?? new Map<string, bigint>();
      byKind.set(String(heap.getChild("kind")!.get(i)), heap.getChild("value")!.get(i) as bigint);
      samples.set(ts, byKind);
    }
    expect(samples.size).toBeGreaterThanOrEqual(3); // a run of several seconds at 400 ms
    for (const [ts, byKind] of samples) {
      expect(ts % 1_000_000n).toBe(0n); // Uptime is in ms
      const m = phone.memoryAt(Number(ts / 1_000_000n));
      const kb = (x: number) => BigInt(x) * 1024n;
      expect(Object.fromEntries(byKind)).toEqual({
        java_heap: kb(m.javaHeapPss),
        java_heap_rss: kb(m.javaHeapPss + 9_000),
        java_heap_size: kb(m.javaHeapSize),
        java_heap_alloc: kb(m.javaHeapAlloc),
        native_heap: kb(m.nativeHeapPss),
        native_heap_rss: kb(m.nativeHeapPss + 600),
        native_heap_size: kb(m.nativeHeapSize),
        native_heap_alloc: kb(m.nativeHeapAlloc),
        code: kb(m.code),
        code_rss: kb(m.code * 3),
        stack: kb(m.stack),
        stack_rss: kb(m.stack + 16),
        graphics: kb(m.graphics),
        graphics_rss: kb(m.graphics),
        private_other: kb(m.privateOther),
        system: kb(m.system),
        pss_total: kb(m.pssTotal),
        rss_total: kb(m.rssTotal),
        swap_total: 0n,
      });
    }
    // samples span the run, in the device's CLOCK_MONOTONIC
    const times = [...samples.keys()].sort((a, b) => (a < b ? -1 : 1));
    expect(times[0]! >= BigInt(phone.base)).toBe(true);
    expect(res.manifest.sources).toContainEqual({
      kind: "meminfo",
      origin: "adb shell dumpsys meminfo org.jankbook.sample every 400 ms",
      tables: ["heap_samples"],
    });
  }, 60_000);

  it("the device disconnects: the requested method trace and counters are named as lost", async () => {
    const { res, bundle } = await collect(
      6794,
      { faults: { disconnectAt: 2 * S } },
      { methodTrace: true, counters: true },
    );
    expect(res.ended).toBe("disconnected");
    expect(bundle.manifest.complete).toBe(false);
    expect(bundle.manifest.warnings).toContain(
      "--method-trace: the requested method trace was lost: the device was disconnected before it could be stopped and pulled (/data/local/tmp/jankbook-noloss.trace on the device, if the app wrote it)",
    );
    expect(bundle.manifest.warnings).toContain(
      "--counters: the requested hardware counters were lost: the device was disconnected before simpleperf could be stopped and read",
    );
    expect(bundle.tables.has("method_events")).toBe(false);
    expect(bundle.tables.has("hpc_samples")).toBe(false);
    expect(bundle.tables.get("frames")!.numRows).toBeGreaterThan(0); // what came before is kept
  }, 60_000);
});
