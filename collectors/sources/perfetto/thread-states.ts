// Scheduler intervals per thread from sched_switch and sched_waking (Perfetto ftrace/sched.proto, plain and
// compact_sched): running from switch-in to switch-out, then the prev_state the switch reports, runnable from a
// waking to the next switch-in.
import type { ThreadStateName, ThreadStateRow } from "./rows";

/** The state a thread is left in when it is switched out, from the kernel's prev_state (task_state_index
 * letters R S D T t X Z P I, include/linux/sched.h TASK_REPORT; bit 0x100 and above mark preemption). */
export function stateFromPrevState(prevState: number): ThreadStateName {
  const low = prevState & 0xff;
  if (low === 0) return "runnable_preempted";
  if (low & 0x02) return "uninterruptible";
  if (low & 0x01) return "sleeping";
  if (low & 0x30) return "dead";
  if (low & (0x04 | 0x08 | 0x40 | 0x80)) return "sleeping";
  return "unknown";
}

export class ThreadStates {
  readonly rows: ThreadStateRow[] = [];
  private open = new Map<number, ThreadStateRow>();
  /** comm last seen per tid, for thread names */
  readonly comms = new Map<number, string>();

  switch(
    ts: number,
    cpu: number,
    prevTid: number,
    prevComm: string | null,
    prevState: number,
    nextTid: number,
    nextComm: string | null,
  ): void {
    if (prevComm !== null && prevTid !== 0) this.comms.set(prevTid, prevComm);
    if (nextComm !== null && nextTid !== 0) this.comms.set(nextTid, nextComm);
    // tid 0 is the idle task (swapper), one per CPU: not a thread anyone waits on.
    if (prevTid !== 0) {
      this.close(prevTid, ts);
      this.start(ts, prevTid, stateFromPrevState(prevState), null);
    }
    if (nextTid !== 0) {
      this.close(nextTid, ts);
      this.start(ts, nextTid, "running", cpu);
    }
  }

  waking(ts: number, tid: number, comm: string | null): void {
    if (tid === 0) return;
    if (comm !== null) this.comms.set(tid, comm);
    const cur = this.open.get(tid);
    // A waking of a thread already running or runnable changes nothing (kernel try_to_wake_up returns early).
    if (cur && (cur.state === "running" || cur.state === "runnable" || cur.state === "runnable_preempted"))
      return;
    this.close(tid, ts);
    this.start(ts, tid, "runnable", null);
  }

  private close(tid: number, ts: number) {
    const cur = this.open.get(tid);
    if (!cur) return;
    cur.dur = ts - cur.ts;
    this.open.delete(tid);
  }

  private start(ts: number, tid: number, state: ThreadStateName, cpu: number | null) {
    const row: ThreadStateRow = {
      ts,
      dur: null,
      tid,
      pid: null,
      thread_name: null,
      state,
      cpu,
      blocked_function: null,
    };
    this.rows.push(row);
    this.open.set(tid, row);
  }
}
