// The simulated phone: an adb-transport device whose shell answers the commands the collector uses, from a
// scenario of the seeded app model played out in device time. Its clock stands still until the scenario
// starts (monkey, am instrument, or the first framestats reset when startOn is "reset") and then runs
// `timeScale` times faster than the wall clock, so a 20 s scenario can be collected in 4 s.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { encodeRecord, AGENT_TAG, type AgentRecord } from "../agent/protocol";
import { framestatsLayoutFor, frameColumnName } from "../sources/framestats";
import { AdbTransportServer, type ShellStream } from "./adb-transport";
import type { SimFrame } from "./app-model";
import type { DeviceProfile } from "./device-profiles";
import { mulberry32 } from "./random";
import { buildScenario, type GroundTruth, type ScenarioName, type Timeline } from "./scenarios";
import { SimulatedSimpleperf } from "./simpleperf";
import { simMethodTrace, type SimMethodTrace } from "./method-trace-model";
import { formatMeminfo, simMemory, type SimMemory } from "./meminfo-model";
import { writeMethodTrace } from "../sources/method-trace-writer";

export interface PhoneFaults {
  /** device ns after the scenario start at which the device vanishes from adb */
  disconnectAt?: number;
  /** device ns after the scenario start at which every logcat stream ends (logd restarted) */
  logcatRestartAt?: number;
  /** [from, to) device ns after the scenario start during which framestats answers "Failure while dumping" */
  framestatsFailure?: [number, number];
  /** commands matching this never answer (the first `times` of them; all when times is absent) */
  hang?: { command: RegExp; times?: number };
  /** wall ms the app takes to finish writing a method trace after `am profile stop`; pulls before get half of it */
  traceFlushMs?: number;
}

export interface PhoneOptions {
  profile: DeviceProfile;
  scenario: ScenarioName;
  seed: number;
  /** device ns per wall ns once the scenario runs (1 = real time) */
  timeScale?: number;
  startOn?: "driver" | "reset";
  faults?: PhoneFaults;
  /** CLOCK_MONOTONIC at which the scenario starts, ns (default about an hour after boot, from the seed) */
  bootNs?: number;
  /** false: the agent runs without View hooks (no render_ops lines) */
  viewHooks?: boolean;
  /** whether /system/bin/simpleperf exists (default: API 26+) */
  simpleperf?: boolean;
  /** the app draws nothing: framestats has no rows, the agent's other lines and method traces are unchanged */
  rendersNothing?: boolean;
  /** frames one framestats dump holds (default 120, as AOSP's); more lets a test whose subject is not late polls
   * run faster than real time on a loaded machine without losing frames between polls */
  framestatsRing?: number;
}

const RING = 120;

export class SimulatedPhone {
  readonly timeline: Timeline;
  readonly base: number;
  private server: AdbTransportServer;
  private startedHr: bigint | null = null;
  private resetAt = -Infinity;
  private lines: { ts: number; text: (fmt: Fmt) => string }[] = [];
  private streams = new Set<ShellStream>();
  private timers = new Set<NodeJS.Timeout>();
  private hangsLeft: number;
  private logcatRestarted = false;
  private profiling: { path: string; from: number } | null = null;
  private files = new Map<string, { bytes: Uint8Array; readyAt: number }>();
  disconnected = false;
  readonly commands: string[] = [];
  /** Date.now() when each of `commands` arrived */
  readonly commandTimes: number[] = [];
  /** the method traces `am profile stop` wrote, by path: what a reader should find in them */
  readonly methodTraces = new Map<string, SimMethodTrace>();
  /** `simpleperf stat` and what it printed */
  readonly simpleperf = new SimulatedSimpleperf(this);

  constructor(readonly options: PhoneOptions) {
    this.timeline = buildScenario(options.scenario, options.profile, options.seed, options.viewHooks ?? true);
    this.base = options.bootNs ?? 3_600_000_000_000 + (options.seed % 1000) * 1_000_000;
    this.hangsLeft = options.faults?.hang?.times ?? Infinity;
    this.prepareLog();
    const p = options.profile;
    this.server = new AdbTransportServer({
      banner: {
        "ro.product.name": p.device,
        "ro.product.model": p.model.replace(/\s/g, "_"),
        "ro.product.device": p.device,
      },
      shell: (cmd, stream) => this.shell(cmd, stream),
      files: (path) => this.file(path),
    });
  }

