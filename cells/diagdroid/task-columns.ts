// Reads the tasks table into typed arrays once, checking it (DiagDroid §4.1): every DiagDroid cell starts here.
// Bad rows are errors that name the row and task: started before scheduled, ended before started, ended
// without started, and a task_id seen twice in one run.
import type { Table } from "apache-arrow";
import {
  bigint64,
  int32,
  int32AsFloat,
  int64,
  optional,
  readColumns,
  stringCodes,
  utf8,
} from "../../bundle/read-columns";

export interface TaskColumns {
  n: number;
  /** execution unit per row: (run_id, executor_id) numbered 0.. (Definition 1: tasks queue per unit) */
  unit: Int32Array;
  unitNames: string[];
  /** pool capacity per unit; Infinity when null (unbounded, Definition 4) */
  unitCapacity: Float64Array;
  taskId: BigInt64Array;
  /** nanoseconds as float64 (exact below 2^53 ns ≈ 104 days of uptime); NaN where null */
  scheduled: Float64Array;
  started: Float64Array;
  ended: Float64Array;
  contextId: Int32Array;
  /** the latest timestamp in the table: where never-started and still-running tasks are measured to */
  traceEnd: number;
}

const TASK_COLUMNS = {
  task_id: bigint64(),
  executor_id: utf8(),
  pool_capacity: int32AsFloat(Infinity),
  scheduled: int64(),
  started: int64(),
  ended: int64(),
  context_id: int32(),
  run_id: optional(utf8()),
};

export function readTaskColumns(tasks: Table): TaskColumns {
  const c = readColumns(tasks, "tasks", TASK_COLUMNS);
  const n = tasks.numRows;
  const { task_id: taskId, scheduled, started, ended, context_id: contextId } = c;

  // Units are per run: executor identities (hash codes) mean nothing across runs.
  const runCol = c.run_id;
  const runNames: string[] = [];
  const run = runCol ? stringCodes(runCol, runNames) : new Int32Array(n);
  const execNames: string[] = [];
  const exec = stringCodes(c.executor_id, execNames);
  const unitNames: string[] = [];
  // (run, executor) → unit through a flat table: a Map lookup per row cost ~50 ms on 1M tasks.
  const unitKey = new Int32Array(Math.max(1, runNames.length) * execNames.length).fill(-1);
  const unit = new Int32Array(n);
  const caps: number[] = [];
  for (let i = 0; i < n; i++) {
    const key = runNames.length > 1 ? run[i]! * execNames.length + exec[i]! : exec[i]!;
    let u = unitKey[key]!;
    if (u === -1) {
      unitKey[key] = u = unitNames.length;
      unitNames.push(
        runNames.length > 1 ? `${runNames[run[i]!]}/${execNames[exec[i]!]}` : execNames[exec[i]!]!,
      );
      caps.push(c.pool_capacity[i]!);
    }
    unit[i] = u;
  }
  const unitCapacity = Float64Array.from(caps);

  let traceEnd = -Infinity;
  for (let i = 0; i < n; i++) {
    const s = scheduled[i]!;
    const b = started[i]!;
    const e = ended[i]!;
    if (b < s || e < b || (Number.isNaN(b) && !Number.isNaN(e))) badTimes(i, taskId[i]!, s, b, e);
    if (s > traceEnd) traceEnd = s;
    if (b > traceEnd) traceEnd = b;
    if (e > traceEnd) traceEnd = e;
  }
  checkUniqueIds(taskId, run, runNames);
  return { n, unit, unitNames, unitCapacity, taskId, scheduled, started, ended, contextId, traceEnd };
}

function badTimes(i: number, id: bigint, s: number, b: number, e: number): never {
  const where = `tasks row ${i} (task_id ${id})`;
  if (b < s) throw new Error(`${where}: started ${b} is before scheduled ${s}`);
  if (e < b) throw new Error(`${where}: ended ${e} is before started ${b}`);
  throw new Error(`${where}: ended ${e} but never started`);
}

function checkUniqueIds(taskId: BigInt64Array, run: Int32Array, runNames: string[]) {
  const runs = Math.max(1, runNames.length);
  for (let r = 0; r < runs; r++) {
    const ids = runs === 1 ? taskId.slice() : taskId.filter((_, i) => run[i] === r);
    ids.sort();
    for (let i = 1; i < ids.length; i++) {
      if (ids[i] !== ids[i - 1]) continue;
      const rows: number[] = [];
      for (let j = 0; j < taskId.length && rows.length < 2; j++)
        if (taskId[j] === ids[i] && run[j] === r) rows.push(j);
      const inRun = runs > 1 ? ` in run ${runNames[r]}` : "";
      throw new Error(`tasks: duplicate task_id ${ids[i]}${inRun} (rows ${rows.join(" and ")})`);
    }
  }
}
