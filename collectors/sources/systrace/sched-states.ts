// Thread scheduling states from ftrace sched events (kernel include/trace/events/sched.h): sched_switch ends
// the previous task's running interval in its prev_state and starts the next task's; sched_waking or
// sched_wakeup turns a sleeping thread runnable; sched_blocked_reason names where a D sleep waited.

import type { ThreadStateName, ThreadStateRow } from "../perfetto/rows";

const SWITCH =
  /^prev_comm=(.*?) prev_pid=(-?\d+) prev_prio=-?\d+ prev_state=(\S+) ==> next_comm=(.*?) next_pid=(-?\d+) next_prio=-?\d+/;
const WAKE = /^comm=(.*?) pid=(\d+) prio=-?\d+/;
const BLOCKED = /^pid=(\d+) iowait=\d+ caller=(\S+)/;

/** prev_state as sched_switch prints it (__print_flags of TASK_REPORT bits; `+` marks a preempted R). */
export function stateOf(prevState: string): ThreadStateName {
  if (prevState === "R+") return "runnable_preempted";
  switch (prevState[0]) {
    case "R":
      return "runnable";
    case "S":
    case "I": // TASK_IDLE: an idle kernel thread, asleep without contributing to load
      return "sleeping";
    case "D":
      return "uninterruptible";
    case "X":
    case "Z":
      return "dead";
    default:
      return "unknown";
  }
}

export class SchedStates {
  readonly rows: ThreadStateRow[] = [];
  /** thread names the events carry (prev_comm, next_comm, comm), for the threads table */
  readonly names = new Map<number, string>();
  private open = new Map<number, number>();

  /** false when args do not have the event's format */
  event(event: string, ts: number, cpu: number, args: string): boolean {
    if (event === "sched_switch") {
      const m = SWITCH.exec(args);
      if (!m) return false;
      const prev = Number(m[2]);
      const next = Number(m[5]);
      this.name(prev, m[1]!);
      this.name(next, m[4]!);
      if (prev !== 0) this.enter(prev, ts, stateOf(m[3]!), null);
      if (next !== 0) this.enter(next, ts, "running", cpu);
      return true;
    }
    if (event === "sched_waking" || event === "sched_wakeup") {
      const m = WAKE.exec(args);
      if (!m) return false;
      const tid = Number(m[2]);
      this.name(tid, m[1]!);
      const i = this.open.get(tid);
      const now = i === undefined ? undefined : this.rows[i]!.state;
      // Only a sleep ends on a wake-up; waking and wakeup both arrive for one wake, the first one counts.
      if (tid !== 0 && (now === undefined || now === "sleeping" || now === "uninterruptible"))
        this.enter(tid, ts, "runnable", null);
      return true;
    }
    if (event === "sched_blocked_reason") {
      const m = BLOCKED.exec(args);
      if (!m) return false;
      const i = this.open.get(Number(m[1]));
      if (i !== undefined && this.rows[i]!.state === "uninterruptible")
        this.rows[i]!.blocked_function = m[2]!;
      return true;
    }
    return false;
  }

  private name(tid: number, comm: string) {
    if (tid !== 0 && comm && comm !== "<...>") this.names.set(tid, comm);
  }

  private enter(tid: number, ts: number, state: ThreadStateName, cpu: number | null) {
    const i = this.open.get(tid);
    if (i !== undefined) this.rows[i]!.dur = ts - this.rows[i]!.ts;
    this.open.set(tid, this.rows.length);
    this.rows.push({ ts, dur: null, tid, pid: null, thread_name: null, state, cpu, blocked_function: null });
  }
}
