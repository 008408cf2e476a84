// The simulated phone's `simpleperf stat` (and the few shell commands a counters session needs: log, echo,
// exec, kill, cat, rm). Counts come from the app model: task-clock is the time the app's threads run in
// each interval (frames on the UI and render threads, tasks on their executors), the hardware counters
// follow it at the device's clock rate with seeded noise. Every sample printed is kept as ground truth.
import type { ShellStream } from "./adb-transport";
import type { DeviceProfile } from "./device-profiles";
import { mulberry32, type Rand } from "./random";
import type { Timeline } from "./scenarios";
import { formatStatReport, type StatWriteRow } from "../sources/simpleperf-stat-writer";

export interface SimpleperfHost {
  readonly base: number;
  readonly timeline: Timeline;
  readonly options: { profile: DeviceProfile; seed: number; simpleperf?: boolean };
  /** device ns since the scenario started */
  elapsed(): number;
  /** `log -t tag message` at device time ts (ns since the scenario start) */
  appendLog(tag: string, message: string, ts: number): void;
}

/** One sample as printed, per interval (what hpc_samples should hold). */
export interface SimCounterSample {
  ts: bigint;
  cpu: number | null;
  counter: string;
  value: number;
}

const words = (list: string) => list.trim().split(/\s+/);

/** simpleperf's event names, as `simpleperf list` prints them */
const KNOWN = words(`
  cpu-cycles instructions cache-references cache-misses branch-instructions branch-misses task-clock cpu-clock
  context-switches page-faults stalled-cycles-frontend stalled-cycles-backend
`);
const NOT_ON_THIS_PMU = new Set(["stalled-cycles-frontend", "stalled-cycles-backend"]);
const DEFAULT_EVENTS = words("cpu-cycles instructions branch-misses task-clock context-switches page-faults");
const NOT_FOUND = (what: string) => `/system/bin/sh: ${what}: inaccessible or not found\n`;

interface Run {
  pid: number;
  start: number;
  intervalNs: number | null;
  durationNs: number | null;
  onlyValues: boolean;
  csv: boolean;
  perCore: boolean;
  events: string[];
  out: string | null;
  stream: ShellStream;
  printed: number;
  lastEnd: number;
  totals: Map<string, bigint>;
  rand: Rand;
  timer: NodeJS.Timeout | null;
}

export class SimulatedSimpleperf {
  /** what the device's files hold (-o outputs) */
  readonly files = new Map<string, string>();
  /** every sample printed, in order */
  readonly samples: SimCounterSample[] = [];
  private runs = new Map<number, Run>();
  private nextPid = 23_000;

  constructor(private readonly host: SimpleperfHost) {}

  /** Commands this module answers. */
  accepts(cmd: string): boolean {
    return /(^|;|\s)simpleperf\s/.test(cmd) || /^\s*(log|kill|cat|rm)\s/.test(cmd);
  }