  get port() {
    return this.server.port;
  }
  get serial() {
    return `127.0.0.1:${this.server.port}`;
  }
  get started() {
    return this.startedHr !== null;
  }

  async listen(port = 0): Promise<number> {
    const p = await this.server.listen(port);
    const tick = setInterval(() => this.checkFaults(), 20);
    this.timers.add(tick);
    return p;
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers.clear();
    for (const s of this.streams) s.end();
    await this.server.close();
  }

  /** Device CLOCK_MONOTONIC, ns. */
  now(): number {
    if (this.startedHr === null) return this.base;
    const wall = Number(process.hrtime.bigint() - this.startedHr);
    return this.base + wall * (this.options.timeScale ?? 1);
  }
  /** ns since the scenario started (0 before). */
  elapsed(): number {
    return this.now() - this.base;
  }

  startScenario() {
    if (this.startedHr === null) this.startedHr = process.hrtime.bigint();
  }

  /** The scenario's ground truth, with the absolute time it started at. */
  groundTruth(): GroundTruth & { base_ns: number; time_scale: number } {
    return { ...this.timeline.truth, base_ns: this.base, time_scale: this.options.timeScale ?? 1 };
  }
  async writeGroundTruth(dir: string, file = "ground_truth.json") {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, file), JSON.stringify(this.groundTruth(), null, 2) + "\n");
  }

  /** Every frame of the scenario as framestats prints it on this device (absolute ns), for tests. */
  expectedFrames(): Record<string, bigint>[] {
    const layout = framestatsLayoutFor(this.options.profile.api_level) ?? [];
    return this.timeline.sim.frames.map((f) =>
      Object.fromEntries(layout.map((c, i) => [frameColumnName(c), this.frameValues(f, layout)[i]!])),
    );
  }

  private checkFaults() {
    const f = this.options.faults;
    if (!f || this.startedHr === null) return;
    const e = this.elapsed();
    if (f.disconnectAt !== undefined && e >= f.disconnectAt && !this.disconnected) {
      this.disconnected = true;
      void this.server.close();
    }
    if (f.logcatRestartAt !== undefined && e >= f.logcatRestartAt && !this.logcatRestarted) {
      this.logcatRestarted = true;
      for (const s of [...this.streams]) if ((s as ShellStream & { logcat?: boolean }).logcat) s.end();
    }
  }

  private prepareLog() {
    const { sim } = this.timeline;
    const rand = mulberry32(this.options.seed ^ 0x5eed);
    let seq = 0;
    const all: { ts: number; pid: number; tid: number; level: string; tag: string; msg: () => string }[] = [];
    for (const l of sim.log) {
      const rec = l.record;
      if (typeof rec === "string")
        all.push({ ts: l.ts, pid: l.pid, tid: l.tid, level: l.level, tag: l.tag, msg: () => rec });
      else {
        const msg = encodeRecord(seq++, shiftRecord(rec, BigInt(this.base)));
        all.push({ ts: l.ts, pid: l.pid, tid: l.tid, level: "I", tag: AGENT_TAG, msg: () => msg });
      }
    }
    // Other processes keep logging: the collector must pick the agent's lines out of them.
    for (let t = -5e9; t < this.timeline.duration + 60e9; t += 300e6 + rand() * 900e6)
      all.push({
        ts: Math.round(t),
        pid: 1402,
        tid: 1402 + Math.floor(rand() * 40),
        level: "D",
        tag: rand() < 0.5 ? "PowerManagerService" : "WindowManager",
        msg: () => 'acquire lock=233570404, flags=0x1, tag="View Lock"',
      });
    all.push({
      ts: -2e9,
      pid: 1402,
      tid: 1460,
      level: "I",
      tag: "ActivityManager",
      msg: () =>
        `Start proc ${sim.pid}:${sim.pkg}/u0a187 for activity ${sim.window.split("/android.view")[0]}`,
    });
    all.sort((a, b) => a.ts - b.ts);
    this.lines = all.map((l) => ({
      ts: l.ts,
      text: (fmt: Fmt) =>
        `${fmtTime(this.base + l.ts, fmt)} ${String(l.pid).padStart(5)} ${String(l.tid).padStart(5)} ${l.level} ${l.tag.padEnd(8)}: ${l.msg()}`,
    }));
  }

  /** `log -t tag message`: one more log line, at ts ns after the scenario start (not before lines already sent). */
  appendLog(tag: string, message: string, ts: number) {
    const at = this.lines.findIndex((l) => l.ts > ts);
    const text = (fmt: Fmt) =>
      `${fmtTime(this.base + ts, fmt)} ${String(2000).padStart(5)} ${String(2000).padStart(5)} I ${tag.padEnd(8)}: ${message}`;
    this.lines.splice(at < 0 ? this.lines.length : at, 0, { ts, text });
  }

  private file(path: string): Uint8Array | null {
    const f = this.files.get(path);
    if (!f) return null;
    return Date.now() >= f.readyAt ? f.bytes : f.bytes.subarray(0, f.bytes.length >> 1);
  }

  /** am profile start <process> <file> / am profile stop <process> (ActivityManagerShellCommand). */
  private profile(args: string[]): string {
    const [verb, pkg, path] = args;
    if (pkg !== this.timeline.sim.pkg) return `Error: Unknown process: ${pkg}\n`;
    if (verb === "start") {
      if (!path) return "Error: no profile file path specified\n";
      this.profiling = { path, from: this.elapsed() };
      return "";
    }
    if (verb !== "stop") return `Error: unknown profile command ${verb}\n`;
    if (this.profiling) {
      const { path: file, from } = this.profiling;
      const t = simMethodTrace(
        this.timeline.sim,
        from,
        this.elapsed(),
        1_700_000_000_000_000 + Math.floor((this.base + from) / 1000),
      );
      this.methodTraces.set(file, t);
      this.files.set(file, {
        bytes: writeMethodTrace(t.spec),
        readyAt: Date.now() + (this.options.faults?.traceFlushMs ?? 0),
      });
      this.profiling = null;
    }
    return "";
  }

  private shell(cmd: string, stream: ShellStream) {
    this.commands.push(cmd);
    this.commandTimes.push(Date.now());
    this.streams.add(stream);
    stream.onClose(() => this.streams.delete(stream));
    const hang = this.options.faults?.hang;
    if (hang && hang.command.test(cmd) && this.hangsLeft > 0) {
      this.hangsLeft--;
      return; // never answers, never closes
    }
    if (this.simpleperf.accepts(cmd)) return this.simpleperf.shell(cmd, stream);
    const reply = (text: string) => {
      void stream
        .write(text)
        .catch(() => {})
        .finally(() => stream.end());
    };
    const p = this.options.profile;
    const sim = this.timeline.sim;
    const args = cmd.trim().split(/\s+/);
    if (args[0] === "getprop") {
      const props = this.props();
      if (args[1]) return reply((props[args[1]] ?? "") + "\n");
      return reply(
        Object.entries(props)
          .map(([k, v]) => `[${k}]: [${v}]`)
          .join("\n") + "\n",
      );
    }
    if (cmd.trim() === "wm size") return reply(`Physical size: ${p.width}x${p.height}\n`);
    if (cmd.startsWith("dumpsys display"))
      return reply(
        `DISPLAY MANAGER (dumpsys display)\n  mOnlyCode=false\nDisplay Devices: size=1\n  DisplayDeviceInfo{"Built-in Screen": uniqueId="local:0", ${p.width} x ${p.height}, modeId 1, defaultModeId 1, supportedModes [{id=1, width=${p.width}, height=${p.height}, fps=${p.refresh_hz.toFixed(1)}}], density 420}\n`,
      );
    if (cmd.startsWith("dumpsys battery"))
      return reply(
        `Current Battery Service state:\n  AC powered: false\n  USB powered: true\n  Wireless powered: false\n  status: 2\n  health: 2\n  present: true\n  level: ${p.battery_level}\n  scale: 100\n  voltage: 4123\n  temperature: 291\n  technology: Li-ion\n`,
      );
    if (cmd.startsWith("dumpsys connectivity")) {
      const t = p.network === "wifi" ? "WIFI" : p.network === "cellular" ? "CELLULAR" : null;
      return reply(
        t
          ? `Active default network: 100\n\nCurrent Networks:\n  NetworkAgentInfo{network{100}  handle{432902426637}  ni{${t === "WIFI" ? "WIFI" : "MOBILE"} CONNECTED extra: } Score(70) Transports: ${t} Capabilities: INTERNET&NOT_RESTRICTED}\n`
          : "Active default network: none\n",
      );
    }
    if (cmd.startsWith("dumpsys package"))
      return reply(
        `Packages:\n  Package [${sim.pkg}] (c0ffee):\n    versionCode=5006 minSdk=21 targetSdk=28\n    versionName=${this.timeline.truth.app_version}\n`,
      );
    if (args[0] === "pidof") return reply(args[1] === sim.pkg ? `${sim.pid}\n` : "");
    if (args[0] === "dumpsys" && args[1] === "gfxinfo") return this.gfxinfo(args.slice(2), reply);
    if (args[0] === "dumpsys" && args[1] === "meminfo") return reply(this.meminfo(args[2]));
    if (args[0] === "logcat") return this.logcat(args.slice(1), stream);
    if (args[0] === "monkey" || (args[0] === "am" && args[1] === "instrument"))
      return this.drive(args, stream);
    if (args[0] === "am" && args[1] === "profile") return reply(this.profile(args.slice(2)));
    if (args[0] === "pm" && args[1] === "path")
      return reply(args[2] === sim.pkg ? `package:/data/app/~~c0ffee==/${sim.pkg}-1/base.apk\n` : "");
    if (args[0] === "echo") return reply(args.slice(1).join(" ") + "\n");
    return reply(`/system/bin/sh: ${args[0]}: inaccessible or not found\n`);
  }

  private props(): Record<string, string> {
    const p = this.options.profile;
    return {
      "ro.build.version.release": p.sdk_release,
      "ro.build.version.sdk": String(p.api_level),
      "ro.product.model": p.model,
      "ro.product.manufacturer": p.manufacturer,
      "ro.product.device": p.device,
      "ro.product.cpu.abi": p.cpu_abi,
      "ro.build.fingerprint": `${p.manufacturer}/${p.device}/${p.device}:${p.sdk_release}/SIM.${this.options.seed}/1:user/release-keys`,
      "ro.kernel.qemu": "0",
      "ro.jankbook.simulated": "1",
    };
  }

  private frameValues(f: SimFrame, layout: readonly string[]): bigint[] {
    const b = this.base;
    const abs = (x: number) => BigInt(Math.round(b + x));
    const map: Record<string, bigint> = {
      Flags: 0n,
      FrameTimelineVsyncId: BigInt(f.vsync_id),
      IntendedVsync: abs(f.intended),
      Vsync: abs(f.vsync),
      OldestInputEvent: f.input_ts === null ? 0n : abs(f.input_ts),
      NewestInputEvent: f.input_ts === null ? 0n : abs(f.input_ts),
      InputEventId: BigInt(f.input_id),
      HandleInputStart: abs(f.handle_input),
      AnimationStart: abs(f.animation),
      PerformTraversalsStart: abs(f.traversals),
      DrawStart: abs(f.draw_start),
      FrameDeadline: abs(f.intended + f.period),
      FrameStartTime: abs(f.handle_input),
      FrameInterval: BigInt(f.period),
      WorkloadTarget: BigInt(f.period),
      AnimationTime: abs(f.vsync),
      SyncQueued: abs(f.sync_queued),
      SyncStart: abs(f.sync_start),
      IssueDrawCommandsStart: abs(f.issue),
      SwapBuffers: abs(f.swap),
      FrameCompleted: abs(f.completed),
      DequeueBufferDuration: BigInt(Math.round(f.dequeue)),
      QueueBufferDuration: BigInt(Math.round(f.queue)),
      GpuCompleted: abs(f.gpu),
      SwapBuffersCompleted: abs(f.completed),
      DisplayPresentTime: abs(Math.ceil(f.completed / f.period) * f.period + f.period),
      CommandSubmissionCompleted: abs(f.swap),
    };
    return layout.map((c) => map[c] ?? 0n);
  }

  /** The app's memory as `dumpsys meminfo` prints it at this "Uptime:" (ms of CLOCK_MONOTONIC), for tests. */
  memoryAt(uptimeMs: number): SimMemory {
    return simMemory(uptimeMs - Math.floor(this.base / 1e6), this.options.seed);
  }

  /** dumpsys meminfo <pkg> (AMS prints "No process found for: " for a package with no process). */
  private meminfo(pkg: string | undefined): string {
    const sim = this.timeline.sim;
    if (pkg !== sim.pkg) return `No process found for: ${pkg ?? ""}\n`;
    const uptimeMs = Math.floor(this.now() / 1e6);
    return formatMeminfo(this.memoryAt(uptimeMs), this.options.profile.api_level, sim.pid, sim.pkg, uptimeMs);
  }

  private gfxinfo(args: string[], reply: (t: string) => void) {
    const sim = this.timeline.sim;
    const [pkg, mode] = args;
    if (pkg !== sim.pkg) return reply(`No process found for: ${pkg}\n`);
    if (mode === "reset") {
      this.resetAt = this.elapsed();
      if (this.options.startOn === "reset") this.startScenario();
      return reply("");
    }
    const e = this.elapsed();
    const fail = this.options.faults?.framestatsFailure;
    if (fail && e >= fail[0] && e < fail[1])
      return reply(
        `Failure while dumping the app: ProcessRecord{5d1e1 ${sim.pid}:${sim.pkg}/u0a187}\njava.io.IOException: Timeout\n`,
      );
    const layout = framestatsLayoutFor(this.options.profile.api_level);
    const done = this.options.rendersNothing
      ? []
      : sim.frames.filter((f) => f.intended >= this.resetAt && f.completed <= e);
    const recent = done.slice(-(this.options.framestatsRing ?? RING));
    const durations = done.map((f) => (f.completed - f.intended) / 1e6).sort((a, b) => a - b);
    const pct = (q: number) =>
      durations.length
        ? Math.round(durations[Math.min(durations.length - 1, Math.floor(q * durations.length))]!)
        : 0;
    const janky = done.filter((f) => f.completed - f.intended > f.period).length;
    const summary = [
      `Stats since: ${Math.round(this.base + Math.max(0, this.resetAt))}ns`,
      `Total frames rendered: ${done.length}`,
      `Janky frames: ${janky} (${done.length ? ((100 * janky) / done.length).toFixed(2) : "0.00"}%)`,
      `50th percentile: ${pct(0.5)}ms`,
      `90th percentile: ${pct(0.9)}ms`,
      `95th percentile: ${pct(0.95)}ms`,
      `99th percentile: ${pct(0.99)}ms`,
      `Number Missed Vsync: ${done.filter((f) => f.vsync > f.intended).length}`,
      `HISTOGRAM: ${[5, 6, 7, 8, 9, 10, 12, 14, 16, 18, 20, 25, 32, 48, 64, 100, 150].map((ms, i, a) => `${ms}ms=${durations.filter((d) => d <= ms && (i === 0 || d > a[i - 1]!)).length}`).join(" ")}`,
    ];
    let out = `Applications Graphics Acceleration Info:\nUptime: ${Math.round((this.base + e) / 1e6)} Realtime: ${Math.round((this.base + e) / 1e6)}\n\n** Graphics info for pid ${sim.pid} [${sim.pkg}] **\n\n${summary.join("\n")}\n\nProfile data in ms:\n\n\t${sim.window} (visibility=0)\n`;
    if (this.options.profile.api_level >= 23) out += summary.join("\n") + "\n";
    if (mode === "framestats" && layout) {
      out += `\n---PROFILEDATA---\n${layout.join(",")},\n`;
      for (const f of recent) out += this.frameValues(f, layout).join(",") + ",\n";
      out += "---PROFILEDATA---\n";
    }
    out += `\nView hierarchy:\n\n  ${sim.window}\n  42 views, 38.12 kB of display lists\n\n\nTotal ViewRootImpl: 1\nTotal Views:        42\n`;
    reply(out);
  }

  private logcat(args: string[], stream: ShellStream) {
    const fmt: Fmt = args.includes("nsec") ? 9 : args.includes("usec") ? 6 : 3;
    const dump = args.includes("-d");
    const tIdx = args.indexOf("-T");
    const tail = tIdx >= 0 ? Number(args[tIdx + 1]) : null;
    (stream as ShellStream & { logcat?: boolean }).logcat = true;
    const upTo = () => {
      const now = this.elapsed();
      let i = sent;
      while (i < this.lines.length && this.lines[i]!.ts <= now) i++;
      return i;
    };
    let sent = 0;
    const first = upTo();
    sent = tail !== null && Number.isFinite(tail) ? Math.max(0, first - tail) : 0;
    const push = (to: number) => {
      if (to <= sent) return;
      const text =
        this.lines
          .slice(sent, to)
          .map((l) => l.text(fmt))
          .join("\n") + "\n";
      sent = to;
      void stream.write(text).catch(() => {});
    };
    void stream.write("--------- beginning of main\n").catch(() => {});
    push(first);
    if (dump) return stream.end();
    const timer = setInterval(() => {
      if (stream.closed) {
        clearInterval(timer);
        this.timers.delete(timer);
        return;
      }
      push(upTo());
    }, 25);
    this.timers.add(timer);
    stream.onClose(() => {
      clearInterval(timer);
      this.timers.delete(timer);
    });
  }

  /** monkey / am instrument: starts the scenario and returns when it has played out. */
  private drive(args: string[], stream: ShellStream) {
    const isMonkey = args[0] === "monkey";
    const count = Number(args[args.length - 1]) || 0;
    void stream
      .write(
        isMonkey
          ? `  bash arg: -p\n:Monkey: seed=${this.options.seed} count=${count}\n:AllowPackage: ${this.timeline.sim.pkg}\n:IncludeCategory: android.intent.category.LAUNCHER\n`
          : `INSTRUMENTATION_STATUS: class=${this.timeline.sim.pkg}.ScenarioTest\n`,
      )
      .catch(() => {});
    this.startScenario();
    const timer = setInterval(() => {
      if (stream.closed) {
        clearInterval(timer);
        return;
      }
      if (this.elapsed() >= this.timeline.duration) {
        clearInterval(timer);
        this.timers.delete(timer);
        const events = this.timeline.truth.counts.ui_events;
        void stream
          .write(
            isMonkey
              ? `Events injected: ${count || events}\n// Monkey finished\n`
              : `INSTRUMENTATION_STATUS_CODE: 0\n\nOK (1 test)\n`,
          )
          .catch(() => {})
          .finally(() => stream.end());
      }
    }, 20);
    this.timers.add(timer);
  }
}

/** The model keeps scenario-relative times; the agent prints CLOCK_MONOTONIC (System.nanoTime()). */
function shiftRecord(r: AgentRecord, by: bigint): AgentRecord {
  switch (r.type) {
    case "task":
      return { ...r, scheduled: r.scheduled + by };
    case "begin":
    case "end":
    case "input":
      return { ...r, ts: r.ts + by };
    case "op":
      return { ...r, start: r.start + by };
    default:
      return r;
  }
}

type Fmt = 3 | 6 | 9;
function fmtTime(ns: number, digits: Fmt): string {
  const sec = Math.floor(ns / 1e9);
  const frac = Math.floor(ns - sec * 1e9)
    .toString()
    .padStart(9, "0")
    .slice(0, digits);
  return `${String(sec).padStart(6)}.${frac}`;
}
