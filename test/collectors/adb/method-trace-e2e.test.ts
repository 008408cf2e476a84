// --method-trace end to end: `am profile start/stop` on the simulated phone, the trace pulled through the
// real adb server's sync service, read into methods/threads/method_events/calls, checked against what
// the phone wrote and against the scenario's tasks and frames.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { PhoneFaults } from "../../../collectors/simulator/phone";
import { writeMethodTrace } from "../../../collectors/sources/method-trace-writer";
import { simulatedCollector } from "./sim-harness";

type Col = { toArray(): ArrayLike<unknown> };
type T = { getChild(n: string): Col | null; numRows: number };
const col = (t: T, n: string) => Array.from(t.getChild(n)!.toArray());

const collect = simulatedCollector("traced");

async function collectTraced(port: number, faults?: PhoneFaults) {
  const r = await collect({ phone: { faults }, collect: { methodTrace: true }, port });
  const written = r.phone.methodTraces.get("/data/local/tmp/jankbook-traced.trace");
  expect(written).toBeDefined();
  return { ...r, written: written! };
}

describe("jankbook collect --method-trace against the simulated phone", () => {
  it("pulls the trace and reads it into methods, threads, method_events and calls matching what the phone wrote", async () => {
    const { res, bundle, written, phone, shell, dir } = await collectTraced(6731);
    expect(res.manifest.complete).toBe(true);
    expect(res.manifest.warnings).toEqual([]);
    expect(phone.commands).toContain(
      "am profile start org.jankbook.sample /data/local/tmp/jankbook-traced.trace",
    );
    expect(phone.commands).toContain("am profile stop org.jankbook.sample");
    expect(bundle.manifest.sources).toContainEqual({
      kind: "method-trace",
      origin: "adb pull /data/local/tmp/jankbook-traced.trace",
      tables: ["methods", "threads", "method_events", "calls"],
    });
    // the raw file is kept beside the tables, byte for byte what the phone wrote
    expect(new Uint8Array(await readFile(join(dir, "method.trace")))).toEqual(writeMethodTrace(written.spec));

    const methods = bundle.tables.get("methods")! as unknown as T;
    const threads = bundle.tables.get("threads")! as unknown as T;
    const events = bundle.tables.get("method_events")! as unknown as T;
    const calls = bundle.tables.get("calls")! as unknown as T;
    expect(methods.numRows).toBe(written.spec.methods.length);
    expect(threads.numRows).toBe(written.spec.threads.length);
    expect(events.numRows).toBe(written.spec.records.length);
    expect(calls.numRows).toBe(written.calls.length);
    expect(col(threads, "name")).toEqual(written.spec.threads.map((t) => t.name));
    expect(col(events, "action").filter((a) => a === "enter").length).toBe(written.calls.length);

    // Every call as (thread, method, depth, inclusive µs) against the phone's list, as multisets.
    const methodName = new Map(
      col(methods, "method_id").map((id, i) => [
        Number(id),
        `${col(methods, "class_name")[i]}.${col(methods, "method_name")[i]}${col(methods, "signature")[i]}`,
      ]),
    );
    const threadName = new Map(
      col(threads, "thread_id").map((id, i) => [Number(id), String(col(threads, "name")[i])]),
    );
    const [tid, mid, depth, incl] = ["thread_id", "method_id", "depth", "inclusive"].map((n) =>
      col(calls, n),
    );
    const got = tid!
      .map(
        (t, i) => `${threadName.get(Number(t))} ${methodName.get(Number(mid![i]))} ${depth![i]} ${incl![i]}`,
      )
      .sort();
    const us = (ns: number) => Math.floor((ns - written.from) / 1000);
    const want = written.calls
      .map((c) => `${c.thread} ${c.method} ${c.depth} ${(us(c.exit) - us(c.enter)) * 1000}`)
      .sort();
    expect(got).toEqual(want);

    // Independent of the trace model: one doFrame per frame of the scenario, one task-method call per task,
    // lasting as long as the task ran (to the µs).
    const truth = phone.groundTruth();
    const named = tid!.map((_, i) => ({ method: methodName.get(Number(mid![i]))!, incl: Number(incl![i]) }));
    expect(named.filter((c) => c.method === "android.view.Choreographer.doFrame(JI)V").length).toBe(
      truth.counts.frames,
    );
    const asyncCalls = named
      .filter((c) => c.method === "android.os.AsyncTask$3.call()Ljava/lang/Object;")
      .map((c) => c.incl);
    const asyncTasks = phone.timeline.sim.tasks.filter((t) => t.category === "async_task");
    expect(asyncCalls.length).toBe(asyncTasks.length);
    for (const task of asyncTasks) {
      const i = asyncCalls.findIndex((d) => Math.abs(d - (task.ended - task.started)) <= 1000);
      expect(i).toBeGreaterThanOrEqual(0);
      asyncCalls.splice(i, 1);
    }
    await expect(shell.pull("/data/local/tmp/no-such.trace")).rejects.toThrow(/ENOENT/);
  }, 60_000);

  it("a trace still being written when first pulled is pulled again until whole", async () => {
    const { res, bundle, written } = await collectTraced(6732, { traceFlushMs: 600 });
    expect(res.manifest.complete).toBe(true);
    expect(res.manifest.warnings).toEqual([]);
    expect(bundle.tables.get("method_events")!.numRows).toBe(written.spec.records.length);
    expect(bundle.tables.get("calls")!.numRows).toBe(written.calls.length);
  }, 60_000);
});
