// The simulated phone's simpleperf without adb: its output in every mode the collector or a user may ask
// for, read back by the parser, must give exactly the per-interval samples it says it printed.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PROFILES } from "../../../collectors/simulator/device-profiles";
import { buildScenario } from "../../../collectors/simulator/scenarios";
import { SimulatedSimpleperf, type SimpleperfHost } from "../../../collectors/simulator/simpleperf";
import type { ShellStream } from "../../../collectors/simulator/adb-transport";
import { hpcSamples } from "../../../collectors/sources/simpleperf-samples";
import { parseSimpleperfStat } from "../../../collectors/sources/simpleperf-stat";

const profile = PROFILES["pixel-4a"]!;
const timeline = buildScenario("fbreader", profile, 3, true);
let now = 0;
const logged: [string, string, number][] = [];
const host: SimpleperfHost = {
  base: 1_000_000_000_000,
  timeline,
  options: { profile, seed: 3 },
  elapsed: () => now,
  appendLog: (tag, message, ts) => void logged.push([tag, message, ts]),
};

function stream() {
  const s = { text: "", closed: false, closers: [] as (() => void)[] };
  const api: ShellStream = {
    write: async (d) => void (s.text += String(d)),
    end: () => void (s.closed = true),
    get closed() {
      return s.closed;
    },
    onClose: (cb) => void s.closers.push(cb),
  };
  return { s, api };
}

function run(sp: SimulatedSimpleperf, cmd: string) {
  const { s, api } = stream();
  sp.shell(cmd, api);
  return s;
}

/** Advance device time in 10 ms steps (the simulator's tick) to `to` ns. */
function advance(to: number) {
  while (now < to) {
    now = Math.min(to, now + 10_000_000);
    vi.advanceTimersByTime(10);
  }
}

beforeEach(() => {
  vi.useFakeTimers();
  now = 0;
  logged.length = 0;
});
afterEach(() => vi.useRealTimers());

describe("simulated simpleperf stat", () => {
  it.each([
    ["text, running totals", "", "cumulative"],
    ["--csv --per-core", "--csv --per-core", "cumulative"],
    ["--interval-only-values", "--interval-only-values", "interval"],
  ] as const)("%s: parsed output == the samples it printed", (_, flags, values) => {
    const sp = new SimulatedSimpleperf(host);
    const sh = run(
      sp,
      `log -t mark 'go now'; echo pid $$; exec simpleperf stat --app ${timeline.sim.pkg} -e cpu-cycles,instructions:u,task-clock,cache-misses --interval 250 ${flags} -o /data/local/tmp/x.txt`,
    );
    expect(logged).toEqual([["mark", "go now", 0]]);
    expect(sh.text).toMatch(/^pid \d+\n$/);
    advance(2_100_000_000);
    expect(sh.closed).toBe(false);
    const kill = run(sp, `kill -INT ${/pid (\d+)/.exec(sh.text)![1]}`);
    expect([kill.text, sh.closed]).toEqual(["", true]);
    const text = run(sp, "cat /data/local/tmp/x.txt").text;
    const stat = parseSimpleperfStat(text);
    expect(stat.errors).toEqual([]);
    expect(stat.reports).toHaveLength(8); // 250 ms steps up to 2.1 s
    expect(stat.perCore).toBe(flags.includes("per-core"));
    const s = hpcSamples(stat, { values, originNs: BigInt(host.base) });
    expect(s.ts.map((t, i) => ({ ts: t, cpu: s.cpu[i], counter: s.counter[i], value: s.value[i] }))).toEqual(
      sp.samples,
    );
    expect(new Set(sp.samples.map((x) => x.counter))).toEqual(
      new Set(["cpu-cycles", "instructions:u", "task-clock", "cache-misses"]),
    );
    run(sp, "rm -f /data/local/tmp/x.txt");
    expect(run(sp, "cat /data/local/tmp/x.txt").text).toBe(
      "cat: /data/local/tmp/x.txt: No such file or directory\n",
    );
  });

  it("without --interval: one report when --duration ends, on stdout", () => {
    const sp = new SimulatedSimpleperf(host);
    const sh = run(sp, `simpleperf stat -p ${timeline.sim.pid} --duration 1.5`);
    advance(1_600_000_000);
    expect(sh.closed).toBe(true);
    const stat = parseSimpleperfStat(sh.text);
    expect(stat.reports.map((r) => r.elapsedNs)).toEqual([1_500_000_000n]);
    expect(stat.reports[0]!.rows.map((r) => r.counter)).toEqual(
      "cpu-cycles instructions branch-misses task-clock context-switches page-faults".split(" "),
    );
    expect(hpcSamples(stat).value).toEqual(sp.samples.map((x) => x.value));
  });

  it("refuses what real simpleperf refuses, with its messages", () => {
    const sp = new SimulatedSimpleperf(host);
    expect(run(sp, "simpleperf stat --app com.other -e cpu-cycles").text).toBe(
      "simpleperf E environment.cpp:831] Package com.other doesn't exist or isn't debuggable/profileable.\n",
    );
    expect(run(sp, `simpleperf stat --app ${timeline.sim.pkg} -e raw-foo`).text).toMatch(
      /Unknown event_type 'raw-foo'/,
    );
    const none = new SimulatedSimpleperf({
      ...host,
      options: { ...host.options, profile: PROFILES["nexus-5x"]! },
    });
    expect(run(none, `echo x; exec simpleperf stat --app ${timeline.sim.pkg}`).text).toBe(
      "x\n/system/bin/sh: simpleperf: inaccessible or not found\n",
    );
  });
});
