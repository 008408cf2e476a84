// `jankbook collect --counters`: hardware counters of the app over the run with `simpleperf stat`, as
// hpc_samples. One shell runs
//   log -t jankbook-counters '<run>'; echo jankbook-counters-pid $$; exec simpleperf stat --app <pkg> -e <events>
//     --interval <ms> --duration <s> -o <file>
// The log line marks the start in CLOCK_MONOTONIC (simpleperf prints only seconds since it began), read back
// from `logcat -v monotonic`; the pid lets `kill -INT` stop it (cmd_stat.cpp exits its loop on SIGINT and
// closes the file). --app works for debuggable or profileable apps on any device, any app on a rooted one;
// -p would need root on a user build. The output goes to a file because stdout through adb's raw shell is
// block-buffered; the file is read with `cat` after simpleperf has exited.
import type { Duplex } from "node:stream";
import type { Table } from "apache-arrow";
import { parseLogcat } from "../sources/logcat";
import { hpcSamples, hpcSamplesTable } from "../sources/simpleperf-samples";
import { parseSimpleperfStat } from "../sources/simpleperf-stat";
import type { DeviceShell } from "./shell";

/** Counted by most ARM PMUs at once (6 counters) plus software events: no multiplexing on common phones. */
export const DEFAULT_COUNTER_EVENTS = [
  "cpu-cycles",
  "instructions",
  "cache-references",
  "cache-misses",
  "branch-misses",
  "task-clock",
  "context-switches",
  "page-faults",
];
export const COUNTERS_TAG = "jankbook-counters";

export interface CountersOptions {
  package: string;
  runId: string;
  /** simpleperf --interval, ms (default 100: several samples per janky second, little overhead) */
  intervalMs?: number;
  events?: string[];
  /** an upper bound for simpleperf's own --duration, so it ends even if the collector dies */
  maxDurationMs: number;
}

export interface CountersResult {
  table: Table | null;
  /** [message, makes the bundle incomplete] */
  warnings: [string, boolean][];
  origin: string | null;
}

export class CountersSession {
  private output = "";
  private ended = false;
  private endWaiters: (() => void)[] = [];

  private constructor(
    private readonly shell: DeviceShell,
    private readonly stream: Duplex,
    readonly command: string,
    readonly file: string,
    private readonly runId: string,
  ) {
    stream.on("data", (c: Buffer) => (this.output += c.toString("utf8")));
    stream.on("error", () => {});
    stream.on("end", () => this.markEnded());
    stream.on("close", () => this.markEnded());
  }

  /** Starts simpleperf; null (and a warning) if even the shell could not be opened. */
  static async start(
    shell: DeviceShell,
    o: CountersOptions,
    warn: (w: string) => void,
  ): Promise<CountersSession | null> {
    const file = `/data/local/tmp/jankbook-${o.runId}.simpleperf.txt`;
    const events = (o.events ?? DEFAULT_COUNTER_EVENTS).join(",");
    const seconds = Math.ceil(o.maxDurationMs / 1000) + 10;
    const cmd =
      `log -t ${COUNTERS_TAG} '${o.runId}'; echo ${COUNTERS_TAG}-pid $$; exec simpleperf stat --app ${o.package} ` +
      `-e ${events} --interval ${o.intervalMs ?? 100} --duration ${seconds} -o ${file}`;
    try {
      return new CountersSession(shell, await shell.open(cmd), cmd, file, o.runId);
    } catch (e) {
      warn(`--counters: could not start simpleperf: ${(e as Error).message}; no hpc_samples`);
      return null;
    }
  }

  private markEnded() {
    if (this.ended) return;
    this.ended = true;
    for (const w of this.endWaiters.splice(0)) w();
  }

  private waitEnd(ms: number): Promise<boolean> {
    if (this.ended) return Promise.resolve(true);
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(this.ended), ms);
      this.endWaiters.push(() => {
        clearTimeout(t);
        resolve(true);
      });
    });
  }

  /** The device went away: let the stream go (simpleperf ends itself at its --duration). */
  abandon() {
    this.stream.destroy();
  }

  /** Stops simpleperf, reads its reports and the start marker, removes the file. */
  async stop(): Promise<CountersResult> {
    const warnings: [string, boolean][] = [];
    const result = (table: Table | null = null): CountersResult => ({
      table,
      warnings,
      origin: table ? `adb shell ${this.command}` : null,
    });
    const without = (why: string, incomplete = false): CountersResult => {
      warnings.push([`--counters: ${why}`, incomplete]);
      return result();
    };
    const pid = new RegExp(`${COUNTERS_TAG}-pid (\\d+)`).exec(this.output)?.[1];
    if (!this.ended && pid) await this.shell.run(`kill -INT ${pid}`).catch(() => {});
    if (!(await this.waitEnd(5000))) {
      warnings.push([
        `--counters: simpleperf did not stop within 5 s of kill -INT ${pid ?? "(no pid)"}; read what it wrote`,
        true,
      ]);
      this.stream.destroy();
    }
    const said = this.output.replace(new RegExp(`^${COUNTERS_TAG}-pid \\d+\\n`, "m"), "").trim();
    if (/simpleperf: (inaccessible or )?not found/.test(said))
      return without(
        "no simpleperf on this device's PATH (recent Android releases have it in /system/bin); no hpc_samples",
      );
    for (const line of said.split("\n").filter((l) => l.trim()))
      warnings.push([`--counters: ${line.trim()}`, false]);

    let text: string;
    try {
      text = await this.shell.run(`cat ${this.file}`, 30_000);
    } catch (e) {
      return without(`could not read ${this.file}: ${(e as Error).message}`, true);
    }
    await this.shell.run(`rm -f ${this.file}`).catch(() => {});
    if (/No such file or directory/.test(text) && !/Performance counter statistics/.test(text))
      return without(`simpleperf wrote no ${this.file}; no hpc_samples`);

    const stat = parseSimpleperfStat(text, "simpleperf output");
    for (const e of stat.errors) warnings.push([e, true]);
    for (const w of stat.warnings) warnings.push([w, false]);
    const origin = await this.startMarker(warnings);
    const samples = hpcSamples(stat, { values: "cumulative", originNs: origin ?? 0n });
    for (const w of samples.warnings) warnings.push([`simpleperf output: ${w}`, false]);
    if (!samples.ts.length)
      return without(`${stat.reports.length} simpleperf reports, no counted samples; no hpc_samples`);
    return result(hpcSamplesTable(this.runId, samples));
  }

  /** CLOCK_MONOTONIC of the `log` line written just before simpleperf started, ns. */
  private async startMarker(warnings: [string, boolean][]): Promise<bigint | null> {
    try {
      const log = parseLogcat(
        await this.shell.run(`logcat -d -v monotonic -v nsec -s ${COUNTERS_TAG}`, 15_000),
        "logcat",
      );
      const mine = log.lines.filter(
        (l) => l.tag === COUNTERS_TAG && l.message.trim() === this.runId && l.mono_ns !== null,
      );
      if (mine.length) return mine[mine.length - 1]!.mono_ns;
      warnings.push([
        `--counters: no ${COUNTERS_TAG} line for ${this.runId} in logcat; hpc_samples.ts is ns since simpleperf began, not CLOCK_MONOTONIC`,
        true,
      ]);
    } catch (e) {
      warnings.push([
        `--counters: logcat -d failed (${(e as Error).message}); hpc_samples.ts is ns since simpleperf began`,
        true,
      ]);
    }
    return null;
  }
}
