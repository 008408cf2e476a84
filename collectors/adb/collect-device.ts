// One device's collection (DESIGN.md "How data gets on the phone's side"): device context, framestats
// reset and polling with de-duplication, the agent's logcat lines, the scenario driver, optional method
// tracing, then a bundle. Faults (a vanished device, a hung command, a failed dump, a restarted logcat)
// leave a bundle marked incomplete with warnings, holding everything read before them.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Duplex } from "node:stream";
import type { Table } from "apache-arrow";
import { newManifest, type Manifest, type RunContext, type SourceRecord } from "../../bundle/manifest";
import { writeBundleFolder } from "../../bundle/node-io";
import type { TableName } from "../../bundle/schema";
import { AGENT_TAG } from "../agent/protocol";
import { agentTables, FrameDeduper, framesTable } from "../bundle-tables";
import { AgentLineReader } from "../sources/agent-lines";
import {
  parseBattery,
  parseConnectivity,
  parseDisplayRefresh,
  parseGetprop,
  parseWmSize,
} from "../sources/device-props";
import { parseFramestats } from "../sources/framestats";
import { parseGfxinfo } from "../sources/gfxinfo";
import { parseLogLine } from "../sources/logcat";
import { CountersSession } from "./counters";
import { pullMethodTrace } from "./method-trace";
import { CommandTimeout, type DeviceShell } from "./shell";

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
  /** why collection ended: duration, scenario-finished, interrupted, disconnected */
  ended: string;
}

const RESTART_TAIL = 5000;

/** The collection could not start (the package is not installed): no bundle was written. */
export class CollectSetupError extends Error {
  override name = "CollectSetupError";
}

