// Process and thread lifetimes as trace processor keeps them (src/trace_processor/importers/common/
// process_tracker.cc, ftrace/ftrace_parser.cc ParseTaskNewTask / ParseSchedProcessFree, proto/
// system_probes_parser.cc ParseProcessTree): a tid or pid may name several threads or processes over a trace
// (reuse), so each lifetime is its own record. What the trace says about them (process_tree, task_newtask,
// task_rename, sched_process_free, comms, atrace pids) is logged with its time and replayed in time order at the end,
// as trace processor's sorter would hand it over; rows then find the lifetime of their tid at their time.
import type { ProcessTree } from "./process-tree";
import type { ProcessRow, ThreadRow } from "./rows";

/** Who may name a thread over whom (process_tracker.h ThreadNamePriority): a higher or equal one replaces. */
export const NAME_FTRACE = 1;
export const NAME_PROCESS_TREE = 2;
export const NAME_TRACK_DESCRIPTOR = 4;
// Process names: track descriptors below the system's own (ProcessNamePriority kTrackDescriptor < kSystem).
const PROC_TRACK_DESCRIPTOR = 2;
const PROC_SYSTEM = 4;
// include/uapi/linux/sched.h
const CLONE_THREAD = 0x10000;

export interface ThreadLife {
  tid: number;
  /** when the trace first said something about it (ns, trace clock); rows before it belong to it too if first */
  from: number;
  name: string | null;
  prio: number;
  proc: ProcessLife | null;
  ended: boolean;
}

export interface ProcessLife {
  pid: number;
  parent: ProcessLife | null;
  /** the ppid the process tree gave, for a parent never seen itself */
  ppid: number | null;
  name: string | null;
  prio: number;
  uid: number | null;
  ended: boolean;
}

type Op =
  | { ts: number; k: "tree"; tree: ProcessTree }
  | { ts: number; k: "newtask"; src: number; tid: number; comm: string; flags: number }
  | { ts: number; k: "rename"; tid: number; comm: string }
  | { ts: number; k: "comm"; tid: number; comm: string }
  | { ts: number; k: "free"; tid: number }
  | { ts: number; k: "pid"; tid: number; pid: number };

export class ProcessTracker {
  private ops: Op[] = [];
  /** every lifetime of each tid, oldest first */
  readonly lives = new Map<number, ThreadLife[]>();
  readonly processes: ProcessLife[] = [];
  /** lifetimes a bare tid lookup may still find (process_tracker.cc tids_) */
  private findable = new Map<number, ThreadLife[]>();
  private pids = new Map<number, ProcessLife>();
  private pending: [ThreadLife, ThreadLife][] = [];
  private pendingParent: [ThreadLife, ProcessLife][] = [];

  /** Logs a fact at `ts` (trace clock); they are applied, sorted by time, in finish(). */
  log(op: Op): void {
    this.ops.push(op);
  }

  /** Applies the logged facts in time order (ties in the order they came), then track descriptors' names. */
  finish(descriptorThreads: Iterable<ThreadRow>, descriptorProcesses: Iterable<ProcessRow>): void {
    const order = this.ops.map((_, i) => i);
    order.sort((a, b) => this.ops[a]!.ts - this.ops[b]!.ts || a - b);
    for (const i of order) this.apply(this.ops[i]!);
    this.ops = [];
    // Descriptors carry no lifetime: they describe the thread or process as the trace ends.
    for (const p of descriptorProcesses) {
      const proc = this.process(p.pid, Infinity);
      if (p.name !== null && PROC_TRACK_DESCRIPTOR >= proc.prio)
        [proc.name, proc.prio] = [p.name, PROC_TRACK_DESCRIPTOR];
    }
    for (const t of descriptorThreads) {
      const life = t.pid === null ? this.thread(t.tid, Infinity) : this.updateThread(t.tid, t.pid, Infinity);
      if (t.name) this.name(life, t.name, NAME_TRACK_DESCRIPTOR);
    }
  }

  private apply(op: Op) {
    const ts = op.ts;
    switch (op.k) {
      case "tree":
        return this.tree(op.tree, ts);
      case "newtask": {
        if (op.tid === 0) return; // boot-time tracing: init creating the swapper tasks
        if ((op.flags & CLONE_THREAD) === 0) {
          // fork(): a new process whose parent is the forking thread's process.
          const proc = this.startProcess(ts, op.tid, op.comm);
          const src = this.thread(op.src, ts);
          if (src.proc) proc.parent = src.proc;
          else this.pendingParent.push([src, proc]);
          return;
        }
        // pthread_create(): a new thread in the creating thread's process, known now or later.
        const src = this.thread(op.src, ts);
        const life = this.startThread(ts, op.tid);
        this.name(life, op.comm, NAME_FTRACE);
        return this.associate(src, life);
      }
      case "rename": {
        const life = this.thread(op.tid, ts);
        this.name(life, op.comm, NAME_FTRACE);
        // A main thread's rename renames its process (process_tracker.cc UpdateThreadNameAndMaybeProcessName).
        if (life.proc && life.proc.pid === life.tid)
          [life.proc.name, life.proc.prio] = [op.comm, PROC_SYSTEM];
        return;
      }
      case "comm":
        return this.name(this.thread(op.tid, ts), op.comm, NAME_FTRACE);
      case "free":
        return this.endThread(op.tid);
      case "pid":
        this.updateThread(op.tid, op.pid, ts);
        return;
    }
  }

