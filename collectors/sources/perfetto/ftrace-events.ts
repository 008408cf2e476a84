// FtraceEventBundle (protos/perfetto/trace/ftrace/ftrace_event_bundle.proto): one per CPU per read, so a
// thread's events arrive in per-CPU runs that interleave in time. Events are queued per CPU (each queue is in time
// order) and replayed in one merged time order, as trace processor's sorter does, so a slice begun on one CPU and
// ended on another, or a switch-out before a switch-in elsewhere, pair up. Replay runs as the trace is read, up to
// the oldest CPU's newest event (no CPU can still send anything older), so the queues stay small.
import { AtraceSlices } from "./atrace-slices";
import { BinderTransactions, F_BINDER_RECEIVED, F_BINDER_TRANSACTION } from "./binder-transactions";
import { BlockedReasons } from "./blocked-reasons";
import { CpuPower, F_CPU_FREQUENCY, F_CPU_IDLE } from "./cpu-power";
import { CompactScratch, mergeCompactSched, readCompactSched } from "./compact-sched";
import { isKernelMarker, readKernelMarker } from "./kernel-markers";
import {
  CpuQueue,
  FREE,
  NEWTASK,
  PRINT_BEGIN,
  PRINT_END,
  PRINT_OTHER,
  RENAME,
  SWITCH,
  WAKING,
} from "./cpu-queue";
import { ReadProgress } from "./growable-columns";
import { ProcessTracker } from "./process-tracker";
import { ProtoReader, VARINT, WIRE_LEN } from "./proto-reader";
import { StringTable } from "./string-table";
import { ThreadStates } from "./thread-states";

// FtraceEvent field numbers (ftrace_event.proto): print 3, sched_switch 4, sched_waking 20, sched_wakeup_new 114,
// task_newtask 235, task_rename 236, sched_process_free 240.
const F_PRINT = 3;
const F_SWITCH = 4;
const F_WAKING = 20;
const F_WAKEUP_NEW = 114;
const F_NEWTASK = 235;
const F_RENAME = 236;
const F_FREE = 240;

export class FtraceEvents {
  private queues = new Map<number, CpuQueue>();
  readonly strings = new StringTable();
  /** how much of the trace is read: sizes the slice and thread-state builders' growth */
  readonly progress = new ReadProgress();
  readonly slices = new AtraceSlices(this.strings, this.progress);
  readonly states = new ThreadStates(this.progress);
  readonly power = new CpuPower();
  readonly blocked = new BlockedReasons();
  readonly binder = new BinderTransactions();
  /** thread and process lifetimes: what the events say about them is logged there */
  readonly tracker = new ProcessTracker();
  // Last comm string id + 1, and last atrace pid + 1, per tid (0: none), so only changes are logged; tids past the
  // arrays in Maps.
  private commSmall = new Int32Array(65536);
  private commLarge = new Map<number, number>();
  private pidSmall = new Int32Array(65536);
  private pidLarge = new Map<number, number>();
  /** events are replayed up to this time */
  private replayed = -Infinity;
  /** events that arrived older than what was already replayed (replayed late, out of order) */
  late = 0;

  constructor(private readonly batch = 1 << 16) {}
  /** events of ftrace kinds we do not read, by FtraceEvent field number */
  readonly skipped = new Map<number, number>();
  events = 0;
  nonBootClock = 0;
  /** [start, end) of each FtraceEvent of the bundle being read */
  private bounds: Int32Array = new Int32Array(512);
  private plain = new CpuQueue();
  /** compact_sched's arrays, reused from bundle to bundle */
  private packed = new CompactScratch();
  // Readers reused from bundle to bundle (bundles do not nest).
  private compactReader = new ProtoReader(new Uint8Array(0), 0, 0);
  private eventReader = new ProtoReader(new Uint8Array(0), 0, 0);
  private bodyReader = new ProtoReader(new Uint8Array(0), 0, 0);

