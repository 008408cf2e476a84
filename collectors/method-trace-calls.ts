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

/** One thread's calls, numbered in the order they are made, and its pairing state. A call's parent is always
 * on its own thread, so the calls are kept per thread: the table's order by thread needs no index of its own. */
export class ThreadCalls {
  count = 0;
  // Method ids and times in 4 bytes while they fit (always, for decoded traces), 8 once one does not.
  readonly method = new Paged<Uint32Array | Float64Array>(Uint32Array);
  /** the caller's number on this thread, -1 for none */
  readonly parent = new Paged(Int32Array);
  readonly enter = new Paged<Uint32Array | Float64Array>(Uint32Array, 1000);
  readonly exit = new Paged<Uint32Array | Float64Array>(Uint32Array, 1000);
  /** thread-CPU time inside each call (exit minus entry); the exclusive times are summed when written */
  readonly cpuInclusive: Paged<Uint32Array | Float64Array> | null;
  /** bit 0 synthetic exit, bit 1 synthetic enter (from the trace's start), bit 2 unwound */
  readonly flags = new Paged(Uint8Array);
  /** open calls, innermost last, and their method ids (searched on every exit) */
  stack: number[] = [];
  methods: number[] = [];
  /** calls with no caller yet: adopted by a later exit that has no entry (§V-1, tracing began inside it) */
  tops: number[] = [];
  /** the open calls' thread-CPU entry times (a call keeps only its CPU duration) */
  cpuEnter: number[] = [];

  constructor(
    readonly tid: number,
    cpu: boolean,
    public last: number,
    public lastCpu: number,
  ) {
    this.cpuInclusive = cpu ? new Paged<Uint32Array | Float64Array>(Uint32Array, 1000) : null;
  }

  grow(i: number) {
    for (const c of [this.method, this.parent, this.enter, this.exit, this.flags]) c.grow(i);
    this.cpuInclusive?.grow(i);
  }
}

/** The calls of a trace whose records come in batches, in order: the pairing state carries from one batch to
 * the next, and the rows are written out in batches at the end (finish().tables). */
export class CallBuilder {
  /** in order of first appearance, the calls table's order of threads */
  private readonly threads = new Map<number, ThreadCalls>();
  private readonly repairs = { unmatchedAtStart: 0, popped: 0, openAtEnd: 0 };

  /** `cpu`: the records have thread-CPU times (the cpu_inclusive and cpu_exclusive columns) */
  constructor(private readonly cpu: boolean) {}

  /** Pairs a batch of records, which follows the batches added before. */
  add(r: TraceRecords): void {
    const n = r.action.length;
    // The primary clock: wall when recorded, else thread CPU (Dalvik v1 thread-cpu traces).
    const primary = r.wall ?? r.threadCpu;
    const cpu = this.cpu ? r.threadCpu : null;
    const threads = this.threads;
    for (let i = 0; i < n; i++) {
      const th = r.threadId[i]!;
      const m = r.methodId[i]!;
      const a = r.action[i]!;
      const at = primary ? primary[i]! : 0;
      const atCpu = cpu ? cpu[i]! : 0;
      let t = threads.get(th);
      if (!t) threads.set(th, (t = new ThreadCalls(th, this.cpu, at, atCpu)));
      t.last = at;
      t.lastCpu = atCpu;
      if (a === 0) {
        this.open(t, m, at, atCpu, false);
        continue;
      }
      // exit (1) or unwind (2): find the frame; frames above it were left without exits (longjmp, §V-2).
      let k = t.methods.length - 1;
      while (k >= 0 && t.methods[k] !== m) k--;
      if (k < 0) {
        // No entry on the stack: the call began before tracing did. Close everything open, then
        // make a call from the trace start that encloses every caller-less call so far.
        while (t.stack.length) (this.closeTop(t, at, atCpu, true), this.repairs.popped++);
        const id = this.open(t, m, 0, 0, true);
        for (const child of t.tops) t.parent.set(child, id);
        t.tops = [id];
        this.close(t, id, at, atCpu, false, 0);
        if (a === 2) t.flags.pages[id >>> PAGE_BITS]![id & MASK]! |= 4;
        this.repairs.unmatchedAtStart++;
        continue;
      }
      while (t.stack.length - 1 > k) (this.closeTop(t, at, atCpu, true), this.repairs.popped++);
      const id = this.closeTop(t, at, atCpu, false);
      if (a === 2) t.flags.pages[id >>> PAGE_BITS]![id & MASK]! |= 4;
    }
  }

  /** Closes the thread's innermost open call; returns its number. */
  private closeTop(t: ThreadCalls, at: number, atCpu: number, synthetic: boolean): number {
    t.methods.pop();
    const id = t.stack.pop()!;
    this.close(t, id, at, atCpu, synthetic, t.cpuEnter.pop()!);
    return id;
  }

  private open(t: ThreadCalls, m: number, at: number, atCpu: number, fromStart: boolean): number {
    const id = t.count++;
    t.grow(id);
    const j = id & MASK;
    const page = id >>> PAGE_BITS;
    t.method.set(id, m);
    t.enter.set(id, at);
    t.exit.set(id, at);
    t.cpuInclusive?.set(id, 0);
    t.flags.pages[page]![j] = fromStart ? 2 : 0;
    const parent = t.parent.pages[page]!;
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

  private close(t: ThreadCalls, id: number, at: number, atCpu: number, synthetic: boolean, cpuEnter: number) {
    t.exit.set(id, at);
    t.cpuInclusive?.set(id, atCpu - cpuEnter);
    if (synthetic) t.flags.pages[id >>> PAGE_BITS]![id & MASK]! |= 1;
  }

  /** Closes the calls still open (they end at their thread's last record); the rows are ordered as written. */
  finish(): FinishedCalls {
    // Calls still open when tracing stopped end at the thread's last record.
    for (const t of this.threads.values())
      while (t.stack.length) (this.closeTop(t, t.last, t.lastCpu, true), this.repairs.openAtEnd++);
    return new FinishedCalls([...this.threads.values()], this.repairs, this.cpu);
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
