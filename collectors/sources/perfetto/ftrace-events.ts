// FtraceEventBundle (protos/perfetto/trace/ftrace/ftrace_event_bundle.proto): one per CPU per read, so a
// thread's events arrive in per-CPU runs that interleave in time. Events are queued per CPU (each queue is in time
// order) and replayed in one merged time order at the end, as trace processor's sorter does, so a slice begun on
// one CPU and ended on another, or a switch-out before a switch-in elsewhere, pair up.
import { AtraceSlices } from "./atrace-slices";
import { ProtoReader, WIRE_LEN } from "./proto-reader";
import { ThreadStates } from "./thread-states";

const PRINT = 1;
const SWITCH = 2;
const WAKING = 3;
const RENAME = 4;
const NEWTASK = 5;

// FtraceEvent field numbers (ftrace_event.proto): print 3, sched_switch 4, sched_waking 20, sched_wakeup_new 114,
// task_newtask 235, task_rename 236.
const F_PRINT = 3;
const F_SWITCH = 4;
const F_WAKING = 20;
const F_WAKEUP_NEW = 114;
const F_NEWTASK = 235;
const F_RENAME = 236;

class CpuQueue {
  ts: number[] = [];
  kind: number[] = [];
  tid: number[] = [];
  a: number[] = [];
  b: number[] = [];
  s1: (string | null)[] = [];
  s2: (string | null)[] = [];
  push(ts: number, kind: number, tid: number, a: number, b: number, s1: string | null, s2: string | null) {
    this.ts.push(ts);
    this.kind.push(kind);
    this.tid.push(tid);
    this.a.push(a);
    this.b.push(b);
    this.s1.push(s1);
    this.s2.push(s2);
  }
}

export class FtraceEvents {
  private queues = new Map<number, CpuQueue>();
  /** events of ftrace kinds we do not read, by FtraceEvent field number */
  readonly skipped = new Map<number, number>();
  events = 0;
  nonBootClock = 0;

