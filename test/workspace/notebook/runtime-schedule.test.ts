// runtime-schedule.ts reads @observablehq/runtime's private scheduling state; these tests pin what it relies on
// against the real runtime, so an upgrade that changes it fails here, not as a settled() that returns too early.
import { Runtime } from "@observablehq/runtime";
import { describe, expect, it } from "vitest";
import {
  computeInTask,
  runtimeSchedule,
  variableVersion,
} from "../../../workspace/notebook/runtime-schedule";

/** Waits out the scheduled pass and what it started. */
async function pass(rt: Runtime) {
  await runtimeSchedule(rt).computing;
  await new Promise((r) => setTimeout(r, 10));
}

/** A runtime with one module; `seen` collects what the observed variables fulfil. */
function setup() {
  const rt = new Runtime();
  const seen: number[] = [];
  return { rt, m: rt.module(), seen, observe: { fulfilled: (v: number) => seen.push(v) } };
}

/** A generator g that yields 1, then 2 once `release` is called, and d = g * 10 observed into `seen`. */
function gatedGenerator() {
  const { rt, m, seen, observe } = setup();
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  m.variable().define("g", [], async function* () {
    yield 1;
    await gate;
    yield 2;
  });
  m.variable(observe).define("d", ["g"], (g: number) => g * 10);
  return { rt, seen, release };
}

const idle = (rt: Runtime) => {
  const s = runtimeSchedule(rt);
  return s.computing === null && s.waiting === 0;
};

describe("runtimeSchedule", () => {
  it("sees a pass scheduled by a definition, and nothing once it ran", async () => {
    const { rt, m, seen, observe } = setup();
    m.variable(observe).define("a", [], () => 1);
    const s = runtimeSchedule(rt);
    expect(s.computing).toBeInstanceOf(Promise);
    expect(s.waiting).toBeGreaterThan(0);
    await pass(rt);
    expect(seen).toEqual([1]);
    expect(idle(rt)).toBe(true);
    rt.dispose();
  });

  it("sees a redefinition waiting, and its dependents computed once the pass ran", async () => {
    const { rt, m, seen, observe } = setup();
    const a = m.variable().define("a", [], () => 1);
    m.variable(observe).define("b", ["a"], (x: number) => x * 10);
    await pass(rt);
    expect(idle(rt)).toBe(true);
    a.define("a", [], () => 2);
    expect(idle(rt)).toBe(false);
    await pass(rt);
    expect(seen).toEqual([10, 20]);
    expect(idle(rt)).toBe(true);
    rt.dispose();
  });

  it("sees the dependents of a generator's next value waiting for a pass", async () => {
    const { rt, seen, release } = gatedGenerator();
    await pass(rt);
    expect(seen).toEqual([10]);
    release();
    // Microtasks only: the generator's value arrives and schedules a pass, which cannot run yet.
    let sawWaiting = false;
    for (let k = 0; k < 50; k++) {
      await Promise.resolve();
      if (!idle(rt)) sawWaiting = true;
    }
    expect(seen).toEqual([10]);
    expect(sawWaiting).toBe(true);
    for (let k = 0; k < 20 && !idle(rt); k++) await pass(rt);
    expect(seen).toEqual([10, 20]);
    rt.dispose();
  });

  it("names the file to update when the internals are gone", () => {
    expect(() => runtimeSchedule({} as Runtime)).toThrow(/internals changed.*runtime-schedule\.ts/);
    expect(() => computeInTask({} as Runtime)).toThrow(/internals changed.*runtime-schedule\.ts/);
  });

  it("computeInTask: a generator's next value joins the pass it scheduled, and its dependents compute there", async () => {
    const { rt, seen, release } = gatedGenerator();
    await pass(rt);
    for (let k = 0; k < 20 && !idle(rt); k++) await pass(rt);
    expect(idle(rt)).toBe(true);
    // as an input letting a value go does: the pass first, then the value
    computeInTask(rt);
    const scheduled = runtimeSchedule(rt).computing;
    expect(scheduled).toBeInstanceOf(Promise);
    release();
    for (let k = 0; k < 50; k++) await Promise.resolve();
    // the runtime's own scheduling found the pass on its way and joined it instead of asking for a frame
    expect(runtimeSchedule(rt).computing).toBe(scheduled);
    expect(seen).toEqual([10]);
    await scheduled;
    for (let k = 0; k < 20; k++) await Promise.resolve(); // the pass started d; its observer hears in microtasks
    expect(seen).toEqual([10, 20]);
    rt.dispose();
  });

  it("computeInTask leaves a pass already scheduled as it is", async () => {
    const { rt, m } = setup();
    m.variable().define("a", [], () => 1);
    const scheduled = runtimeSchedule(rt).computing;
    expect(scheduled).toBeInstanceOf(Promise);
    computeInTask(rt);
    expect(runtimeSchedule(rt).computing).toBe(scheduled);
    await pass(rt);
    rt.dispose();
  });

  it("variableVersion: a recompute begun while a run waits changes it, and the stale run's throw is ignored", async () => {
    const { rt, m } = setup();
    const seen: number[] = [];
    const errors: unknown[] = [];
    const a = m.variable().define("a", [], () => 1);
    let release!: () => void;
    let waiting!: () => void;
    const started = new Promise<void>((r) => (waiting = r));
    const codeRan: number[] = [];
    const b = m.variable({
      fulfilled: (v: number) => seen.push(v),
      rejected: (e: unknown) => errors.push(e),
    });
    b.define("b", ["a"], async (x: number) => {
      // as runtime.ts skipStale does: note the version, wait, stop if it changed
      const version = variableVersion(b);
      if (x === 1) {
        const gate = new Promise<void>((r) => (release = r));
        waiting();
        await gate;
      }
      if (variableVersion(b) !== version) throw new Error("superseded");
      codeRan.push(x);
      return x * 10;
    });
    await started;
    const before = variableVersion(b);
    a.define("a", [], () => 2);
    await pass(rt);
    release();
    await pass(rt);
    expect(variableVersion(b)).toBeGreaterThan(before);
    expect(codeRan).toEqual([2]);
    expect(seen).toEqual([20]);
    expect(errors).toEqual([]);
    rt.dispose();
  });

  it("variableVersion refuses a variable without the runtime's version", () => {
    expect(() => variableVersion({})).toThrow(/_version/);
  });
});
