// The profile of a method trace (AndroScope §VI, the method and class views): per method or per class,
// calls, inclusive and exclusive times in wall and thread-CPU clocks, counter sums and IPC where hardware
// counters were recorded (§VI-3). Inclusive time counts outermost calls only, so a recursive method's time
// is not counted twice (as traceview and dmtracedump do). A time window restricts it to the timeline's selection.
import { chartSpec, type ChartSpec } from "../common/chart-spec";
import type { Table } from "apache-arrow";
import { readCallColumns, type CallColumns } from "./call-columns";
import { shortMethodName } from "./trace-names";
import type { CallCounters } from "./counter-attribution";
import { timeWindow } from "../common/time-window";

export interface ProfileMethod {
  id: number;
  className: string;
  methodName: string;
  signature: string;
}

export interface MethodProfileOptions {
  /** "method" (default) or "class": the paper's two views */
  by?: "method" | "class";
  /** keep only this thread's calls; default all threads */
  threadId?: number;
  /**
   * [t0, t1] ns: only the calls that overlap this window (the timeline's selection), their times cut to it.
   * Thread-CPU times of a partly shown call are scaled by the shown share of its wall time.
   */
  window?: readonly [number, number] | null;
  /** counter values per call (attributeCounters, with the same window) for counter sums and IPC (§VI-3) */
  counters?: CallCounters;
  /** the counters IPC is instructions / cycles of; default simpleperf's names */
  ipcCounters?: { instructions: string; cycles: string };
}

export interface ProfileRow {
  /** "Class.method signature" in the method view, the class name in the class view */
  name: string;
  /** method id (method view); null in the class view */
  methodId: number | null;
  calls: number;
  /** calls made while the same method was already on the stack */
  recursiveCalls: number;
  /** ns; outermost calls only */
  inclusive: number;
  exclusive: number;
  cpuInclusive: number | null;
  cpuExclusive: number | null;
  /** counter sums over outermost calls (inclusive), when counters were given */
  counters: Record<string, number> | null;
  /** counter sums of the calls' own time */
  exclusiveCounters: Record<string, number> | null;
  /** instructions per cycle over the inclusive counters; null without both counters or with no cycles */
  ipc: number | null;
}

/** Rows sorted by inclusive time, largest first. */
export function methodProfile(
  calls: Table,
  methods: readonly ProfileMethod[],
  options: MethodProfileOptions = {},
): ProfileRow[] {
  const by = options.by ?? "method";
  if (by !== "method" && by !== "class")
    throw new Error(`invalid by: ${String(by)} (expected method or class)`);
  const c = readCallColumns(calls);
  const n = c.n;
  const window = timeWindow(options.window);
  const counters = options.counters;
  if (counters) {
    if (counters.calls !== n)
      throw new Error(
        `methodProfile: counters were attributed to ${counters.calls} calls, this table has ${n}`,
      );
    const same =
      (counters.window === null && window === null) ||
      (!!counters.window && !!window && counters.window[0] === window[0] && counters.window[1] === window[1]);
    if (!same)
      throw new Error(
        "methodProfile: counters were attributed over a different window than the profile's (pass the same window to attributeCounters)",
      );
  }
  const times = window
    ? clippedTimes(c, window)
    : {
        shown: null,
        inclusive: c.inclusive,
        exclusive: c.exclusive,
        cpuInclusive: c.cpuInclusive,
        cpuExclusive: c.cpuExclusive,
      };
  const hasCpu = !!times.cpuInclusive;
  const counterNames = counters ? Object.keys(counters.inclusive) : [];
  const ipcNames = options.ipcCounters ?? { instructions: "instructions", cycles: "cpu-cycles" };
  const info = new Map(methods.map((m) => [m.id, m]));
  const keyOf = (id: number) => {
    const m = info.get(id);
    if (by === "class") return m ? m.className : "(unknown)";
    return m ? `${m.className}.${m.methodName} ${m.signature}` : "(unknown)";
  };
  // A call is outermost for its key when no ancestor has the same key.
  const rows = new Map<string, ProfileRow>();
  const keys: string[] = new Array(n);
  for (let i = 0; i < n; i++) keys[i] = keyOf(c.methodId[i]!);
  for (let i = 0; i < n; i++) {
    if (options.threadId !== undefined && c.threadId[i] !== options.threadId) continue;
    if (times.shown && !times.shown[i]) continue;
    const key = keys[i]!;
    const id = c.methodId[i]!;
    let row = rows.get(key);
    if (!row) {
      row = {
        name: key,
        methodId: by === "method" && info.has(id) ? id : null,
        calls: 0,
        recursiveCalls: 0,
        inclusive: 0,
        exclusive: 0,
        cpuInclusive: hasCpu ? 0 : null,
        cpuExclusive: hasCpu ? 0 : null,
        counters: counters ? Object.fromEntries(counterNames.map((k) => [k, 0])) : null,
        exclusiveCounters: counters ? Object.fromEntries(counterNames.map((k) => [k, 0])) : null,
        ipc: null,
      };
      rows.set(key, row);
    }
    let recursive = false;
    for (let p = c.parent[i]!; p >= 0 && !recursive; p = c.parent[p]!) recursive = keys[p] === key;
    row.calls++;
    row.exclusive += times.exclusive[i]!;
    if (times.cpuExclusive) row.cpuExclusive! += times.cpuExclusive[i]!;
    for (const k of counterNames) row.exclusiveCounters![k]! += counters!.exclusive[k]![i]!;
    if (recursive) row.recursiveCalls++;
    else {
      row.inclusive += times.inclusive[i]!;
      if (times.cpuInclusive) row.cpuInclusive! += times.cpuInclusive[i]!;
      for (const k of counterNames) row.counters![k]! += counters!.inclusive[k]![i]!;
    }
  }
  for (const row of rows.values()) {
    const ins = row.counters?.[ipcNames.instructions];
    const cyc = row.counters?.[ipcNames.cycles];
    row.ipc = ins !== undefined && cyc !== undefined && cyc > 0 ? ins / cyc : null;
  }
  return [...rows.values()].sort((a, b) => b.inclusive - a.inclusive || a.name.localeCompare(b.name));
}

