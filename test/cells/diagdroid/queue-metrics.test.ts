// queueMetrics and waitedBehind on hand-computed examples: the paper's Figure 4, pools of capacity 1, 3 and
// unbounded, unfinished tasks, several runs, and bad input.
import { describe, expect, it } from "vitest";
import { queueMetrics } from "../../../cells/diagdroid/queue-metrics";
import { waitedBehind } from "../../../cells/diagdroid/waited-behind";
import { tasksTable, type T } from "./tasks-fixture";

const col = (t: ReturnType<typeof queueMetrics>, name: string) =>
  Array.from({ length: t.numRows }, (_, i) => t.getChild(name)!.get(i) as unknown);
/** waitedBehind as task ids per task id */
function behind(rows: readonly T[]): Record<number, number[]> {
  const w = waitedBehind(tasksTable(rows));
  return Object.fromEntries(
    rows.map((r, i) => [
      r.id,
      Array.from(w.indices.subarray(w.offsets[i]!, w.offsets[i + 1]!), (j) => rows[j]!.id),
    ]),
  );
}

describe("queueMetrics: Figure 4 (three AsyncTasks on the serial executor, capacity 1)", () => {
  // Task 1 runs at once; Task 2 is scheduled while Task 1 runs and waits; Task 3 waits behind both.
  const fig4: T[] = [
    { id: 1, s: 0, b: 0, e: 100 },
    { id: 2, s: 1, b: 100, e: 200 },
    { id: 3, s: 2, b: 200, e: 300 },
  ];
  it("queue lengths 0, 1, 2 and the queuing / execution times", () => {
    const m = queueMetrics(tasksTable(fig4));
    expect(col(m, "queue_length")).toEqual([0, 1, 2]);
    expect(col(m, "queue_ms")).toEqual([0, 99, 198]);
    expect(col(m, "exec_ms")).toEqual([100, 100, 100]);
    expect(col(m, "task_state")).toEqual(["finished", "finished", "finished"]);
  });
  it("dispatch latency on a free unit is not queuing: still 0, 1, 2", () => {
    const late = fig4.map((t) => (t.id === 1 ? { ...t, b: 0.4 } : t));
    expect(col(queueMetrics(tasksTable(late)), "queue_length")).toEqual([0, 1, 2]);
  });
  it("Task 2 waited behind Task 1 (running), Task 3 behind Tasks 1 and 2", () => {
    expect(behind(fig4)).toEqual({ 1: [], 2: [1], 3: [1, 2] });
  });
});

describe("queueMetrics: pool of capacity 3", () => {
  const P = { unit: "ThreadPoolExecutor@3", cap: 3 };
  // A, B, C fill the pool; D and E queue; at 55 A has ended and D runs, so B, C, D run and E waits: F queues
  // behind E. At 65, C, D, E run and F waits: G queues. At 95 only D runs: H starts (0.2 ms later) without waiting.
  const rows: T[] = [
    { id: 1, ...P, s: 0, b: 0, e: 50 },
    { id: 2, ...P, s: 1, b: 1, e: 60 },
    { id: 3, ...P, s: 2, b: 2, e: 70 },
    { id: 4, ...P, s: 3, b: 50, e: 100 },
    { id: 5, ...P, s: 4, b: 60, e: 90 },
    { id: 6, ...P, s: 55, b: 70, e: 80 },
    { id: 7, ...P, s: 65, b: 80, e: 85 },
    { id: 8, ...P, s: 95, b: 95.2, e: 99 },
  ];
  it("queue lengths", () => {
    expect(col(queueMetrics(tasksTable(rows)), "queue_length")).toEqual([0, 0, 0, 1, 2, 2, 2, 0]);
  });
  it("tasks waited behind: running ones and earlier queued ones", () => {
    expect(behind(rows)).toEqual({
      1: [],
      2: [],
      3: [],
      4: [1, 2, 3],
      5: [1, 2, 3, 4],
      6: [2, 3, 4, 5],
      7: [3, 4, 5, 6],
      8: [],
    });
    expect(col(queueMetrics(tasksTable(rows)), "waited_behind")).toEqual([0, 0, 0, 3, 4, 4, 4, 0]);
  });
  it("row order does not matter", () => {
    const shuffled = [rows[5]!, rows[0]!, rows[7]!, rows[3]!, rows[1]!, rows[6]!, rows[2]!, rows[4]!];
    const m = queueMetrics(tasksTable(shuffled));
    expect(col(m, "queue_length")).toEqual([2, 0, 0, 1, 0, 2, 0, 2]);
  });
});