  /** One FtraceEventBundle; a non-boot ftrace clock is shifted onto BOOTTIME by the bundle's timestamp pair. */
  bundle(r: ProtoReader): void {
    let cpu = 0;
    let events = 0;
    let compact: ProtoReader | null = null;
    let clock = 0;
    let ftraceTs: number | null = null;
    let bootTs: number | null = null;
    while (r.more()) {
      const t = r.tag();
      const f = t >>> 3;
      if (f === 1 && (t & 7) === 0) cpu = r.varint();
      else if (f === 2 && (t & 7) === WIRE_LEN) {
        if (2 * events + 2 > this.bounds.length) this.bounds = grown(this.bounds);
        this.bounds[2 * events] = r.len();
        this.bounds[2 * events++ + 1] = r.pos;
      } else if (f === 4 && (t & 7) === WIRE_LEN) compact = this.compactReader.enter(r);
      else if (f === 5 && (t & 7) === 0) clock = r.varint();
      else if (f === 6 && (t & 7) === 0) ftraceTs = r.int64();
      else if (f === 7 && (t & 7) === 0) bootTs = r.int64();
      else r.skip(t & 7);
    }
    // FTRACE_CLOCK_UNSPECIFIED (0) means boottime; other clocks carry a (ftrace, boot) pair to shift by.
    let shift = 0;
    if (clock !== 0) {
      if (ftraceTs !== null && bootTs !== null) shift = bootTs - ftraceTs;
      else this.nonBootClock++;
    }
    let q = this.queues.get(cpu);
    if (!q) this.queues.set(cpu, (q = new CpuQueue()));
    // The bundle's events and its compact_sched events are two sorted runs that interleave in time: without
    // compact_sched the events go straight onto the CPU's queue, else into a scratch queue merged with them.
    const at = q.n;
    const plain = compact ? this.plain : q;
    if (compact) {
      plain.rows.n = 0;
      plain.last = -Infinity;
    }
    const ev = this.eventReader.reset(r.buf, 0, 0, r.base);
    const body = this.bodyReader.reset(r.buf, 0, 0, r.base);
    for (let i = 0; i < events; i++) {
      ev.pos = this.bounds[2 * i]!;
      ev.end = this.bounds[2 * i + 1]!;
      this.event(ev, body, plain, shift);
    }
    // The bundle's first event (or, with compact_sched, the earlier of its first switch and first waking).
    let first = plain.n > (compact ? 0 : at) ? plain.rows.cols.ts[compact ? 0 : at]! : Infinity;
    if (compact) {
      const p = this.packed;
      this.events += readCompactSched(compact, shift, this.strings, p);
      first = Math.min(
        first,
        p.swTs.n ? p.swTs.values[0]! : Infinity,
        p.wkTs.n ? p.wkTs.values[0]! : Infinity,
      );
      mergeCompactSched(q, plain, p);
    }
    if (first < this.replayed) this.late++;
    this.flushSome();
  }

  private event(r: ProtoReader, body: ProtoReader, q: CpuQueue, shift: number) {
    let ts = 0;
    let tid = 0;
    let kind = 0;
    while (r.more()) {
      const t = r.tag();
      const f = t >>> 3;
      if (t === 8) {
        // Through VARINT: a time returned by a call is boxed, and this method is too big to inline varint().
        r.readVarint();
        ts = VARINT[0]!;
      } else if (t === 16) tid = r.varint();
      else if ((t & 7) === WIRE_LEN && f >= 3 && f !== 5) {
        kind = f;
        body.enter(r);
      } else r.skip(t & 7);
    }
    if (kind === 0) return;
    this.events++;
    ts += shift;
    const S = this.strings;
    switch (kind) {
      case F_PRINT:
        while (body.more()) {
          const t = body.tag();
          if (t === 18) {
            const start = body.len();
            // The row's time is set here, not passed to print(): a double argument to a call V8 does not inline
            // is a heap number allocated per event.
            this.print(q, q.add(ts), tid, body.buf, start, body.pos);
          } else body.skip(t & 7);
        }
        return;
      case F_SWITCH: {
        let prevComm = -1;
        let nextComm = -1;
        let prevPid = 0;
        let prevState = 0;
        let nextPid = 0;
        while (body.more()) {
          const t = body.tag();
          if (t === 10) prevComm = S.field(body);
          else if (t === 16) prevPid = body.int64();
          else if (t === 32) prevState = body.int64();
          else if (t === 42) nextComm = S.field(body);
          else if (t === 48) nextPid = body.int64();
          else body.skip(t & 7);
        }
        q.push(ts, SWITCH, prevPid, prevState, nextPid, prevComm, nextComm);
        return;
      }
      case F_WAKING:
      case F_WAKEUP_NEW: {
        let comm = -1;
        let pid = 0;
        while (body.more()) {
          const t = body.tag();
          if (t === 10) comm = S.field(body);
          else if (t === 16) pid = body.int64();
          else body.skip(t & 7);
        }
        q.push(ts, WAKING, pid, 0, 0, comm, -1);
        return;
      }
      case F_NEWTASK:
      case F_RENAME: {
        let pid = 0;
        let comm = -1;
        let flags = 0;
        // task_newtask: pid 1, comm 2, clone_flags 3; task_rename: pid 1, newcomm 3.
        const commTag = kind === F_NEWTASK ? 18 : 26;
        while (body.more()) {
          const t = body.tag();
          if (t === 8) pid = body.int64();
          else if (t === commTag) comm = S.field(body);
          else if (t === 24 && kind === F_NEWTASK) flags = body.varint();
          else body.skip(t & 7);
        }
        if (kind === F_NEWTASK) q.push(ts, NEWTASK, tid, flags, pid, comm, -1);
        else if (comm >= 0) q.push(ts, RENAME, pid, 0, 0, comm, -1);
        return;
      }
      case F_FREE: {
        // sched_process_free: comm 1, pid 2.
        let pid = 0;
        while (body.more()) {
          const t = body.tag();
          if (t === 16) pid = body.int64();
          else body.skip(t & 7);
        }
        q.push(ts, FREE, pid, 0, 0, -1, -1);
        return;
      }
      case F_CPU_FREQUENCY:
      case F_CPU_IDLE:
        this.power.event(kind, body, ts);
        return;
      case F_BINDER_TRANSACTION:
      case F_BINDER_RECEIVED:
        this.binder.event(kind, body, ts, tid);
        return;
      case 18 /* sched_blocked_reason */:
        this.blocked.event(body, ts);
        return;
      default:
        if (isKernelMarker(kind)) return this.kernelMarker(q, ts, tid, kind, body);
        this.skipped.set(kind, (this.skipped.get(kind) ?? 0) + 1);
    }
  }