/** Times cut to the window: a call's shown span, minus its callees' shown spans for the exclusive time. */
function clippedTimes(c: CallColumns, [t0, t1]: readonly [number, number]) {
  const shown = new Uint8Array(c.n);
  const inclusive = new Float64Array(c.n);
  const exclusive = new Float64Array(c.n);
  const cpuInclusive = c.cpuInclusive ? new Float64Array(c.n) : null;
  const cpuExclusive = c.cpuExclusive ? new Float64Array(c.n) : null;
  for (let i = 0; i < c.n; i++) {
    const enter = c.enter[i]!;
    const exit = c.exit[i]!;
    // Overlapping the window by some time, or an instant call inside it.
    shown[i] = enter < t1 && (exit > t0 || (exit === enter && enter >= t0)) ? 1 : 0;
    if (shown[i]) inclusive[i] = Math.max(0, Math.min(exit, t1) - Math.max(enter, t0));
  }
  for (let i = 0; i < c.n; i++) exclusive[i] = inclusive[i]!;
  for (let i = 0; i < c.n; i++)
    if (c.parent[i]! >= 0) exclusive[c.parent[i]!] = exclusive[c.parent[i]!]! - inclusive[i]!;
  for (let i = 0; i < c.n; i++) {
    const f = c.inclusive[i]! > 0 ? inclusive[i]! / c.inclusive[i]! : shown[i]!;
    if (cpuInclusive) cpuInclusive[i] = c.cpuInclusive![i]! * f;
    if (cpuExclusive) cpuExclusive[i] = c.cpuExclusive![i]! * f;
  }
  return { shown, inclusive, exclusive, cpuInclusive, cpuExclusive };
}

/** The top methods (or classes) as bars of inclusive and exclusive time, ms. */
export function methodProfilePlot(rows: readonly ProfileRow[], options: { top?: number } = {}): ChartSpec {
  const picked = rows.slice(0, options.top ?? 20);
  // Short labels (class without package, simple parameter types) unless two methods would then share one.
  const short = picked.map((r) => shortMethodName(r.name));
  const names = new Set(short).size === short.length ? short : picked.map((r) => r.name);
  const top = picked.map((r, i) => {
    const [inclusive, exclusive] = [r.inclusive / 1e6, r.exclusive / 1e6];
    const tips = {
      inclusiveTip: `${r.name}\ninclusive ${inclusive.toFixed(3)} ms`,
      exclusiveTip: `${r.name}\nexclusive ${exclusive.toFixed(3)} ms`,
    };
    // which bar is which, for the colour legend
    const kinds = { inclusiveKind: "inclusive", exclusiveKind: "exclusive" };
    return { name: names[i]!, inclusive, exclusive, ...tips, ...kinds };
  });
  return chartSpec("methodProfilePlot", {
    mark: "barX",
    data: top,
    x: "inclusive",
    y: "name",
    options: { fill: "inclusiveKind", title: "inclusiveTip" },
    layout: {
      x: { label: "time (ms)", grid: true },
      y: { label: null, domain: top.map((r) => r.name) },
      color: { domain: ["inclusive", "exclusive"], range: ["#9ecae1", "#3182bd"], legend: true },
    },
    over: [
      {
        mark: "barX",
        data: top,
        options: { x: "exclusive", y: "name", fill: "exclusiveKind", title: "exclusiveTip" },
      },
      { mark: "ruleX", data: [0] },
    ],
  });
}
