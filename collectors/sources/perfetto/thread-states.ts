// Scheduler intervals per thread from sched_switch and sched_waking (Perfetto ftrace/sched.proto, plain and
// compact_sched): running from switch-in to switch-out, then the prev_state the switch reports, runnable from a
// waking to the next switch-in. A system trace holds millions of intervals, so they are kept in typed columns.
import { nextCapacity, widened, type ReadProgress } from "./growable-columns";
import { THREAD_STATE_NAMES, type ThreadStateColumns, type ThreadStateName } from "./rows";

const RUNNING = THREAD_STATE_NAMES.indexOf("running");
const RUNNABLE = THREAD_STATE_NAMES.indexOf("runnable");
const PREEMPTED = THREAD_STATE_NAMES.indexOf("runnable_preempted");
const code = (s: ThreadStateName) => THREAD_STATE_NAMES.indexOf(s);
const SLEEPING = code("sleeping");
const UNINTERRUPTIBLE = code("uninterruptible");
const DEAD = code("dead");
const UNKNOWN = code("unknown");

/** The state a thread is left in when it is switched out, from the kernel's prev_state (task_state_index
 * letters R S D T t X Z P I, include/linux/sched.h TASK_REPORT; bit 0x100 and above mark preemption). */
export function stateFromPrevState(prevState: number): ThreadStateName {
  return THREAD_STATE_NAMES[stateCode(prevState)]!;
}

function stateCode(prevState: number): number {
  const low = prevState & 0xff;
  if (low === 0) return PREEMPTED;
  if (low & 0x02) return UNINTERRUPTIBLE;
  if (low & 0x01) return SLEEPING;
  if (low & 0x30) return DEAD;
  if (low & (0x04 | 0x08 | 0x40 | 0x80)) return SLEEPING;
  return UNKNOWN;
}

export class ThreadStates {
  constructor(private readonly progress: ReadProgress | null = null) {}
  private ts = new Float64Array(1024);
  private dur = new Float64Array(1024);
  private tid = new Int32Array(1024);
  private state = new Uint8Array(1024);
  private cpu = new Int32Array(1024);
  private n = 0;
  /** open interval's row + 1 per tid (0: none); tids beyond the array (pid_max is 32768 on most devices) in a Map */
  private openSmall = new Int32Array(65536);
  private openLarge = new Map<number, number>();
  /** A switch at times[i]: the time is read here rather than passed, as a double argument to a call V8 does not
   * inline is a heap number allocated per event (the replay loop's calls are not inlined). */
  switchAt(times: Float64Array, i: number, cpu: number, prevTid: number, prevState: number, nextTid: number) {
    // tid 0 is the idle task (swapper), one per CPU: not a thread anyone waits on.
    if (prevTid !== 0) this.enter(times, i, prevTid, stateCode(prevState), -1);
    if (nextTid !== 0) this.enter(times, i, nextTid, RUNNING, cpu);
  }

  /** A waking at times[i] (read here, as switchAt's). */
  wakingAt(times: Float64Array, i: number, tid: number): void {
    if (tid === 0) return;
    const cur = this.openRow(tid);
    // A waking of a thread already running or runnable changes nothing (kernel try_to_wake_up returns early).
    if (cur >= 0) {
      const s = this.state[cur]!;
      if (s === RUNNING || s === RUNNABLE || s === PREEMPTED) return;
    }
    this.enter(times, i, tid, RUNNABLE, -1);
  }

  private openRow(tid: number): number {
    return tid >= 0 && tid < 65536 ? this.openSmall[tid]! - 1 : (this.openLarge.get(tid) ?? -1);
  }

  private setOpen(tid: number, row: number) {
    if (tid >= 0 && tid < 65536) this.openSmall[tid] = row + 1;
    else if (row < 0) this.openLarge.delete(tid);
    else this.openLarge.set(tid, row);
  }

  // Ends tid's open interval at times[at] and opens one in `state` there (the time read here, as switchAt's).
  private enter(times: Float64Array, at: number, tid: number, state: number, cpu: number) {
    const ts = times[at]!;
    const open = this.openRow(tid);
    if (open >= 0) this.dur[open] = ts - this.ts[open]!;
    if (this.n === this.ts.length) this.grow();
    const i = this.n++;
    this.ts[i] = ts;
    this.dur[i] = NaN;
    this.tid[i] = tid;
    this.state[i] = state;
    this.cpu[i] = cpu;
    this.setOpen(tid, i);
  }

  // Its own fields rather than a GrowableColumns: enter() is the decoder's hottest write, and reading each column
  // through a member object made it 15 % slower on its own.
  private grow() {
    const size = nextCapacity(this.ts.length, this.progress);
    this.ts = widened(this.ts, size);
    this.dur = widened(this.dur, size);
    this.tid = widened(this.tid, size);
    this.state = widened(this.state, size);
    this.cpu = widened(this.cpu, size);
  }

  /** The intervals so far (views over the builder's arrays), times mapped by `convert` in place when given. */
  columns(convert?: (t: number) => number): ThreadStateColumns {
    const n = this.n;
    const ts = this.ts.subarray(0, n);
    if (convert) for (let i = 0; i < n; i++) ts[i] = convert(ts[i]!);
    return {
      length: n,
      ts,
      dur: this.dur.subarray(0, n),
      tid: this.tid.subarray(0, n),
      state: this.state.subarray(0, n),
      cpu: this.cpu.subarray(0, n),
      names: new Map(),
      pids: new Map(),
    };
  }
}