  // A driver's tracing_mark_write (kernel-markers.ts) queued as the atrace marker it stands for.
  private kernelMarker(q: CpuQueue, ts: number, tid: number, kind: number, body: ProtoReader) {
    const m = readKernelMarker(kind, body);
    const S = this.strings;
    if (m === null) this.slices.bad(`ftrace event ${kind} without a B/E/C/I marker type`);
    else if (m.phase === "B") q.push(ts, PRINT_BEGIN, tid, m.pid, 0, S.text(m.name), -1);
    else if (m.phase === "E") q.push(ts, PRINT_END, tid, 0, 0, -1, -1);
    else {
      const text = m.phase === "C" ? `C|${m.pid}|${m.name}|${m.value}` : `I|${m.pid}|${m.name}`;
      q.push(ts, PRINT_OTHER, tid, 0, 0, S.text(text), -1);
    }
  }

  // The common atrace markers read straight from the bytes: `B|pid|name` and `E[|pid]` (libcutils trace-dev.inc);
  // anything else goes to AtraceSlices.marker as text.
  private print(q: CpuQueue, row: number, tid: number, b: Uint8Array, start: number, end: number) {
    while (end > start && (b[end - 1] === 10 || b[end - 1] === 0)) end--;
    const c = b[start];
    if (c === 69 /* E */ && (end === start + 1 || b[start + 1] === 124)) {
      q.fill(row, PRINT_END, tid, 0, 0, -1, -1);
      return;
    }
    if (c === 66 /* B */ && b[start + 1] === 124) {
      let pid = 0;
      let p = start + 2;
      while (p < end && b[p]! >= 48 && b[p]! <= 57) pid = pid * 10 + b[p++]! - 48;
      if (p > start + 2 && p < end && b[p] === 124) {
        const name = p + 1 < end ? this.strings.id(b, p + 1, end) : this.strings.text("[empty slice name]");
        q.fill(row, PRINT_BEGIN, tid, pid, 0, name, -1);
        return;
      }
    }
    q.fill(row, PRINT_OTHER, tid, 0, 0, this.strings.id(b, start, end), -1);
  }

  // Replays what no CPU can still precede once enough is queued.
  private flushSome() {
    let queued = 0;
    let upTo = Infinity;
    for (const q of this.queues.values()) {
      queued += q.n - q.head;
      if (q.last < upTo) upTo = q.last;
    }
    if (queued >= this.batch) this.replay(upTo);
  }

  /** Replays the rest. */
  finish(): void {
    this.replay(Infinity);
  }

  // A comm (sched_switch, sched_waking) is logged when it differs from the tid's last one (its time is times[at]).
  private seen(times: Float64Array, at: number, tid: number, id: number) {
    if (id < 0 || tid <= 0) return;
    if (tid < 65536) {
      if (this.commSmall[tid] === id + 1) return;
      this.commSmall[tid] = id + 1;
    } else {
      if (this.commLarge.get(tid) === id) return;
      this.commLarge.set(tid, id);
    }
    this.tracker.log({ ts: times[at]!, k: "comm", tid, comm: this.strings.get(id) });
  }

  // `B|pid|...` from `tid` ties the thread to that process (trace processor's UpdateThread); logged on change.
  private atracePid(times: Float64Array, at: number, tid: number, pid: number) {
    if (tid <= 0 || pid <= 0) return;
    if (tid < 65536) {
      if (this.pidSmall[tid] === pid + 1) return;
      this.pidSmall[tid] = pid + 1;
    } else {
      if (this.pidLarge.get(tid) === pid) return;
      this.pidLarge.set(tid, pid);
    }
    this.tracker.log({ ts: times[at]!, k: "pid", tid, pid });
  }

