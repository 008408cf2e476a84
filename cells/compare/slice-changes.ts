// Time compared by name: Perfetto/atrace slices, method-trace calls (AndroScope) and scheduler thread states.
// Per name: the mean duration of one slice or call, and time per second of the run (zero where a side lacks the
// name); per method also the time off the CPU per call (wall minus thread-CPU time, AndroScope §V-3's sign of a
// thread switched out) and the share of calls left without their own exit (a longjmp or an unwind, §V-2).
// Names holding under `minShare` of a side's time are left out: they cannot move the picture, and every row
// tested costs the others power under Benjamini–Hochberg.
import type { Table } from "apache-arrow";
import { bigint64, bool, int64, optional, readColumns, stringCodes, utf8 } from "../../bundle/read-columns";
import type { MetricBuilder, MetricSpec } from "./metric-builder";

export interface SliceChangesOptions {
  /** smallest share of a side's total time a name must hold on either side; default 0.005 */
  minShare?: number;
}

/** Names whose time is at least minShare of their side's total on either side. */
function kept(
  codes: Int32Array,
  runs: string[],
  runCode: Int32Array,
  dur: Float64Array,
  builder: MetricBuilder,
  n: number,
  minShare: number,
): Set<number> {
  const per: [Float64Array, Float64Array] = [new Float64Array(n), new Float64Array(n)];
  const total = [0, 0];
  for (let i = 0; i < codes.length; i++) {
    const at = builder.locate(runs[runCode[i]!]!);
    if (!at || !Number.isFinite(dur[i]!)) continue;
    per[at[0]][codes[i]!]! += dur[i]!;
    total[at[0]]! += dur[i]!;
  }
  const out = new Set<number>();
  for (let k = 0; k < n; k++)
    if (per[0][k]! >= minShare * total[0]! || per[1][k]! >= minShare * total[1]!)
      if (per[0][k]! + per[1][k]! > 0) out.add(k);
  return out;
}

const spec = (
  analysis: string,
  subject: string,
  key: string,
  measure: string,
  unit: string,
  scale: "ratio" | "difference" = "ratio",
): MetricSpec => ({
  analysis,
  subject,
  key: `${analysis}:${subject}:${key}`,
  measure,
  unit,
  scale,
  statistic: { kind: "mean" },
  better: "lower",
});

export function sliceChanges(
  slices: Table | undefined,
  builder: MetricBuilder,
  options: SliceChangesOptions = {},
): void {
  if (!slices || slices.numRows === 0) return;
  const c = readColumns(slices, "slices", {
    run_id: utf8(),
    ts: int64(),
    dur: optional(int64()),
    name: utf8(),
  });
  const runs: string[] = [];
  const run = stringCodes(c.run_id, runs);
  const names: string[] = [];
  const name = stringCodes(c.name, names);
  const dur = c.dur ?? new Float64Array(slices.numRows).fill(NaN);
  const keep = kept(name, runs, run, dur, builder, names.length, options.minShare ?? 0.005);
  const specs = new Map<number, MetricSpec[]>();
  for (let i = 0; i < name.length; i++) {
    if (!keep.has(name[i]!) || !Number.isFinite(dur[i]!)) continue;
    let s = specs.get(name[i]!);
    if (!s) {
      const n = names[name[i]!]!;
      specs.set(
        name[i]!,
        (s = [
          spec("slices", n, "dur", "duration (mean)", "ms"),
          spec("slices", n, "time", "time per second", "ms/s"),
        ]),
      );
    }
    builder.add(s[0]!, runs[run[i]!]!, c.ts[i]!, dur[i]! / 1e6);
    builder.addAmount(s[1]!, runs[run[i]!]!, c.ts[i]!, dur[i]! / 1e6);
  }
}

