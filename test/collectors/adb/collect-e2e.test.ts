// End to end: real adb server, simulated phone, the real collector, the bundle read back and compared
// with the scenario's ground truth.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBundleFolder } from "../../../bundle/node-io";
import { collectDevice } from "../../../collectors/adb/collect-device";
import { PROFILES } from "../../../collectors/simulator/device-profiles";
import type { SimulatedPhone } from "../../../collectors/simulator/phone";
import { attachPhone, detachPhone, startAdb } from "./sim-harness";

type T = {
  getChild(n: string): { toArray(): ArrayLike<unknown>; get(i: number): unknown } | null;
  numRows: number;
};
const col = (t: T, n: string) => Array.from(t.getChild(n)!.toArray() as ArrayLike<unknown>);

describe("jankbook collect against the simulated phone", () => {
  let phone: SimulatedPhone;
  let dir: string;
  let shell: Awaited<ReturnType<typeof attachPhone>>["shell"];
  beforeAll(async () => {
    await startAdb();
    // Android 12 layout (FrameDeadline present); time runs 5x, polls every 150 ms wall = 0.75 s device < the 2 s
    // ring; a dump holds every frame, so polls that a loaded machine delays lose none (late polls: collect-faults).
    ({ phone, shell } = await attachPhone(
      {
        profile: PROFILES["galaxy-s21"]!,
        scenario: "paper-cases",
        seed: 7,
        timeScale: 5,
        framestatsRing: 1_000_000,
      },
      6711,
    ));
    dir = await mkdtemp(join(tmpdir(), "jankbook-e2e-"));
  });
  afterAll(async () => {
    await detachPhone(phone);
    await rm(dir, { recursive: true, force: true });
  });

  it("collects every frame exactly once and the agent's rows, matching the ground truth", async () => {
    const res = await collectDevice(shell, {
      package: "org.jankbook.sample",
      scenario: "monkey:200",
      durationMs: 30_000,
      pollMs: 150,
      dir,
      runId: "e2e",
    });
    expect(res.ended).toBe("scenario-finished");
    expect(res.manifest.warnings).toEqual([]);
    expect(res.manifest.complete).toBe(true);
    const truth = phone.groundTruth();
    const bundle = await readBundleFolder(dir);
    expect(bundle.errors).toEqual([]);
    const m = bundle.manifest;
    expect(m.context).toMatchObject({
      app: "org.jankbook.sample",
      app_version: "1.4.0",
      device_model: "SM-G991B",
      api_level: 31,
      screen_width: 1080,
      screen_height: 2400,
      refresh_hz: 60,
      battery_level: 58,
      network: "cellular",
    });
    expect(m.synthetic).toBe(true);

    // Frames: many polls overlapped; each of the scenario's frames is there once, with the device's values.
    const frames = bundle.tables.get("frames")! as unknown as T;
    const expected = phone.expectedFrames();
    expect(frames.numRows).toBe(truth.counts.frames);
    expect(new Set(col(frames, "intended_vsync")).size).toBe(frames.numRows);
    expect(col(frames, "intended_vsync")).toEqual(expected.map((f) => f.intended_vsync));
    expect(col(frames, "frame_completed")).toEqual(expected.map((f) => f.frame_completed));
    expect(col(frames, "frame_deadline")).toEqual(expected.map((f) => f.frame_deadline));
    expect(col(frames, "duration")).toEqual(expected.map((f) => f.frame_completed! - f.intended_vsync!));
    expect(col(frames, "deadline")).toEqual(expected.map((f) => f.frame_deadline! - f.intended_vsync!));
    expect((col(frames, "jank") as boolean[]).filter(Boolean).length).toBe(truth.counts.janky_frames);
    expect(truth.counts.janky_frames).toBeGreaterThan(0);
    // Polls overlapped: each dump holds every frame so far, so each poll after the first repeats the frames of
    // the one before (how many polls fit in the scenario depends on the machine's load, not on the code).
    expect(phone.commands.filter((c) => c.endsWith("framestats")).length).toBeGreaterThanOrEqual(3);

    // Agent rows.
    const tasks = bundle.tables.get("tasks")! as unknown as T;
    expect(tasks.numRows).toBe(truth.counts.tasks);
    expect(bundle.tables.get("contexts")!.numRows).toBe(truth.counts.contexts);
    expect(bundle.tables.get("render_ops")!.numRows).toBe(truth.counts.render_ops);
    expect(bundle.tables.get("ui_events")!.numRows).toBe(truth.counts.ui_events);
    // rows come in scheduling order; compare by task id
    const byId = new Map(phone.timeline.sim.tasks.map((t) => [t.task_id, t]));
    const order = col(tasks, "task_id").map((x) => byId.get(Number(x))!);
    expect(order.every(Boolean)).toBe(true);
    expect(col(tasks, "scheduled")).toEqual(order.map((t) => BigInt(phone.base + t.scheduled)));
    expect(col(tasks, "started")).toEqual(order.map((t) => BigInt(phone.base + t.started)));
    expect(col(tasks, "ended")).toEqual(order.map((t) => BigInt(phone.base + t.ended)));
    expect(col(tasks, "executor_id")).toEqual(order.map((t) => t.executor_id));
    expect(col(tasks, "thread_name")).toEqual(order.map((t) => t.thread_name));

    // The OpenLaw culprit: list loads (c1) on a capacity-1 AsyncTask executor, the one of a re-created fragment
    // waiting > 500 ms behind the network update (DiagDroid §6.1, Figure 5); the first load starts beside it.
    const openlaw = truth.cases.find((c) => c.case === "openlaw")!.culprit as { task_ids: number[] };
    const ids = col(tasks, "task_id").map(Number);
    const waits = openlaw.task_ids.map((id) => {
      const i = ids.indexOf(id);
      expect(tasks.getChild("pool_capacity")!.get(i)).toBe(1);
      expect(tasks.getChild("category")!.get(i)).toBe("async_task");
      return (tasks.getChild("started")!.get(i) as bigint) - (tasks.getChild("scheduled")!.get(i) as bigint);
    });
    expect(waits.some((w) => w > 500_000_000n)).toBe(true);
    // Heap: dumpsys meminfo at the start and every 5 s; each java_heap_alloc is the phone's figure at that Uptime.
    const heap = bundle.tables.get("heap_samples")! as unknown as T;
    const kinds = col(heap, "kind");
    const alloc = col(heap, "ts").flatMap((ts, i) => (kinds[i] === "java_heap_alloc" ? [[ts, i]] : []));
    expect(alloc.length).toBeGreaterThanOrEqual(1);
    for (const [ts, i] of alloc as [bigint, number][])
      expect(heap.getChild("value")!.get(i)).toBe(
        BigInt(phone.memoryAt(Number(ts / 1_000_000n)).javaHeapAlloc) * 1024n,
      );

    // The FaceQ GridView is drawn with a background (DRAW §IV-B).
    const faceq = truth.cases.find((c) => c.case === "faceq")!.culprit as { view_id: number };
    const ops = bundle.tables.get("render_ops")! as unknown as T;
    const gi = (col(ops, "view_id") as number[]).indexOf(faceq.view_id);
    expect(gi).toBeGreaterThanOrEqual(0);
    expect(ops.getChild("has_background")!.get(gi)).toBe(true);
    expect(ops.getChild("xml_id")!.get(gi)).toBe("gridview");
  }, 50_000);
});
