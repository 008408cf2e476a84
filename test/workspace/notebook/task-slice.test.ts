// task-slice.ts lets steps run on in the task that started them until SLICE_MS is spent, then gives the next one a
// task of its own. The clock here is performance.now() stubbed, so "spent" is what the test says, not the machine.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { nextTask } from "../../../workspace/notebook/next-task";
import { SLICE_MS, yieldWhenSliceSpent } from "../../../workspace/notebook/task-slice";

let clock = 0;
beforeEach(async () => {
  vi.spyOn(performance, "now").mockImplementation(() => clock);
  // any slice an earlier test left open ends with the task its marker was posted behind
  await nextTask();
  await nextTask();
});
afterEach(() => vi.restoreAllMocks());

/** Did `p` settle within microtasks alone (no task ran before it)? */
async function settlesInThisTask(p: Promise<void>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  let timerRan = false;
  const timer = setTimeout(() => (timerRan = true), 0);
  for (let i = 0; i < 20 && !done; i++) await Promise.resolve();
  clearTimeout(timer);
  const inThisTask = done && !timerRan;
  await p;
  return inThisTask;
}

describe("yieldWhenSliceSpent", () => {
  it("runs steps in the task that started them while the slice has time left", async () => {
    clock = 100;
    for (let i = 0; i < 5; i++) {
      expect(await settlesInThisTask(yieldWhenSliceSpent())).toBe(true);
      clock += (SLICE_MS - 1) / 5; // the five steps together stay under the slice
    }
  });

  it("gives the step after a spent slice a task of its own, which starts a fresh slice", async () => {
    clock = 100;
    expect(await settlesInThisTask(yieldWhenSliceSpent())).toBe(true);
    clock += SLICE_MS; // the first step took the whole slice
    expect(await settlesInThisTask(yieldWhenSliceSpent())).toBe(false);
    // in the new task, the slice starts again
    clock += SLICE_MS / 2;
    expect(await settlesInThisTask(yieldWhenSliceSpent())).toBe(true);
    clock += SLICE_MS / 2;
    expect(await settlesInThisTask(yieldWhenSliceSpent())).toBe(false);
  });

  it("gives a step expected to be long a task of its own, though the slice has barely begun", async () => {
    clock = 100;
    expect(await settlesInThisTask(yieldWhenSliceSpent())).toBe(true);
    clock += 1;
    // what it took last time does not fit in what is left of the slice
    expect(await settlesInThisTask(yieldWhenSliceSpent(SLICE_MS - 1))).toBe(false);
    // a fresh slice: the same step fits now, and a short one after it does not
    expect(await settlesInThisTask(yieldWhenSliceSpent(SLICE_MS - 1))).toBe(true);
    clock += SLICE_MS - 1;
    expect(await settlesInThisTask(yieldWhenSliceSpent(1))).toBe(false);
  });

  it("ends a slice with its task: a step in a later task has the whole slice, however late it comes", async () => {
    clock = 100;
    expect(await settlesInThisTask(yieldWhenSliceSpent())).toBe(true);
    await nextTask();
    await nextTask();
    clock += 60_000;
    expect(await settlesInThisTask(yieldWhenSliceSpent())).toBe(true);
  });

  it("never lets a run of steps go past one slice without a task boundary, whatever each step costs", async () => {
    // brute force: random step costs; between two yields, the steps' total time stays under a slice plus one step
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 * SLICE_MS;
    clock = 0;
    let sinceYield = 0;
    let longestStep = 0;
    for (let i = 0; i < 200; i++) {
      const yielded = !(await settlesInThisTask(yieldWhenSliceSpent()));
      if (yielded) sinceYield = 0;
      const cost = random();
      longestStep = Math.max(longestStep, cost);
      clock += cost;
      sinceYield += cost;
      expect(sinceYield).toBeLessThan(SLICE_MS + longestStep);
    }
  });
});
