// The profile of a method trace (AndroScope §VI, the method and class views): per method or per class,
// calls, inclusive and exclusive times in wall and thread-CPU clocks. Inclusive time counts outermost
// calls only, so a recursive method's time is not counted twice (as traceview and dmtracedump do).
import * as Plot from "@observablehq/plot";
import type { Table } from "apache-arrow";
import { requireColumns } from "../common/require-columns";

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
}

/** Rows sorted by inclusive time, largest first. */
export function methodProfile(calls: Table, methods: readonly ProfileMethod[], options: MethodProfileOptions = {}): ProfileRow[] {
  const by = options.by ?? "method";
  if (by !== "method" && by !== "class") throw new Error(`invalid by: ${String(by)} (expected method or class)`);
  requireColumns(calls, { thread_id: "int32", method_id: "int64", parent: "int32", inclusive: "int64", exclusive: "int64" }, "calls");
  const n = calls.numRows;
  const tid = calls.getChild("thread_id")!.toArray() as Int32Array;
  const mid = calls.getChild("method_id")!.toArray() as BigInt64Array;
  const parent = calls.getChild("parent")!;
  const inc = calls.getChild("inclusive")!.toArray() as BigInt64Array;
  const exc = calls.getChild("exclusive")!.toArray() as BigInt64Array;
  const cpuIncCol = calls.getChild("cpu_inclusive");
  const hasCpu = !!cpuIncCol && cpuIncCol.nullCount < n;
  const cpuInc = hasCpu ? (cpuIncCol!.toArray() as BigInt64Array) : null;
  const cpuExc = hasCpu ? (calls.getChild("cpu_exclusive")!.toArray() as BigInt64Array) : null;
  const info = new Map(methods.map((m) => [m.id, m]));
  const keyOf = (id: number) => {
    const m = info.get(id);
    if (by === "class") return m ? m.className : "(unknown)";
    return m ? `${m.className}.${m.methodName} ${m.signature}` : "(unknown)";
  };
  const parentOf = (i: number) => (parent.isValid(i) ? (parent.get(i) as number) : -1);
  // A call is outermost for its key when no ancestor has the same key.
  const rows = new Map<string, ProfileRow>();
  const keys: string[] = new Array(n);
  for (let i = 0; i < n; i++) keys[i] = keyOf(Number(mid[i]));
  for (let i = 0; i < n; i++) {
    if (options.threadId !== undefined && tid[i] !== options.threadId) continue;
    const key = keys[i]!;
    let row = rows.get(key);
    if (!row) {
      row = { name: key, methodId: by === "method" && info.has(Number(mid[i])) ? Number(mid[i]) : null, calls: 0, recursiveCalls: 0, inclusive: 0, exclusive: 0, cpuInclusive: hasCpu ? 0 : null, cpuExclusive: hasCpu ? 0 : null };
      rows.set(key, row);
    }
    let recursive = false;
    for (let p = parentOf(i); p >= 0 && !recursive; p = parentOf(p)) recursive = keys[p] === key;
    row.calls++;
    row.exclusive += Number(exc[i]);
    if (cpuExc) row.cpuExclusive! += Number(cpuExc[i]);
    if (recursive) row.recursiveCalls++;
    else {
      row.inclusive += Number(inc[i]);
      if (cpuInc) row.cpuInclusive! += Number(cpuInc[i]);
    }
  }
  return [...rows.values()].sort((a, b) => b.inclusive - a.inclusive || a.name.localeCompare(b.name));
}

/** The top methods (or classes) as bars of inclusive and exclusive time, ms. */
export function methodProfilePlot(rows: readonly ProfileRow[], options: { top?: number } = {}): Plot.PlotOptions {
  const top = rows.slice(0, options.top ?? 20).map((r) => ({ name: r.name, inclusive: r.inclusive / 1e6, exclusive: r.exclusive / 1e6 }));
  return {
    marginLeft: 280,
    x: { label: "time (ms)", grid: true },
    y: { label: null, domain: top.map((r) => r.name) },
    marks: [
      Plot.barX(top, { x: "inclusive", y: "name", fill: "#9ecae1", title: (d: { inclusive: number }) => `inclusive ${d.inclusive.toFixed(3)} ms` }),
      Plot.barX(top, { x: "exclusive", y: "name", fill: "#3182bd", title: (d: { exclusive: number }) => `exclusive ${d.exclusive.toFixed(3)} ms` }),
      Plot.ruleX([0]),
    ],
  };
}