  /** One FtraceEventBundle; `toTrace` maps the bundle's ftrace clock onto the trace clock (BOOTTIME). */
  bundle(r: ProtoReader): void {
    let cpu = 0;
    const events: ProtoReader[] = [];
    let compact: ProtoReader | null = null;
    let clock = 0;
    let ftraceTs: number | null = null;
    let bootTs: number | null = null;
    while (r.more()) {
      const t = r.tag();
      const f = t >>> 3;
      if (f === 1 && (t & 7) === 0) cpu = r.varint();
      else if (f === 2 && (t & 7) === WIRE_LEN) events.push(r.message());
      else if (f === 4 && (t & 7) === WIRE_LEN) compact = r.message();
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
    for (const e of events) this.event(e, q, shift);
    if (compact) this.compact(compact, q, shift);
  }

  private event(r: ProtoReader, q: CpuQueue, shift: number) {
    let ts = 0;
    let tid = 0;
    let body: ProtoReader | null = null;
    let kind = 0;
    while (r.more()) {
      const t = r.tag();
      const f = t >>> 3;
      if (f === 1 && (t & 7) === 0) ts = r.varint();
      else if (f === 2 && (t & 7) === 0) tid = r.varint();
      else if ((t & 7) === WIRE_LEN && f >= 3 && f !== 5) {
        kind = f;
        body = r.message();
      } else r.skip(t & 7);
    }
    if (!body) return;
    this.events++;
    ts += shift;
    switch (kind) {
      case F_PRINT: {
        let buf: string | null = null;
        while (body.more()) {
          const t = body.tag();
          if (t === 18) buf = body.string();
          else body.skip(t & 7);
        }
        if (buf !== null) q.push(ts, PRINT, tid, 0, 0, buf, null);
        return;
      }
      case F_SWITCH: {
        let prevComm: string | null = null;
        let nextComm: string | null = null;
        let prevPid = 0;
        let prevState = 0;
        let nextPid = 0;
        while (body.more()) {
          const t = body.tag();
          if (t === 10) prevComm = body.string();
          else if (t === 16) prevPid = body.int64();
          else if (t === 32) prevState = body.int64();
          else if (t === 42) nextComm = body.string();
          else if (t === 48) nextPid = body.int64();
          else body.skip(t & 7);
        }
        q.push(ts, SWITCH, prevPid, prevState, nextPid, prevComm, nextComm);
        return;
      }
      case F_WAKING:
      case F_WAKEUP_NEW: {
        let comm: string | null = null;
        let pid = 0;
        while (body.more()) {
          const t = body.tag();
          if (t === 10) comm = body.string();
          else if (t === 16) pid = body.int64();
          else body.skip(t & 7);
        }
        q.push(ts, WAKING, pid, 0, 0, comm, null);
        return;
      }
      case F_NEWTASK:
      case F_RENAME: {
        let pid = 0;
        let comm: string | null = null;
        // task_newtask: pid 1, comm 2; task_rename: pid 1, newcomm 3.
        const commTag = kind === F_NEWTASK ? 18 : 26;
        while (body.more()) {
          const t = body.tag();
          if (t === 8) pid = body.int64();
          else if (t === commTag) comm = body.string();
          else body.skip(t & 7);
        }
        if (comm !== null) q.push(ts, kind === F_NEWTASK ? NEWTASK : RENAME, pid, 0, 0, comm, null);
        return;
      }
      default:
        this.skipped.set(kind, (this.skipped.get(kind) ?? 0) + 1);
    }
  }

  // CompactSched: parallel packed arrays; timestamps delta-encoded from the first; comms by intern index.
  private compact(r: ProtoReader, q: CpuQueue, shift: number) {
    const intern: string[] = [];
    const swTs: number[] = [];
    const swState: number[] = [];
    const swPid: number[] = [];
    const swComm: number[] = [];
    const wkTs: number[] = [];
    const wkPid: number[] = [];
    const wkComm: number[] = [];
    while (r.more()) {
      const t = r.tag();
      const wt = t & 7;
      switch (t >>> 3) {
        case 5:
          intern.push(r.string());
          break;
        case 1:
          r.packedVarints(wt, swTs);
          break;
        case 2:
          r.packedVarints(wt, swState, true);
          break;
        case 3:
          r.packedVarints(wt, swPid, true);
          break;
        case 6:
          r.packedVarints(wt, swComm);
          break;
        case 7:
          r.packedVarints(wt, wkTs);
          break;
        case 8:
          r.packedVarints(wt, wkPid, true);
          break;
        case 11:
          r.packedVarints(wt, wkComm);
          break;
        default:
          r.skip(wt);
      }
    }
    // Switches and wakings are two sorted runs: merge them so the CPU queue stays in time order.
    let ts = shift;
    let wts = shift;
    let i = 0;
    let j = 0;
    let nextSw = swTs.length ? ts + swTs[0]! : Infinity;
    let nextWk = wkTs.length ? wts + wkTs[0]! : Infinity;
    while (i < swTs.length || j < wkTs.length) {
      if (nextSw <= nextWk) {
        ts = nextSw;
        const comm = intern[swComm[i] ?? -1] ?? null;
        q.push(ts, SWITCH, -1, swState[i] ?? 0, swPid[i] ?? 0, null, comm);
        this.events++;
        i++;
        nextSw = i < swTs.length ? ts + swTs[i]! : Infinity;
      } else {
        wts = nextWk;
        q.push(wts, WAKING, wkPid[j] ?? 0, 0, 0, intern[wkComm[j] ?? -1] ?? null, null);
        this.events++;
        j++;
        nextWk = j < wkTs.length ? wts + wkTs[j]! : Infinity;
      }
    }
  }

  /** Replays every queued event in time order into slices, counters and thread states. */
  replay(slices: AtraceSlices, states: ThreadStates, renames: Map<number, string>): void {
    const cpus = [...this.queues.keys()];
    const qs = cpus.map((c) => this.queues.get(c)!);
    const pos = qs.map(() => 0);
    const running = new Map<number, number>();
    for (;;) {
      let k = -1;
      let best = Infinity;
      for (let c = 0; c < qs.length; c++) {
        const p = pos[c]!;
        const q = qs[c]!;
        if (p < q.ts.length && q.ts[p]! < best) {
          best = q.ts[p]!;
          k = c;
        }
      }
      if (k < 0) break;
      const q = qs[k]!;
      const i = pos[k]!++;
      const cpu = cpus[k]!;
      switch (q.kind[i]) {
        case PRINT:
          slices.marker(best, q.tid[i]!, q.s1[i]!);
          break;
        case SWITCH: {
          // compact_sched does not record prev_pid: it is whoever this CPU switched to last.
          const prev = q.tid[i] === -1 ? (running.get(cpu) ?? 0) : q.tid[i]!;
          states.switch(best, cpu, prev, q.s1[i]!, q.a[i]!, q.b[i]!, q.s2[i]!);
          running.set(cpu, q.b[i]!);
          break;
        }
        case WAKING:
          states.waking(best, q.tid[i]!, q.s1[i]!);
          break;
        default:
          renames.set(q.tid[i]!, q.s1[i]!);
      }
    }
    this.queues.clear();
  }
}
