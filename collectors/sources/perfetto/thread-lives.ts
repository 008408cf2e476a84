// The process tracker's lifetimes as bundle rows: one `threads` row per named thread lifetime and one `processes`
// row per process lifetime (a reused tid or pid gives several), and the per-tid lookup slices and thread states
// are named by (rows.ts ThreadsByTid: a reused tid is resolved by each row's time).
import type { ProcessTracker } from "./process-tracker";
import type { ProcessRow, ThreadLives, ThreadRow, ThreadsByTid } from "./rows";

export interface LifeRows {
  threads: ThreadRow[];
  processes: ProcessRow[];
  byTid: ThreadsByTid;
}

/** `convert` takes a trace-clock time to the bundle's clock. The idle task (tid and pid 0) is left out. */
export function lifeRows(tracker: ProcessTracker, convert: (ts: number) => number): LifeRows {
  const threads: ThreadRow[] = [];
  const names = new Map<number, string>();
  const pids = new Map<number, number>();
  const reused = new Map<number, ThreadLives>();
  for (const [tid, lives] of tracker.lives) {
    if (tid === 0) continue;
    for (const l of lives) if (l.name) threads.push({ tid, name: l.name, pid: l.proc?.pid ?? null });
    if (lives.length === 1) {
      const l = lives[0]!;
      if (l.name) names.set(tid, l.name);
      if (l.proc) pids.set(tid, l.proc.pid);
      continue;
    }
    reused.set(tid, {
      from: lives.map((l) => (Number.isFinite(l.from) ? convert(l.from) : l.from)),
      names: lives.map((l) => l.name),
      pids: lives.map((l) => l.proc?.pid ?? null),
    });
  }
  // A process known only as someone's ppid says nothing a row could show (trace processor lists it): left out.
  const withThreads = new Set(threads.map((t) => t.pid));
  const processes: ProcessRow[] = tracker.processes
    .filter((p) => p.pid !== 0 && (p.name !== null || p.uid !== null || withThreads.has(p.pid)))
    .map((p) => ({ pid: p.pid, ppid: p.parent?.pid ?? p.ppid, name: p.name, uid: p.uid }));
  threads.sort((a, b) => a.tid - b.tid);
  processes.sort((a, b) => a.pid - b.pid);
  return { threads, processes, byTid: { names, pids, reused } };
}
