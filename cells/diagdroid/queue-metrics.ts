// Queue metrics per task (DiagDroid §4.1): queuing time (Definition 2), execution time, queue length
// (Definition 5) and the tasks each one waited behind (execution dependency, Definition 3).
//
// Queue length, exactly: right after task i is scheduled on its execution unit, count the tasks of that unit
// that are waiting (scheduled, not yet started) *because the unit was full*, plus i itself when i has to wait.
// i has to wait when it did not start at once (started > scheduled, or never) and the unit was full: the tasks
// running at that instant plus those scheduled before it and not yet started are ≥ the pool capacity
// (Definition 4; null capacity = unbounded, so nothing ever waits). A task that starts a little after being
// scheduled on a unit with a free thread (dispatch latency) holds a slot; it is not queued. Figure 4: three
// AsyncTasks on the serial executor (capacity 1): Task 1 runs at once (0); Task 2 waits for Task 1 (itself: 1);
// Task 3 waits behind Task 2 (2). "Before" means earlier (scheduled, task_id).
//
// Unfinished tasks are kept and flagged in `task_state`: "never_started" tasks get queue_ms measured up to the
// trace end (a lower bound) and exec_ms null; "running" tasks (started, never ended) get exec_ms null.
// The trace end is the latest timestamp in the table unless `traceEnd` is given.
import {
  Dictionary,
  Float64,
  Int32,
  Table,
  Utf8,
  makeData,
  makeVector,
  vectorFromArray,
  type Vector,
} from "apache-arrow";
import { columnTypeOf, arrowType, type ColumnType } from "../../bundle/schema";
import { readTaskColumns, type TaskColumns } from "./task-columns";

export interface QueueMetricsOptions {
  /** Where unfinished tasks are measured to, ns; default the latest timestamp in the table. */
  traceEnd?: bigint;
}

export const TASK_STATES = ["finished", "running", "never_started"] as const;

export interface QueueData extends TaskColumns {
  queueMs: Float64Array;
  /** NaN where the task has not finished */
  execMs: Float64Array;
  queueLength: Int32Array;
  /** 1 when the task had to wait for the unit (Definition 5) */
  waited: Uint8Array;
  /** tasks ahead of it (running, or scheduled before it and not started) when it had to wait; else 0 */
  aheadCount: Int32Array;
  /** index into TASK_STATES */
  state: Int8Array;
}

/** Row order by execution unit, then scheduled, then task_id. */
function unitOrder(t: TaskColumns): { order: Int32Array; unitStart: Int32Array } {
  const units = t.unitNames.length;
  const unitStart = new Int32Array(units + 1);
  for (let i = 0; i < t.n; i++) unitStart[t.unit[i]! + 1]!++;
  for (let u = 0; u < units; u++) unitStart[u + 1]! += unitStart[u]!;
  const fill = unitStart.slice(0, units);
  const order = new Int32Array(t.n);
  for (let i = 0; i < t.n; i++) order[fill[t.unit[i]!]!++] = i;
  const before = (a: number, b: number) =>
    t.scheduled[a]! - t.scheduled[b]! || (t.taskId[a]! < t.taskId[b]! ? -1 : 1);
  for (let u = 0; u < units; u++) {
    const slice = order.subarray(unitStart[u]!, unitStart[u + 1]!);
    let sorted = true;
    for (let j = 1; j < slice.length && sorted; j++) if (before(slice[j - 1]!, slice[j]!) > 0) sorted = false;
    if (!sorted) slice.sort(before);
  }
  return { order, unitStart };
}

/** A binary min-heap of row indices keyed by a time (Infinity = never). */
export class Heap {
  keys: Float64Array;
  items: Int32Array;
  size = 0;
  constructor(capacity: number) {
    this.keys = new Float64Array(capacity);
    this.items = new Int32Array(capacity);
  }
  push(key: number, item: number) {
    let i = this.size++;
    const { keys, items } = this;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (keys[p]! <= key) break;
      keys[i] = keys[p]!;
      items[i] = items[p]!;
      i = p;
    }
    keys[i] = key;
    items[i] = item;
  }
  /** Removes the minimum; call only when size > 0. */
  pop(): number {
    const { keys, items } = this;
    const top = items[0]!;
    const n = --this.size;
    const key = keys[n]!;
    const item = items[n]!;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && keys[c + 1]! < keys[c]!) c++;
      if (keys[c]! >= key) break;
      keys[i] = keys[c]!;
      items[i] = items[c]!;
      i = c;
    }
    keys[i] = key;
    items[i] = item;
    return top;
  }
}

/**
 * The sweep behind every queue metric. `visit(i, running, pending)` is called for each task that had to wait,
 * with the heaps of the tasks ahead of it (their `items[0..size)` are row indices).
 */