  shell(cmd: string, stream: ShellStream): void {
    const pid = this.nextPid++;
    let out = "";
    const finish = () =>
      void stream
        .write(out)
        .catch(() => {})
        .finally(() => stream.end());
    for (const part of cmd
      .split(";")
      .map((p) => p.trim())
      .filter(Boolean)) {
      const args = (part.match(/'[^']*'|"[^"]*"|\S+/g) ?? []).map((a) => a.replace(/^(['"])(.*)\1$/, "$2"));
      if (args[0] === "exec") args.shift();
      const [name] = args;
      if (name === "log") {
        const t = args.indexOf("-t");
        this.host.appendLog(
          t >= 0 ? args[t + 1]! : "log",
          args.slice(t >= 0 ? t + 2 : 1).join(" "),
          Math.round(this.host.elapsed()),
        );
      } else if (name === "echo") out += args.slice(1).join(" ").replaceAll("$$", String(pid)) + "\n";
      else if (name === "kill") out += this.kill(args);
      else if (name === "cat")
        out += this.files.get(args[1]!) ?? `cat: ${args[1]}: No such file or directory\n`;
      else if (name === "rm") args.slice(1).forEach((f) => this.files.delete(f));
      else if (name === "simpleperf") {
        if (!(this.host.options.simpleperf ?? this.host.options.profile.api_level >= 26))
          out += NOT_FOUND("simpleperf");
        else {
          const error = this.start(pid, args.slice(1), stream);
          if (error === null) return void (out && stream.write(out).catch(() => {})); // runs on; the stream ends with it
          out += error;
        }
        break;
      } else out += NOT_FOUND(name ?? "");
    }
    finish();
  }

  private kill(args: string[]): string {
    const pid = Number(args[args.length - 1]);
    const run = this.runs.get(pid);
    if (!run) return `/system/bin/sh: kill: ${pid}: No such process\n`;
    this.stop(run); // SIGINT/SIGTERM: cmd_stat.cpp leaves its loop and exits normally
    return "";
  }

  /** Parses `simpleperf stat ...`; returns an error text (the command failed) or null (it runs). */
  private start(pid: number, args: string[], stream: ShellStream): string | null {
    const sim = this.host.timeline.sim;
    const E = (where: string, msg: string) => `simpleperf E ${where}] ${msg}\n`;
    if (args[0] !== "stat") return E("main.cpp:94", `malformed command line: unknown command ${args[0]}`);
    const events: string[] = [];
    let app: string | null = null;
    let target: string | null = null;
    let intervalNs: number | null = null;
    let durationNs: number | null = null;
    let out: string | null = null;
    const flags = new Set<string>();
    for (let i = 1; i < args.length; i++) {
      const a = args[i]!;
      const value = () => args[++i] ?? "";
      if (a === "-e") events.push(...value().split(","));
      else if (a === "--app") app = value();
      else if (a === "-p") target = value();
      else if (a === "--interval") intervalNs = Number(value()) * 1e6;
      else if (a === "--duration") durationNs = Number(value()) * 1e9;
      else if (a === "-o") out = value();
      else if (["--interval-only-values", "--csv", "--per-core", "--no-inherit"].includes(a)) flags.add(a);
      else return E("command.cpp:120", `Unknown option ${a}. Try \`simpleperf help stat\`.`);
    }
    if (app !== null && app !== sim.pkg)
      return E("environment.cpp:831", `Package ${app} doesn't exist or isn't debuggable/profileable.`);
    if (target !== null && target !== String(sim.pid)) return E("utils.cpp:446", `Invalid pid: ${target}`);
    if (app === null && target === null)
      return E("cmd_stat.cpp:548", "No threads to monitor. Try `simpleperf help stat` for help");
    for (const e of events) {
      const base = e.split(":")[0]!;
      if (!KNOWN.includes(base))
        return E(
          "event_type.cpp:503",
          `Unknown event_type '${e}', try \`simpleperf list\` to list all possible event type names`,
        );
      if (NOT_ON_THIS_PMU.has(base))
        return E("event_selection_set.cpp:257", `Event type '${e}' is not supported on the device`);
    }
    const run: Run = {
      pid,
      start: Math.round(this.host.elapsed()),
      intervalNs,
      durationNs,
      onlyValues: flags.has("--interval-only-values"),
      csv: flags.has("--csv"),
      perCore: flags.has("--per-core"),
      events: events.length ? events : DEFAULT_EVENTS,
      out,
      stream,
      printed: 0,
      lastEnd: 0,
      totals: new Map(),
      rand: mulberry32(this.host.options.seed ^ 0x51e9 ^ pid),
      timer: null,
    };
    if (out) this.files.set(out, "");
    this.runs.set(pid, run);
    run.timer = setInterval(() => this.tick(run), 10);
    stream.onClose(() => this.stop(run)); // adbd hangs up: SIGHUP, same clean exit
    return null;
  }

  /** Prints every report whose time has come; ends the run at --duration. */
  private tick(run: Run) {
    const now = Math.round(this.host.elapsed()) - run.start;
    if (run.intervalNs !== null) {
      for (;;) {
        // libevent's periodic timer fires a little late: 50-400 µs, not accumulating
        const due = Math.round(((run.printed + 1) * run.intervalNs) / 1000) * 1000;
        if (due > now || (run.durationNs !== null && due > run.durationNs)) break;
        this.report(run, due + 1000 * (50 + Math.floor(run.rand() * 350)));
      }
    }
    if (run.durationNs !== null && now >= run.durationNs) this.stop(run, run.durationNs);
  }

  private stop(run: Run, at?: number) {
    if (!this.runs.delete(run.pid)) return;
    if (run.timer) clearInterval(run.timer);
    // Without --interval the one report is printed when counting stops (cmd_stat.cpp step 6).
    if (run.intervalNs === null)
      this.report(run, Math.round((at ?? Math.round(this.host.elapsed()) - run.start) / 1000) * 1000);
    run.stream.end(); // after any report still being written
  }

  /** One report covering (lastEnd, elapsed] of the run, ns since its start. */
  private report(run: Run, elapsed: number) {
    const counts = countsBetween(this.host, run.start + run.lastEnd, run.start + elapsed, run.rand);
    const cpus = run.perCore ? SHARE.map((_, i) => i) : [null];
    const rows: StatWriteRow[] = [];
    let runtime = 0n;
    for (const e of run.events) {
      const [base, mod] = e.split(":") as [string, string?];
      for (const cpu of cpus) {
        const share = (cpu === null ? 1 : SHARE[cpu]!) * (mod === "u" ? 0.8 : mod === "k" ? 0.2 : 1);
        const v = BigInt(Math.round((counts.get(base) ?? 0) * share));
        const key = `${e}|${cpu}`;
        const total = (run.totals.get(key) ?? 0n) + v;
        run.totals.set(key, total);
        rows.push({ counter: e, count: run.onlyValues ? v : total, cpu });
        this.samples.push({
          ts: BigInt(this.host.base + run.start + elapsed),
          cpu,
          counter: e,
          value: Number(v),
        });
        if (base === "task-clock") runtime = run.onlyValues ? v : total;
      }
    }
    for (const r of rows) r.runtimeNs = runtime > 0n ? runtime : BigInt(elapsed);
    const text = formatStatReport({ elapsedNs: BigInt(elapsed), rows }, run.csv ? "csv" : "current");
    if (run.out !== null) this.files.set(run.out, (this.files.get(run.out) ?? "") + text);
    else void run.stream.write(text).catch(() => {});
    run.printed++;
    run.lastEnd = elapsed;
  }
}

// --per-core: how the app's work spreads over a 4+4 big.LITTLE phone (UI and RenderThread on big cores)
const SHARE = [0.05, 0.05, 0.05, 0.05, 0.2, 0.2, 0.25, 0.15];

/** What the app's threads did between a and b (scenario ns): counts per event. */
function countsBetween(host: SimpleperfHost, a: number, b: number, rand: Rand): Map<string, number> {
  const sim = host.timeline.sim;
  const overlap = (s: number, e: number) => Math.max(0, Math.min(e, b) - Math.max(s, a));
  let busy = 0;
  let switches = 0;
  for (const f of sim.frames) {
    if (f.intended > b) break;
    busy += overlap(f.handle_input, f.sync_queued) + overlap(f.sync_start, f.completed);
    if (f.handle_input > a && f.handle_input <= b) switches += 3;
  }
  for (const t of sim.tasks) {
    busy += overlap(t.started, t.ended);
    if (t.started > a && t.started <= b) switches += 2;
  }
  const span = Math.max(0, b - a);
  const taskClock = Math.round((busy + span * 0.02) * (0.95 + 0.1 * rand())); // binder, GC, the rest
  const ghz = 1.1 + 0.6 * host.options.profile.speed + 0.15 * (rand() - 0.5);
  const cycles = taskClock * ghz;
  const instructions = cycles * (0.8 + 0.6 * rand());
  const refs = instructions * 0.04;
  const branches = instructions * 0.18;
  return new Map([
    ["task-clock", taskClock],
    ["cpu-clock", taskClock],
    ["cpu-cycles", cycles],
    ["instructions", instructions],
    ["cache-references", refs],
    ["cache-misses", refs * (0.02 + 0.06 * rand())],
    ["branch-instructions", branches],
    ["branch-misses", branches * (0.01 + 0.03 * rand())],
    ["context-switches", switches + Math.floor(rand() * 3)],
    ["page-faults", Math.floor(rand() * 12 * (span / 1e8))],
  ]);
}