  // A freed tid's next comm or pid starts a new thread's: forget what the old one had.
  private forget(tid: number) {
    if (tid < 65536 && tid >= 0) this.commSmall[tid] = this.pidSmall[tid] = 0;
    else {
      this.commLarge.delete(tid);
      this.pidLarge.delete(tid);
    }
  }

  /** Replays queued events up to `limit` in time order into slices, counters and thread states. */
  private replay(limit: number): void {
    const cpus = [...this.queues.keys()];
    const qs = cpus.map((c) => this.queues.get(c)!);
    // Each CPU's next timestamp (Infinity when drained), kept beside the queues so one pass finds the earliest
    // CPU and the one after it.
    const next = Float64Array.from(qs, (q) => (q.head < q.n ? q.rows.cols.ts[q.head]! : Infinity));
    // Runs between CPUs are a single event or two in a busy trace, so what each run needs is read here once:
    // nothing is pushed onto the queues while they replay.
    this.merged(
      qs,
      cpus,
      next,
      qs.map((q) => q.rows.cols),
      Int32Array.from(qs, (q) => q.n),
      limit,
    );
    if (limit > this.replayed) this.replayed = limit;
    for (const q of qs) q.compact();
  }

  // The replay loop on its own: code after a loop V8 optimizes mid-run (on-stack replacement) has no type
  // feedback yet, and leaving the loop then deoptimized the whole replay once per batch.
  private merged(
    qs: CpuQueue[],
    cpus: number[],
    next: Float64Array,
    cols: CpuQueue["rows"]["cols"][],
    ns: Int32Array,
    limit: number,
  ) {
    const { slices, states } = this;
    for (;;) {
      // The earliest CPU (lowest index on ties) and the time after it: both times are dead before the handlers'
      // calls, so V8 keeps them unboxed (as many scavenges per decode as with indices, --trace-gc).
      let k = -1;
      let tk = Infinity;
      let t2 = Infinity;
      for (let c = 0; c < next.length; c++) {
        const t = next[c]!;
        if (t < tk) {
          t2 = tk;
          k = c;
          tk = t;
        } else if (t < t2) t2 = t;
      }
      if (k < 0 || tk > limit) break;
      // Math.min, not a conditional: a value that is either the tagged limit or a time is a heap number each.
      const second = Math.min(t2, limit);
      const q = qs[k]!;
      const cpu = cpus[k]!;
      // Locals: the handlers below are calls, after which V8 would reload every field through q.
      const { ts: T, kind: K, tid: D, a: A, b: B, s1: S1, s2: S2 } = cols[k]!;
      const n = ns[k]!;
      let i = q.head;
      // Each handler is given (T, i), not the time: V8 boxed a time used by any branch at the top of the loop,
      // a heap number per event (measured), so a branch that needs it as a value reads it itself.
      for (; i < n && T[i]! <= second; i++) {
        switch (K[i]) {
          case PRINT_BEGIN:
            slices.beginAt(T, i, D[i]!, A[i]!, S1[i]!);
            this.atracePid(T, i, D[i]!, A[i]!);
            break;
          case PRINT_END:
            slices.endAt(T, i, D[i]!);
            break;
          case PRINT_OTHER:
            slices.marker(T[i]!, D[i]!, this.strings.get(S1[i]!));
            break;
          case SWITCH: {
            // compact_sched does not record prev_pid: it is whoever this CPU switched to last.
            const prev = D[i] === -1 ? q.running : D[i]!;
            this.seen(T, i, prev, S1[i]!);
            this.seen(T, i, B[i]!, S2[i]!);
            states.switchAt(T, i, cpu, prev, A[i]!, B[i]!);
            q.running = B[i]!;
            break;
          }
          case WAKING:
            this.seen(T, i, D[i]!, S1[i]!);
            states.wakingAt(T, i, D[i]!);
            break;
          case NEWTASK: {
            const comm = S1[i]! < 0 ? "" : this.strings.get(S1[i]!);
            this.forget(B[i]!);
            this.tracker.log({ ts: T[i]!, k: "newtask", src: D[i]!, tid: B[i]!, comm, flags: A[i]! });
            break;
          }
          case RENAME:
            this.tracker.log({ ts: T[i]!, k: "rename", tid: D[i]!, comm: this.strings.get(S1[i]!) });
            break;
          default:
            this.forget(D[i]!);
            this.tracker.log({ ts: T[i]!, k: "free", tid: D[i]! });
        }
      }
      q.head = i;
      next[k] = i < n ? T[i]! : Infinity;
    }
  }
}

function grown(a: Int32Array): Int32Array {
  // Doubling keeps the scratch array for the largest bundle seen.
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}