  private tree(tree: ProcessTree, ts: number) {
    for (const p of tree.processes) {
      if (p.cmdline === null) continue; // trace processor reads only processes with a cmdline
      const parent = p.ppid === null ? null : this.process(p.ppid, ts);
      const proc = this.process(p.pid, ts);
      // A changed ppid is a reparenting: the first parent is kept.
      if (parent && !proc.parent) proc.parent = parent;
      proc.ppid ??= p.ppid;
      if (p.name !== null) [proc.name, proc.prio] = [p.name, PROC_SYSTEM];
      if (p.uid !== null) proc.uid = p.uid;
      if (p.cmdlineIsComm) this.name(this.thread(p.pid, ts), p.cmdline, NAME_PROCESS_TREE);
    }
    for (const t of tree.threads) {
      const life = t.tgid === null ? this.thread(t.tid, ts) : this.updateThread(t.tid, t.tgid, ts);
      if (t.name !== null) this.name(life, t.name, NAME_PROCESS_TREE);
    }
  }

  private name(life: ThreadLife, name: string, prio: number) {
    if (name && prio >= life.prio) [life.name, life.prio] = [name, prio];
  }

  private startThread(ts: number, tid: number): ThreadLife {
    const life: ThreadLife = { tid, from: ts, name: null, prio: 0, proc: null, ended: false };
    push(this.lives, tid, life);
    push(this.findable, tid, life);
    return life;
  }

  private alive(t: ThreadLife): boolean {
    if (t.ended) return false;
    const p = t.proc;
    return !p || (!p.ended && this.pids.get(p.pid) === p);
  }

  /** The newest live lifetime of `tid` (in process `pid` when given), or null. */
  private find(tid: number, pid?: number): ThreadLife | null {
    const list = this.findable.get(tid);
    if (!list) return null;
    for (let i = list.length - 1; i >= 0; i--) {
      const t = list[i]!;
      if (!this.alive(t)) continue;
      if (pid === undefined || !t.proc || t.proc.pid === pid) return t;
    }
    return null;
  }

  private thread(tid: number, ts: number): ThreadLife {
    return this.find(tid) ?? this.startThread(ts, tid);
  }

  private endThread(tid: number) {
    const t = this.find(tid);
    if (!t) return;
    t.ended = true;
    const list = this.findable.get(tid)!;
    list.splice(list.indexOf(t), 1);
    // The main thread's free is the process's end (the kernel frees the group leader last).
    if (t.proc && t.proc.pid === tid) {
      t.proc.ended = true;
      this.pids.delete(tid);
    }
  }

  private process(pid: number, ts: number): ProcessLife {
    let p = this.pids.get(pid);
    if (p) return p;
    p = { pid, parent: null, ppid: null, name: null, prio: 0, uid: null, ended: false };
    this.processes.push(p);
    this.pids.set(pid, p);
    this.updateThread(pid, pid, ts);
    return p;
  }

  private startProcess(ts: number, pid: number, comm: string): ProcessLife {
    // A pid is never two live processes: whatever held it is over, and so is every thread of that tid.
    this.pids.delete(pid);
    this.findable.delete(pid);
    const main = this.startThread(ts, pid);
    this.name(main, comm, NAME_FTRACE);
    const p = this.process(pid, ts);
    [p.name, p.prio] = [comm, PROC_SYSTEM];
    return p;
  }

  private updateThread(tid: number, pid: number, ts: number): ThreadLife {
    const proc = this.process(pid, ts);
    let t = this.find(tid, pid);
    if (t) {
      // Reaffirmed: the one a bare lookup finds from now on.
      const list = this.findable.get(tid)!;
      list.splice(list.indexOf(t), 1);
      list.push(t);
    } else t = this.startThread(ts, tid);
    if (!t.proc) t.proc = proc;
    this.resolve(t);
    return t;
  }

  /** Two threads of one process, which may not be known yet (process_tracker.cc AssociateThreads). */
  private associate(a: ThreadLife, b: ThreadLife) {
    if (a.proc && !b.proc) {
      b.proc = a.proc;
      this.resolve(b);
    } else if (b.proc && !a.proc) {
      a.proc = b.proc;
      this.resolve(a);
    } else if (!a.proc && !b.proc) this.pending.push([a, b]);
  }

  /** `t` now has a process: so do the threads and child processes waiting on it. */
  private resolve(t: ThreadLife) {
    if (!this.pending.length && !this.pendingParent.length) return;
    const todo = [t];
    while (todo.length) {
      const u = todo.pop()!;
      const proc = u.proc!;
      this.pendingParent = this.pendingParent.filter(([parent, child]) => {
        if (parent !== u) return true;
        child.parent ??= proc;
        return false;
      });
      this.pending = this.pending.filter(([x, y]) => {
        const other = x === u ? y : y === u ? x : null;
        if (!other) return true;
        if (!other.proc) {
          other.proc = proc;
          todo.push(other);
        }
        return false;
      });
    }
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V) {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}
