// The calls table, a collector stage: call records from method trace events (AndroScope TraceBridge, §V-2): enter/exit pairing per thread,
// with explicit handling of traces that start inside calls, calls still open at the end, and exits that
// do not match the top of the stack (setjmp/longjmp: dummy exits for the frames above, at the same time).
import type { Table } from "apache-arrow";
import { requireColumns } from "../bundle/require-columns";
import { FinishedCalls } from "./method-trace-call-rows";
import { MASK, PAGE_BITS, Paged } from "./paged-column";
import type { MethodTrace, TraceRecords } from "./sources/method-trace";

export interface CallsResult {
  table: Table;
  /** counts of the repairs made, for the notebook to show next to the tree */
  repairs: { unmatchedAtStart: number; popped: number; openAtEnd: number };
}

/** The calls table (bundle/schema.ts "calls") for a trace, with the trace's run id ("trace" by default). */
export function buildCalls(trace: MethodTrace): Table {
  return buildCallsWithRepairs(trace).table;
}

export function buildCallsWithRepairs(trace: MethodTrace): CallsResult {
  const r = trace.records ?? recordsFromEvents(trace.events);
  const b = new CallBuilder(r.threadCpu !== null);
  b.add(r);
  const done = b.finish();
  const [table] = done.tables(trace.runId ?? "trace", Math.max(1, done.count));
  return { table: table!, repairs: done.repairs };
}

interface ThreadState {
  /** open calls, innermost last, and their method ids (searched on every exit) */
  stack: number[];
  methods: number[];
  /** calls with no caller yet: adopted by a later exit that has no entry (§V-1, tracing began inside it) */
  tops: number[];
  last: number;
  lastCpu: number;
  /** the open calls' thread-CPU entry times (a call keeps only its CPU duration) */
  cpuEnter: number[];
}

/** The calls of a trace whose records come in batches, in order: the pairing state carries from one batch to
 * the next, and the rows are written out in batches at the end (finish().tables). */
export class CallBuilder {
  private count = 0;
  // Thread ids in 2 bytes while they fit (trace.cc's are u2).
  private readonly tid = new Paged<Uint16Array | Float64Array>(Uint16Array);
  // Method ids and times in 4 bytes while they fit (always, for decoded traces), 8 once one does not.
  private readonly method = new Paged<Uint32Array | Float64Array>(Uint32Array);
  private readonly parent = new Paged(Int32Array);
  private readonly enter = new Paged<Uint32Array | Float64Array>(Uint32Array, 1000);
  private readonly exit = new Paged<Uint32Array | Float64Array>(Uint32Array, 1000);
  /** thread-CPU time inside each call (exit minus entry) */
  private readonly cpuInclusive: Paged<Uint32Array | Float64Array> | null;
  /** the sums of the closed children's inclusive times, in both clocks */
  private readonly childSum = new Paged<Uint32Array | Float64Array>(Uint32Array, 1000);
  private readonly childCpu: Paged<Uint32Array | Float64Array> | null;
  /** bit 0 synthetic exit, bit 1 synthetic enter (from the trace's start), bit 2 unwound */
  private readonly flags = new Paged(Uint8Array);
  private readonly threads = new Map<number, ThreadState>();
  private readonly repairs = { unmatchedAtStart: 0, popped: 0, openAtEnd: 0 };

  /** `cpu`: the records have thread-CPU times (the cpu_inclusive and cpu_exclusive columns) */
  constructor(cpu: boolean) {
    this.cpuInclusive = cpu ? new Paged<Uint32Array | Float64Array>(Uint32Array, 1000) : null;
    this.childCpu = cpu ? new Paged<Uint32Array | Float64Array>(Uint32Array, 1000) : null;
  }

  /** Pairs a batch of records, which follows the batches added before. */
  add(r: TraceRecords): void {
    const n = r.action.length;
    // The primary clock: wall when recorded, else thread CPU (Dalvik v1 thread-cpu traces).
    const primary = r.wall ?? r.threadCpu;
    const cpu = this.cpuInclusive ? r.threadCpu : null;
    const threads = this.threads;
    for (let i = 0; i < n; i++) {
      const th = r.threadId[i]!;
      const m = r.methodId[i]!;
      const a = r.action[i]!;
      const at = primary ? primary[i]! : 0;
      const atCpu = cpu ? cpu[i]! : 0;
      let t = threads.get(th);
      if (!t)
        threads.set(th, (t = { stack: [], methods: [], tops: [], last: at, lastCpu: atCpu, cpuEnter: [] }));
      t.last = at;
      t.lastCpu = atCpu;
      if (a === 0) {
        this.open(t, th, m, at, atCpu, false);
        continue;
      }
      // exit (1) or unwind (2): find the frame; frames above it were left without exits (longjmp, §V-2).
      let k = t.methods.length - 1;
      while (k >= 0 && t.methods[k] !== m) k--;
      if (k < 0) {
        // No entry on the stack: the call began before tracing did. Close everything open, then
        // make a call from the trace start that encloses every caller-less call so far.
        while (t.stack.length) (this.closeTop(t, at, atCpu, true), this.repairs.popped++);
        const id = this.open(t, th, m, 0, 0, true);
        for (const child of t.tops) {
          this.parent.set(child, id);
          this.credit(id, child);
        }
        t.tops = [id];
        this.close(id, at, atCpu, false, 0);
        if (a === 2) this.flags.pages[id >>> PAGE_BITS]![id & MASK]! |= 4;
        this.repairs.unmatchedAtStart++;
        continue;
      }
      while (t.stack.length - 1 > k) (this.closeTop(t, at, atCpu, true), this.repairs.popped++);
      const id = this.closeTop(t, at, atCpu, false);
      if (a === 2) this.flags.pages[id >>> PAGE_BITS]![id & MASK]! |= 4;
    }
  }

