// One device's collection (docs/architecture.md, "Data flow"), as phases sharing one Collection
// (collection.ts: warnings, sources, whether the device is still there): device context, the agent's logcat,
// framestats polling, the scenario driver, and optionally a method trace, counters and meminfo; then the
// bundle. Faults (a vanished or frozen device, a hung command, a failed dump, a restarted logcat) leave a
// bundle marked incomplete with warnings, holding everything read before them.
import type { Table } from "apache-arrow";
import type { Manifest } from "../../bundle/manifest";
import type { TableName } from "../../bundle/schema";
import { AgentLogcat } from "./agent-logcat";
import { Collection } from "./collection";
import { writeCollectedBundle } from "./collected-bundle";
import { CountersSession } from "./counters";
import { readDeviceContext } from "./device-context";
import { FramesPolling } from "./frames-polling";
import { MeminfoSampling } from "./meminfo-sampling";
import { MethodTraceSession } from "./method-trace";
import { ScenarioDriver } from "./scenario-driver";
import type { DeviceShell } from "./shell";

export { splitScenario } from "./scenario-driver";

export interface CollectOptions {
  package: string;
  /** monkey:<events>, instrument:<runner> or manual */
  scenario: string;
  durationMs: number;
  /** framestats polling interval (wall ms); 1000 on a phone */
  pollMs?: number;
  /** after the scenario driver finishes, keep polling this long (wall ms) */
  settleMs?: number;
  methodTrace?: boolean;
  counters?: boolean;
  /** simpleperf stat --interval for --counters, ms (default 100) */
  countersIntervalMs?: number;
  /** dumpsys meminfo every this many wall ms into heap_samples; null: none (default 5000) */
  meminfoIntervalMs?: number | null;
  /** bundle folder to write */
  dir: string;
  runId: string;
  monkeySeed?: number;
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
  /** ISO time to record as started_at (default: now) */
  startedAt?: string;
}

export interface Progress {
  serial: string;
  elapsedMs: number;
  frames: number;
  tasks: number;
  events: number;
  warnings: number;
  phase: string;
}

export interface CollectResult {
  serial: string;
  dir: string;
  manifest: Manifest;
  /** why collection ended: duration, scenario-finished, interrupted, disconnected, unresponsive */
  ended: string;
}

/** The collection could not start (the package is not installed): no bundle was written. */
export class CollectSetupError extends Error {
  override name = "CollectSetupError";
}

