// The tasks each task waited behind (execution dependency, DiagDroid Definition 3), in CSR form.
//
// For a task that had to wait (see queue-metrics.ts), the tasks of the same execution unit that were ahead of
// it when it was scheduled: those running then, and those scheduled before it that had not started. The
// pending ones are exactly Definition 3's pairs (it was scheduled during their queuing time); the running ones
// are added because Figure 4's Task 2 waits for Task 1, which was running (its queuing time was zero).
// A task that did not have to wait waited behind nobody. Rows are indices into the tasks table, ascending.
import type { Table } from "apache-arrow";
import { sweepQueues } from "./queue-metrics";
import { readTaskColumns, type TaskColumns } from "./task-columns";

export interface WaitedBehind {
  /** tasks of row i are indices[offsets[i] .. offsets[i + 1]) */
  offsets: Int32Array;
  indices: Int32Array;
}

export function waitedBehind(tasks: Table): WaitedBehind {
  return waitedBehindColumns(readTaskColumns(tasks));
}

/** As {@link waitedBehind}, from read columns; `only(i)` limits the lists to the tasks it accepts. */
export function waitedBehindColumns(t: TaskColumns, only?: (i: number) => boolean): WaitedBehind {
  const starts = new Int32Array(t.n);
  const counts = new Int32Array(t.n);
  let indices = new Int32Array(Math.max(16, t.n));
  let used = 0;
  sweepQueues(t, (i, running, pending) => {
    if (only && !only(i)) return;
    const need = used + running.size + pending.size;
    if (need > indices.length) {
      const grown = new Int32Array(Math.max(need, indices.length * 2));
      grown.set(indices.subarray(0, used));
      indices = grown;
    }
    starts[i] = used;
    indices.set(running.items.subarray(0, running.size), used);
    indices.set(pending.items.subarray(0, pending.size), used + running.size);
    counts[i] = running.size + pending.size;
    indices.subarray(used, need).sort();
    used = need;
  });
  // The sweep visits tasks in unit order; lay the lists out in row order.
  const offsets = new Int32Array(t.n + 1);
  for (let i = 0; i < t.n; i++) offsets[i + 1] = offsets[i]! + counts[i]!;
  const out = new Int32Array(offsets[t.n]!);
  for (let i = 0; i < t.n; i++)
    if (counts[i]) out.set(indices.subarray(starts[i]!, starts[i]! + counts[i]!), offsets[i]!);
  return { offsets, indices: out };
}