  /** Closes the thread's innermost open call; returns its id. */
  private closeTop(t: ThreadState, at: number, atCpu: number, synthetic: boolean): number {
    t.methods.pop();
    const id = t.stack.pop()!;
    this.close(id, at, atCpu, synthetic, t.cpuEnter.pop()!);
    return id;
  }

  private open(t: ThreadState, th: number, m: number, at: number, atCpu: number, fromStart: boolean): number {
    const id = this.count++;
    const j = id & MASK;
    if (j === 0) this.addPage();
    const page = id >>> PAGE_BITS;
    this.tid.set(id, th);
    this.method.set(id, m);
    this.enter.set(id, at);
    this.exit.set(id, at);
    this.cpuInclusive?.set(id, 0);
    this.flags.pages[page]![j] = fromStart ? 2 : 0;
    this.childSum.set(id, 0);
    this.childCpu?.set(id, 0);
    const parent = this.parent.pages[page]!;
    parent[j] = -1;
    if (fromStart) return id;
    const caller = t.stack[t.stack.length - 1];
    if (caller === undefined) t.tops.push(id);
    else parent[j] = caller;
    t.stack.push(id);
    t.methods.push(m);
    t.cpuEnter.push(atCpu);
    return id;
  }

  private close(id: number, at: number, atCpu: number, synthetic: boolean, cpuEnter: number) {
    this.exit.set(id, at);
    this.cpuInclusive?.set(id, atCpu - cpuEnter);
    if (synthetic) this.flags.pages[id >>> PAGE_BITS]![id & MASK]! |= 1;
    const p = this.parent.pages[id >>> PAGE_BITS]![id & MASK]!;
    if (p >= 0) this.credit(p, id);
  }

  /** Adds a closed call's times to its parent's children's sums (for the parent's exclusive times). */
  private credit(parent: number, child: number) {
    this.childSum.add(parent, this.exit.at(child) - this.enter.at(child));
    if (this.childCpu) this.childCpu.add(parent, this.cpuInclusive!.at(child));
  }

  private addPage() {
    for (const c of [this.tid, this.method, this.parent, this.enter, this.exit, this.childSum, this.flags])
      c.addPage();
    for (const c of [this.cpuInclusive, this.childCpu]) c?.addPage();
  }

  /** Closes the calls still open (they end at their thread's last record) and orders the rows. */
  finish(): FinishedCalls {
    // Calls still open when tracing stopped end at the thread's last record.
    for (const t of this.threads.values())
      while (t.stack.length) (this.closeTop(t, t.last, t.lastCpu, true), this.repairs.openAtEnd++);
    const { tid, method, parent, enter, exit, cpuInclusive, flags, childSum, childCpu } = this;
    return new FinishedCalls(this.count, this.repairs, {
      tid,
      method,
      parent,
      enter,
      exit,
      cpuInclusive,
      flags,
      childSum,
      childCpu,
    });
  }
}

/** Records from a method_events table (e.g. one read back from a bundle). */
function recordsFromEvents(events: Table): TraceRecords {
  requireColumns(events.schema, "method_events", {
    thread_id: { type: "int32" },
    method_id: { type: "int64" },
    action: { type: "utf8" },
  });
  const n = events.numRows;
  const col = (name: string) => events.getChild(name);
  const threadId = Int32Array.from(col("thread_id")!.toArray() as Int32Array);
  const methodId = Float64Array.from(col("method_id")!.toArray() as BigInt64Array, Number);
  const actionCol = col("action")!;
  const action = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const v = actionCol.get(i);
    action[i] = v === "enter" ? 0 : v === "exit" ? 1 : v === "unwind" ? 2 : 1;
  }
  const times = (name: string) => {
    const v = col(name);
    if (!v || v.nullCount === n) return null;
    return Float64Array.from(v.toArray() as BigInt64Array, Number);
  };
  return { threadId, methodId, action, wall: times("wall"), threadCpu: times("thread_cpu") };
}