export async function collectDevice(shell: DeviceShell, o: CollectOptions): Promise<CollectResult> {
  const pollMs = o.pollMs ?? 1000;
  const settleMs = o.settleMs ?? Math.max(1000, 3 * pollMs);
  const startedAt = o.startedAt ?? new Date().toISOString();
  const c = new Collection(shell);

  // Nothing to collect from a package the phone does not have: say so before writing anything.
  const pmPath = await c.run(`pm path ${o.package}`, "pm path");
  if (c.lost)
    throw new CollectSetupError(
      `device ${shell.serial} is not online (adb devices lists it as absent or offline, or it does not answer)`,
    );
  if (pmPath !== null && !/^package:/m.test(pmPath))
    throw new CollectSetupError(
      `package ${o.package} is not installed on ${shell.serial} (pm path printed ${pmPath.trim() ? JSON.stringify(pmPath.trim()) : "nothing"})`,
    );

  const { context, synthetic } = await readDeviceContext(c, o.package, o.scenario);
  const logcat = new AgentLogcat(c);
  await logcat.start();
  const frames = new FramesPolling(c, o.package);
  await frames.reset();
  const trace = o.methodTrace ? new MethodTraceSession(c, o.package, o.runId) : null;
  await trace?.start();
  const counters =
    o.counters && !c.lost
      ? await CountersSession.start(
          shell,
          {
            package: o.package,
            runId: o.runId,
            intervalMs: o.countersIntervalMs,
            maxDurationMs: o.durationMs,
          },
          (w) => c.warn(w, false),
        )
      : null;
  const driver = new ScenarioDriver(c, o.scenario);
  await driver.start(o.package, o.monkeySeed);
  const meminfoMs = o.meminfoIntervalMs === undefined ? 5000 : o.meminfoIntervalMs;
  const heap = meminfoMs && !c.lost ? new MeminfoSampling(c, o.package, meminfoMs) : null;
  heap?.start();

  const report = (phase: string) =>
    o.onProgress?.({
      serial: shell.serial,
      elapsedMs: c.elapsed(),
      frames: frames.size,
      tasks: logcat.tasks,
      events: logcat.events,
      warnings: c.warnings.length,
      phase,
    });
  const ended = await pollUntilDone(c, frames, driver, { ...o, pollMs, settleMs }, report);
  if (ended === "interrupted") {
    if (driver.kind === "manual") c.warn(`stopped by the user after ${c.at()}`, false);
    else c.warn(`interrupted (Ctrl-C) after ${c.at()}, before the scenario ended`);
  }
  if (ended === "duration" && !driver.done)
    c.warn(`scenario ${o.scenario} still running when --duration ended`, false);
  if (!c.lost) await frames.poll("final");
  logcat.stop();
  driver.stop();
  await heap?.stop();
  report("writing");

  // A phase that throws while building its tables loses only those tables, with a warning naming it.
  const built: Partial<Record<TableName, Table | null | (() => Table | null)>> = {};
  if (counters) built.hpc_samples = await guarded(c, "--counters", () => stopCounters(c, counters), null);
  if (trace) Object.assign(built, await guarded(c, "--method-trace", () => trace.stop(o.dir), {}));
  if (heap) built.heap_samples = () => heap.table(o.runId);
  const manifest = await writeCollectedBundle(c, o.dir, {
    runId: o.runId,
    pkg: o.package,
    context,
    synthetic,
    startedAt,
    frames: frames.finish(),
    agent: logcat.finish(),
    built,
    driverOutput: driver.output,
  });
  return { serial: shell.serial, dir: o.dir, manifest, ended: c.lost ?? ended };
}

/** Polls framestats every pollMs until the duration, the scenario's end (plus settleMs), Ctrl-C or a lost device. */
async function pollUntilDone(
  c: Collection,
  frames: FramesPolling,
  driver: ScenarioDriver,
  o: { durationMs: number; pollMs: number; settleMs: number; signal?: AbortSignal },
  report: (phase: string) => void,
): Promise<string> {
  for (let i = 0; ; i++) {
    const tick = Date.now();
    await frames.poll(String(i + 1));
    report("collecting");
    if (c.lost) return c.lost;
    if (o.signal?.aborted) return "interrupted";
    if (c.elapsed() >= o.durationMs) return "duration";
    if (driver.kind !== "manual" && driver.endedAt !== null && c.elapsed() - driver.endedAt >= o.settleMs)
      return "scenario-finished";
    await sleep(Math.max(0, o.pollMs - (Date.now() - tick)), o.signal);
  }
}

async function guarded<T>(c: Collection, what: string, f: () => Promise<T>, otherwise: T): Promise<T> {
  try {
    return await f();
  } catch (e) {
    c.warn(`${what}: its tables could not be built (${(e as Error).message}); the other tables are kept`);
    return otherwise;
  }
}

/** hpc_samples from simpleperf, or a warning that the requested counters were lost with the device. */
async function stopCounters(c: Collection, counters: CountersSession): Promise<Table | null> {
  if (c.lost) {
    counters.abandon();
    c.warn(
      `--counters: the requested hardware counters were lost: the device was ${c.lost} before simpleperf could be stopped and read`,
    );
    return null;
  }
  const r = await counters.stop();
  for (const [w, incomplete] of r.warnings) c.warn(w, incomplete);
  if (r.origin) c.sources.push({ kind: "simpleperf-stat", origin: r.origin, tables: ["hpc_samples"] });
  return r.table;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