describe("queueMetrics: unbounded pool (null pool_capacity)", () => {
  it("nothing ever waits, whatever the start latency", () => {
    const rows: T[] = [0, 1, 2, 3, 4].map((i) => ({
      id: i,
      unit: "Thread",
      cap: null,
      s: i,
      b: i + 10,
      e: i + 500,
    }));
    const m = queueMetrics(tasksTable(rows));
    expect(col(m, "queue_length")).toEqual([0, 0, 0, 0, 0]);
    expect(col(m, "queue_ms")).toEqual([10, 10, 10, 10, 10]);
    expect(Object.values(behind(rows)).flat()).toEqual([]);
  });
});

describe("queueMetrics: units, runs and columns", () => {
  it("units are independent; capacity-1 units in parallel do not queue on each other", () => {
    const rows: T[] = [
      { id: 1, unit: "H@1", s: 0, b: 0, e: 100 },
      { id: 2, unit: "H@2", s: 1, b: 1, e: 100 },
      { id: 3, unit: "H@1", s: 2, b: 100, e: 101 },
    ];
    expect(col(queueMetrics(tasksTable(rows)), "queue_length")).toEqual([0, 0, 1]);
  });
  it("the same executor_id in two runs is two units; task ids may repeat across runs", () => {
    const a = tasksTable([{ id: 1, s: 0, b: 0, e: 100 }], "run-a");
    const b = tasksTable([{ id: 1, s: 1, b: 1, e: 100 }], "run-b");
    expect(col(queueMetrics(a.concat(b)), "queue_length")).toEqual([0, 0]);
  });
  it("keeps every input column, in any order, and adds the metrics", () => {
    const t = tasksTable([{ id: 1, s: 0, b: 2, e: 5 }]);
    const reversed = t.select(t.schema.fields.map((f) => f.name).reverse());
    const m = queueMetrics(reversed);
    expect(m.schema.fields.map((f) => f.name)).toEqual([
      ...reversed.schema.fields.map((f) => f.name),
      "queue_ms",
      "exec_ms",
      "queue_length",
      "waited_behind",
      "task_state",
    ]);
    expect(col(m, "thread_name")).toEqual(["t1"]);
    expect(String(m.schema.fields.find((f) => f.name === "queue_length")!.type)).toBe("Int32");
    expect(String(m.schema.fields.find((f) => f.name === "exec_ms")!.type)).toBe("Float64");
  });
});

describe("queueMetrics: tasks unfinished at the trace end", () => {
  const rows: T[] = [
    { id: 1, s: 0, b: 0, e: null }, // still running
    { id: 2, s: 10, b: null, e: null }, // never started: queued behind task 1
  ];
  it("never started: queued up to the trace end (latest timestamp), exec null, flagged", () => {
    const m = queueMetrics(tasksTable(rows));
    expect(col(m, "task_state")).toEqual(["running", "never_started"]);
    expect(col(m, "exec_ms")).toEqual([null, null]);
    expect(col(m, "queue_ms")).toEqual([0, 0]);
    expect(col(m, "queue_length")).toEqual([0, 1]);
  });
  it("an explicit trace end measures the open queue up to it", () => {
    const m = queueMetrics(tasksTable(rows), { traceEnd: 1000_000_000n });
    expect(col(m, "queue_ms")).toEqual([0, 990]);
    expect(() => queueMetrics(tasksTable(rows), { traceEnd: 1n })).toThrow(
      /traceEnd 1 is before the last timestamp/,
    );
  });
});

describe("queueMetrics: bad input is an error naming the row", () => {
  it.each([
    [
      [
        { id: 7, s: 0, b: 0, e: 1 },
        { id: 8, s: 5, b: 4, e: 6 },
      ],
      /tasks row 1 \(task_id 8\): started 4000000 is before scheduled 5000000/,
    ],
    [[{ id: 7, s: 0, b: 3, e: 2 }], /tasks row 0 \(task_id 7\): ended 2000000 is before started 3000000/],
    [[{ id: 7, s: 0, b: null, e: 2 }], /tasks row 0 \(task_id 7\): ended 2000000 but never started/],
    [
      [
        { id: 3, s: 0, b: 0, e: 1 },
        { id: 4, s: 0, b: 1, e: 2 },
        { id: 3, s: 1, b: 2, e: 3 },
      ],
      /duplicate task_id 3 \(rows 0 and 2\)/,
    ],
  ] as [T[], RegExp][])("%#", (rows, message) => {
    expect(() => queueMetrics(tasksTable(rows))).toThrow(message);
    expect(() => waitedBehind(tasksTable(rows))).toThrow(message);
  });
  it("a missing column is named", () => {
    const t = tasksTable([{ id: 1, s: 0, b: 0, e: 1 }]);
    expect(() => queueMetrics(t.select(["task_id", "executor_id"]))).toThrow(
      /missing column pool_capacity \(int32\) in tasks/,
    );
  });
});