export function sweepQueues(t: TaskColumns, visit?: (i: number, running: Heap, pending: Heap) => void) {
  const { order, unitStart } = unitOrder(t);
  const queueLength = new Int32Array(t.n);
  const waited = new Uint8Array(t.n);
  const aheadCount = new Int32Array(t.n);
  let largest = 0;
  for (let u = 0; u + 1 < unitStart.length; u++)
    largest = Math.max(largest, unitStart[u + 1]! - unitStart[u]!);
  const pending = new Heap(largest);
  const running = new Heap(largest);
  for (let u = 0; u + 1 < unitStart.length; u++) {
    pending.size = running.size = 0;
    let waitingPending = 0;
    const capacity = t.unitCapacity[u]!;
    for (let j = unitStart[u]!; j < unitStart[u + 1]!; j++) {
      const i = order[j]!;
      const now = t.scheduled[i]!;
      // Tasks that started by now leave the queue; those that ended by now leave the unit.
      while (pending.size > 0 && pending.keys[0]! <= now) {
        const p = pending.pop();
        if (waited[p]) waitingPending--;
        const e = t.ended[p]!;
        if (!(e <= now)) running.push(Number.isNaN(e) ? Infinity : e, p);
      }
      while (running.size > 0 && running.keys[0]! <= now) running.pop();
      const b = t.started[i]!;
      const startsLater = !(b <= now);
      if (startsLater && running.size + pending.size >= capacity) {
        waited[i] = 1;
        aheadCount[i] = running.size + pending.size;
        visit?.(i, running, pending);
      }
      queueLength[i] = waitingPending + waited[i]!;
      if (waited[i]) waitingPending++;
      pending.push(Number.isNaN(b) ? Infinity : b, i);
    }
  }
  return { queueLength, waited, aheadCount };
}

/** Queue and execution times, queue lengths and task states, as typed arrays (the cells' shared core). */
export function queueData(tasks: Table, options: QueueMetricsOptions = {}): QueueData {
  const t = readTaskColumns(tasks);
  if (options.traceEnd !== undefined) {
    const end = Number(options.traceEnd);
    if (end < t.traceEnd)
      throw new Error(`queueMetrics: traceEnd ${end} is before the last timestamp ${t.traceEnd}`);
    t.traceEnd = end;
  }
  const { queueLength, waited, aheadCount } = sweepQueues(t);
  const queueMs = new Float64Array(t.n);
  const execMs = new Float64Array(t.n);
  const state = new Int8Array(t.n);
  for (let i = 0; i < t.n; i++) {
    const s = t.scheduled[i]!;
    const b = t.started[i]!;
    const e = t.ended[i]!;
    // Definition 2; a task still queued at the end has waited at least until then.
    queueMs[i] = ((Number.isNaN(b) ? t.traceEnd : b) - s) / 1e6;
    execMs[i] = (e - b) / 1e6;
    state[i] = Number.isNaN(b) ? 2 : Number.isNaN(e) ? 1 : 0;
  }
  return { ...t, queueMs, execMs, queueLength, waited, aheadCount, state };
}

/**
 * The tasks table plus queue_ms (float64), exec_ms (float64, null while unfinished), queue_length (int32),
 * waited_behind (int32: tasks ahead of it when it had to wait) and task_state (finished, running, never_started).
 */
export function queueMetrics(tasks: Table, options: QueueMetricsOptions = {}): Table {
  const q = queueData(tasks, options);
  const columns: Record<string, Vector> = {};
  // Our own arrow instance only reuses columns of tables it built; others are copied (two instances:
  // docs/architecture.md).
  const ours = tasks instanceof Table;
  for (const field of tasks.schema.fields) {
    const v = tasks.getChild(field.name)!;
    columns[field.name] = ours ? v : copyColumn(v, columnTypeOf(field.type));
  }
  columns.queue_ms = makeVector(q.queueMs);
  columns.exec_ms = float64WithNulls(q.execMs);
  columns.queue_length = makeVector(q.queueLength);
  columns.waited_behind = makeVector(q.aheadCount);
  const dictionary = vectorFromArray([...TASK_STATES], new Utf8());
  const type = new Dictionary(new Utf8(), new Int32());
  const codes = Int32Array.from(q.state);
  columns.task_state = makeVector(makeData({ type, length: q.n, nullCount: 0, data: codes, dictionary }));
  return new Table(columns);
}

function float64WithNulls(values: Float64Array): Vector {
  const n = values.length;
  const bitmap = new Uint8Array((n + 7) >> 3);
  let nullCount = 0;
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(values[i]!)) nullCount++;
    else bitmap[i >> 3]! |= 1 << (i & 7);
  }
  const data = values.slice();
  return makeVector(
    makeData({ type: new Float64(), length: n, nullCount, nullBitmap: nullCount ? bitmap : null, data }),
  );
}

function copyColumn(v: Vector, type: ColumnType | string): Vector {
  const values = Array.from({ length: v.length }, (_, i) => {
    const x = v.get(i);
    return x !== null && typeof x === "object" && typeof (x as { toArray?: unknown }).toArray === "function"
      ? Array.from((x as Vector).toArray() as ArrayLike<unknown>)
      : x;
  });
  const known = ["int8", "int32", "int64", "float64", "bool", "utf8", "list<utf8>"];
  return known.includes(type)
    ? vectorFromArray(values, arrowType(type as ColumnType))
    : vectorFromArray(values);
}