export async function collectDevice(shell: DeviceShell, o: CollectOptions): Promise<CollectResult> {
  const pollMs = o.pollMs ?? 1000;
  const settleMs = o.settleMs ?? Math.max(1000, 3 * pollMs);
  const warnings: string[] = [];
  const sources: SourceRecord[] = [];
  let complete = true;
  let disconnected = false;
  const t0 = Date.now();
  const startedAt = o.startedAt ?? new Date().toISOString();
  const elapsed = () => Date.now() - t0;
  const warn = (w: string, incomplete = true) => {
    warnings.push(w);
    if (incomplete) complete = false;
  };

  // A failed command either means the device went away (stop) or just that command failed (warn, go on).
  const tryRun = async (cmd: string, what: string): Promise<string | null> => {
    if (disconnected) return null;
    try {
      return await shell.run(cmd);
    } catch (e) {
      if (!(await shell.online())) {
        if (!disconnected)
          warn(
            `device ${shell.serial} disconnected at ${(elapsed() / 1000).toFixed(1)} s (during ${what}); kept what was collected before`,
          );
        disconnected = true;
      } else if (e instanceof CommandTimeout) warn(`${what}: ${e.message}; skipped`);
      else warn(`${what}: "${cmd}" failed: ${(e as Error).message}`);
      return null;
    }
  };

  // Nothing to collect from a package the phone does not have: say so before writing anything.
  const pmPath = await tryRun(`pm path ${o.package}`, "pm path");
  if (disconnected)
    throw new CollectSetupError(
      `device ${shell.serial} is not online (adb devices lists it as absent or offline)`,
    );
  if (pmPath !== null && !/^package:/m.test(pmPath))
    throw new CollectSetupError(
      `package ${o.package} is not installed on ${shell.serial} (pm path printed ${pmPath.trim() ? JSON.stringify(pmPath.trim()) : "nothing"})`,
    );

  // Device context.
  const context: RunContext = { app: o.package, scenario: o.scenario };
  const getprop = await tryRun("getprop", "getprop");
  if (getprop !== null) {
    const { props, warnings: w } = parseGetprop(getprop, "getprop");
    for (const x of w.slice(0, 3)) warn(x, false);
    context.device_model = props["ro.product.model"] ?? null;
    context.manufacturer = props["ro.product.manufacturer"] ?? null;
    context.sdk_release = props["ro.build.version.release"] ?? null;
    context.api_level = props["ro.build.version.sdk"] ? Number(props["ro.build.version.sdk"]) : null;
    context.cpu_abi = props["ro.product.cpu.abi"] ?? null;
    sources.push({ kind: "getprop", origin: "adb shell getprop" });
  }
  const wm = await tryRun("wm size", "wm size");
  const size = wm === null ? null : parseWmSize(wm);
  if (size) Object.assign(context, { screen_width: size.width, screen_height: size.height });
  const display = await tryRun("dumpsys display", "dumpsys display");
  context.refresh_hz = display === null ? null : parseDisplayRefresh(display);
  if (display !== null && context.refresh_hz === null)
    warn("dumpsys display: no refresh rate found; jank deadlines use FrameDeadline or 16.67 ms", false);
  const battery = await tryRun("dumpsys battery", "dumpsys battery");
  context.battery_level = battery === null ? null : parseBattery(battery).level;
  const conn = await tryRun("dumpsys connectivity", "dumpsys connectivity");
  context.network = conn === null ? null : parseConnectivity(conn);
  const pkgInfo = await tryRun(`dumpsys package ${o.package}`, "dumpsys package");
  context.app_version = pkgInfo === null ? null : (/versionName=(\S+)/.exec(pkgInfo)?.[1] ?? null);
  if (pkgInfo !== null && context.app_version === null)
    warn(`package ${o.package}: no versionName (is it installed?)`, false);
  if (context.api_level != null && context.api_level < 23)
    warn(
      `API ${context.api_level}: dumpsys gfxinfo framestats needs Android 6.0 (API 23); no per-frame data`,
    );

  // The agent's lines and UI events, from logcat.
  const reader = new AgentLineReader();
  let logcat: Duplex | null = null;
  let logcatLine = 0;
  let firstMono: bigint | null = null;
  let stopping = false;
  let logcatRestarts = 0;
  const startLogcat = async (tail: number) => {
    if (disconnected) return;
    try {
      const s = await shell.open(`logcat -v monotonic -T ${tail}`);
      logcat = s;
      let rest = "";
      s.on("data", (c: Buffer) => {
        const text = rest + c.toString("utf8");
        const lines = text.split("\n");
        rest = lines.pop() ?? "";
        for (const raw of lines) {
          logcatLine++;
          const p = parseLogLine(raw.replace(/\r$/, ""));
          if (!p) continue;
          const mono = p.line.mono_ns;
          if (firstMono === null && mono !== null) firstMono = mono;
          if (mono !== null && firstMono !== null && mono < firstMono) continue; // from before this collection
          if (p.line.tag === AGENT_TAG) reader.feed(p.line.message, p.line.pid, `logcat line ${logcatLine}`);
        }
      });
      s.on("error", () => {});
      s.on("end", () => {
        if (stopping || logcat !== s) return;
        void (async () => {
          if (!(await shell.online())) {
            if (!disconnected)
              warn(
                `device ${shell.serial} disconnected at ${(elapsed() / 1000).toFixed(1)} s (logcat ended); kept what was collected before`,
              );
            disconnected = true;
            return;
          }
          logcatRestarts++;
          warn(
            `logcat stream ended at ${(elapsed() / 1000).toFixed(1)} s (logd restarted?); restarted it and re-read the last ${RESTART_TAIL} lines`,
            false,
          );
          await startLogcat(RESTART_TAIL);
        })();
      });
    } catch (e) {
      warn(`logcat: ${(e as Error).message}; no agent lines`);
    }
  };
  await startLogcat(1);
  sources.push({
    kind: "logcat",
    origin: "adb shell logcat -v monotonic",
    tables: ["tasks", "contexts", "render_ops", "ui_events"],
  });

  // Frames: reset, then poll.
  await tryRun(`dumpsys gfxinfo ${o.package} reset`, "framestats reset");
  const dedupe = new FrameDeduper();
  let failedDumps = 0;
  let rendered: { total: number; collected: number; label: string } | null = null;
  const poll = async (label: string) => {
    const out = await tryRun(`dumpsys gfxinfo ${o.package} framestats`, `framestats poll ${label}`);
    if (out === null) return;
    const r = parseFramestats(out, `framestats poll ${label}`);
    if (r.failure) {
      failedDumps++;
      if (failedDumps <= 3)
        warn(`${r.failure} (frames of this poll missing unless a later poll still had them)`);
      return;
    }
    for (const w of r.warnings.slice(0, 3)) warn(w, false);
    dedupe.add(
      r.sections.flatMap((s) => s.frames),
      `framestats poll ${label}`,
    );
    // The app's own count since the reset (JankTracker) tells whether the 120-frame window moved past frames unread.
    const total = parseGfxinfo(out, `framestats poll ${label}`).summaries.find(
      (x) => x.scope === "process",
    )?.total_frames;
    if (total != null) rendered = { total, collected: dedupe.size, label };
  };

  // Method tracing and counters (optional).
  const tracePath = `/data/local/tmp/jankbook-${o.runId}.trace`;
  if (o.methodTrace) {
    const r = await tryRun(`am profile start ${o.package} ${tracePath}`, "am profile start");
    if (r !== null && /error|exception/i.test(r)) warn(`am profile start: ${r.trim()}`, false);
  }
  const counters =
    o.counters && !disconnected
      ? await CountersSession.start(
          shell,
          {
            package: o.package,
            runId: o.runId,
            intervalMs: o.countersIntervalMs,
            maxDurationMs: o.durationMs,
          },
          (w) => warn(w, false),
        )
      : null;

  // The scenario driver.
  let driverDone = o.scenario === "manual";
  let driverEndedAt: number | null = null;
  let driverOut = "";
  let driver: Duplex | null = null;
  const [kind, arg] = splitScenario(o.scenario);
  if (kind !== "manual") {
    const cmd =
      kind === "monkey"
        ? `monkey -p ${o.package} -s ${o.monkeySeed ?? 1} --throttle 300 -v ${arg}`
        : `am instrument -w ${arg}`;
    try {
      const s = await shell.open(cmd);
      driver = s;
      s.on("data", (c: Buffer) => (driverOut += c.toString("utf8")));
      s.on("error", () => {});
      s.on("end", () => {
        driverDone = true;
        driverEndedAt = elapsed();
      });
      sources.push({ kind: kind === "monkey" ? "monkey" : "instrumentation", origin: `adb shell ${cmd}` });
    } catch (e) {
      warn(`scenario ${o.scenario}: could not start "${cmd}": ${(e as Error).message}`);
      driverDone = true;
      driverEndedAt = elapsed();
    }
  }

  let ended = "duration";
  const report = (phase: string) =>
    o.onProgress?.({
      serial: shell.serial,
      elapsedMs: elapsed(),
      frames: dedupe.size,
      tasks: reader.data.tasks.length,
      events: reader.data.uiEvents.length,
      warnings: warnings.length,
      phase,
    });
  for (let i = 0; ; i++) {
    const tick = Date.now();
    await poll(String(i + 1));
    report("collecting");
    if (disconnected) {
      ended = "disconnected";
      break;
    }
    if (o.signal?.aborted) {
      ended = "interrupted";
      break;
    }
    if (elapsed() >= o.durationMs) break;
    if (driverDone && kind !== "manual" && driverEndedAt !== null && elapsed() - driverEndedAt >= settleMs) {
      ended = "scenario-finished";
      break;
    }
    await sleep(Math.max(0, pollMs - (Date.now() - tick)), o.signal);
  }
  if (ended === "interrupted") {
    if (kind === "manual") warn(`stopped by the user after ${(elapsed() / 1000).toFixed(1)} s`, false);
    else warn(`interrupted (Ctrl-C) after ${(elapsed() / 1000).toFixed(1)} s, before the scenario ended`);
  }
  if (ended === "duration" && kind !== "manual" && !driverDone)
    warn(`scenario ${o.scenario} still running when --duration ended`, false);
  if (!disconnected) await poll("final");
  stopping = true;
  (logcat as Duplex | null)?.destroy();
  // A driver still running (Ctrl-C, --duration) is let go: its adb stream would keep the process alive.
  if (!driverDone) (driver as Duplex | null)?.destroy();
  report("writing");

  const traced: Partial<Record<TableName, Table>> = {};
  if (counters && !disconnected) {
    const c = await counters.stop();
    for (const [w, incomplete] of c.warnings) warn(w, incomplete);
    if (c.table) traced.hpc_samples = c.table;
    if (c.origin) sources.push({ kind: "simpleperf-stat", origin: c.origin, tables: ["hpc_samples"] });
  } else counters?.abandon();
  if (o.methodTrace && !disconnected) {
    await tryRun("am profile stop " + o.package, "am profile stop");
    const pulled = await pullMethodTrace(shell, tracePath, o.dir, o.runId);
    for (const [w, incomplete] of pulled.warnings) warn(w, incomplete);
    Object.assign(traced, pulled.tables);
    if (pulled.origin)
      sources.push({
        kind: "method-trace",
        origin: `adb pull ${pulled.origin}`,
        tables: Object.keys(pulled.tables),
      });
  }

  const agent = reader.finish();
  for (const w of agent.warnings) warn(w, /lost/.test(w));
  for (const w of dedupe.warnings) warn(w);
  if (failedDumps > 3) warn(`framestats: ${failedDumps} polls failed in all`);
  const r = rendered as { total: number; collected: number; label: string } | null;
  if (r && r.total > r.collected)
    warn(
      `framestats: ${r.total - r.collected} of the ${r.total} frames the app rendered since the reset were never seen (poll ${r.label}'s "Total frames rendered"); polls came too far apart or failed`,
    );
  if (logcatRestarts)
    sources.push({
      kind: "logcat",
      origin: `restarted ${logcatRestarts}x; lines de-duplicated by agent sequence number`,
    });

  const tables: Partial<Record<TableName, Table>> = {};
  const frames = framesTable(o.runId, dedupe.frames(), context.refresh_hz ?? null);
  if (frames.table.numRows) tables.frames = frames.table;
  if (frames.unknownColumns.length)
    warn(`framestats columns not in the schema, not kept: ${frames.unknownColumns.join(", ")}`, false);
  if (frames.skipped) warn(`${frames.skipped} framestats rows without FrameCompleted left out`, false);
  sources.push({
    kind: "framestats",
    origin: `adb shell dumpsys gfxinfo ${o.package} framestats`,
    tables: ["frames"],
  });
  Object.assign(tables, agentTables(o.runId, agent), traced);
  if (!agent.lines)
    warn(
      `no ${AGENT_TAG} lines in logcat: is the agent running? (frida -U -l collectors/agent/dist/agent.js ${o.package})`,
      false,
    );

  // A simulated phone says so in getprop; its runs are marked synthetic like any generated data.
  const synthetic = getprop !== null && /\[ro\.jankbook\.simulated\]: \[1\]/.test(getprop);
  const manifest = newManifest(o.runId, context, {
    started_at: startedAt,
    created_by: "jankbook collect",
    synthetic,
    complete,
    warnings,
    sources,
  });
  const written = await writeBundleFolder(o.dir, manifest, tables);
  if (driverOut) await writeFileSafe(join(o.dir, "driver.log"), Buffer.from(driverOut));
  return { serial: shell.serial, dir: o.dir, manifest: written, ended };
}

export function splitScenario(s: string): ["monkey" | "instrument" | "manual", string] {
  if (s === "manual") return ["manual", ""];
  const m = /^(monkey|instrument):(.+)$/.exec(s);
  if (!m) throw new Error(`--scenario ${s}: expected monkey:<events>, instrument:<runner> or manual`);
  if (m[1] === "monkey" && !/^\d+$/.test(m[2]!))
    throw new Error(`--scenario ${s}: monkey needs a number of events`);
  return [m[1] as "monkey" | "instrument", m[2]!];
}

async function writeFileSafe(path: string, data: Buffer) {
  const { mkdir } = await import("node:fs/promises");
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, data);
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