/** Method-trace calls by method (class.method): AndroScope's per-method times, compared. */
export function methodChanges(
  calls: Table | undefined,
  methods: Table | undefined,
  builder: MetricBuilder,
  options: SliceChangesOptions = {},
): void {
  if (!calls || !methods || calls.numRows === 0) return;
  const m = readColumns(methods, "methods", {
    run_id: utf8(),
    method_id: bigint64(),
    class_name: utf8(),
    method_name: utf8(),
  });
  const mRuns: string[] = [];
  const mRun = stringCodes(m.run_id, mRuns);
  const nameOf = new Map<string, string>();
  for (let i = 0; i < methods.numRows; i++)
    nameOf.set(
      `${mRuns[mRun[i]!]}\u0000${m.method_id[i]}`,
      `${String(m.class_name.get(i))}.${String(m.method_name.get(i))}`,
    );
  const c = readColumns(calls, "calls", {
    run_id: utf8(),
    method_id: bigint64(),
    enter: int64(),
    inclusive: int64(),
    exclusive: int64(),
    cpu_inclusive: optional(int64()),
    synthetic_exit: bool(),
  });
  const runs: string[] = [];
  const run = stringCodes(c.run_id, runs);
  const names: string[] = [];
  const known = new Map<string, number>();
  const code = Int32Array.from({ length: calls.numRows }, (_, i) => {
    const n = nameOf.get(`${runs[run[i]!]}\u0000${c.method_id[i]}`) ?? `method ${c.method_id[i]}`;
    let k = known.get(n);
    if (k === undefined) known.set(n, (k = names.push(n) - 1));
    return k;
  });
  const keep = kept(code, runs, run, c.exclusive, builder, names.length, options.minShare ?? 0.005);
  const specs = new Map<number, MetricSpec[]>();
  for (let i = 0; i < code.length; i++) {
    if (!keep.has(code[i]!)) continue;
    let s = specs.get(code[i]!);
    if (!s) {
      const n = names[code[i]!]!;
      specs.set(
        code[i]!,
        (s = [
          spec("methods", n, "inclusive", "inclusive time per call (mean)", "ms"),
          spec("methods", n, "self", "self time per second", "ms/s"),
          spec("methods", n, "off-cpu", "off-CPU time per call (mean)", "ms"),
          spec("methods", n, "no-exit", "calls left without their exit", "share", "difference"),
        ]),
      );
    }
    const r = runs[run[i]!]!;
    const ts = c.enter[i]!;
    builder.add(s[0]!, r, ts, c.inclusive[i]! / 1e6);
    builder.addAmount(s[1]!, r, ts, c.exclusive[i]! / 1e6);
    const cpu = c.cpu_inclusive?.[i] ?? NaN;
    if (Number.isFinite(cpu)) builder.add(s[2]!, r, ts, Math.max(0, c.inclusive[i]! - cpu) / 1e6);
    builder.add(s[3]!, r, ts, c.synthetic_exit[i]!);
  }
}

/** Scheduler states per thread name: time per second in each state. */
export function threadStateChanges(states: Table | undefined, builder: MetricBuilder): void {
  if (!states || states.numRows === 0) return;
  const c = readColumns(states, "thread_states", {
    run_id: utf8(),
    ts: int64(),
    dur: optional(int64()),
    thread_name: optional(utf8()),
    state: utf8(),
  });
  const runs: string[] = [];
  const run = stringCodes(c.run_id, runs);
  const specs = new Map<string, MetricSpec>();
  for (let i = 0; i < states.numRows; i++) {
    const d = c.dur?.[i] ?? NaN;
    if (!Number.isFinite(d)) continue;
    const subject = `${c.thread_name?.get(i) ?? "?"} ${String(c.state.get(i))}`;
    let s = specs.get(subject);
    if (!s) specs.set(subject, (s = spec("thread-states", subject, "time", "time per second", "ms/s")));
    builder.addAmount(s, runs[run[i]!]!, c.ts[i]!, d / 1e6);
  }
}
