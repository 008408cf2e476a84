// The one place that reads @observablehq/runtime's private scheduling state, so a runtime upgrade breaks one
// file. Runtime 6.0.1 has no public "idle" signal: a redefinition or a generator's next value marks variables
// and schedules one compute pass on the next animation frame (runtime.js: runtime_compute,
// runtime_computeNow). What this reads:
//   _computing    the promise of the scheduled or running pass, null when none is
//   _dirty        variables redefined since the last pass
//   _updates      variables to recompute in the next pass
//   _precomputes  paused generators to resume before the next pass
// And what computeInTask writes: _computing, as runtime_computeSoon does, with a pass that calls _computeNow.
// test/workspace/notebook/runtime-schedule.test.ts checks this against the real runtime: if an upgrade renames or
// re-purposes any of them, it fails there (and runtimeSchedule throws here) instead of settled() returning early.
import type { Runtime } from "@observablehq/runtime";
import { nextTask } from "./next-task";

export interface RuntimeSchedule {
  /** the compute pass scheduled or running, if any */
  computing: Promise<void> | null;
  /** variables and generators waiting for a pass */
  waiting: number;
}

interface Internals {
  _computing: Promise<void> | null;
  _computeNow: () => Promise<void>;
  _disposed: boolean;
  _dirty: Set<unknown>;
  _updates: Set<unknown>;
  _precomputes: unknown[];
}

export function runtimeSchedule(runtime: Runtime): RuntimeSchedule {
  const rt = runtime as unknown as Partial<Internals>;
  if (
    !("_computing" in rt) ||
    !(rt._dirty instanceof Set) ||
    !(rt._updates instanceof Set) ||
    !Array.isArray(rt._precomputes)
  )
    throw new Error(
      "@observablehq/runtime's scheduling internals changed (_computing, _dirty, _updates, _precomputes): update workspace/notebook/runtime-schedule.ts",
    );
  return {
    computing: rt._computing ?? null,
    waiting: rt._dirty.size + rt._updates.size + rt._precomputes.length,
  };
}

/**
 * How many computations of `variable` have begun (runtime.js variable_compute: `++variable._version`; a
 * computation whose version is no longer the variable's is stale, and what it returns or throws is ignored).
 */
export function variableVersion(variable: unknown): number {
  const v = (variable as { _version?: unknown } | null)?._version;
  if (typeof v !== "number")
    throw new Error(
      "@observablehq/runtime's variable internals changed (_version): update workspace/notebook/runtime-schedule.ts",
    );
  return v;
}

/**
 * Schedules the runtime's next compute pass a task from now, when none is scheduled yet, instead of on the next
 * animation frame (runtime.js runtime_computeSoon): an input's value let go from a timer or an event reaches its
 * dependents before the frame, which then draws them, rather than in that frame's callbacks, which leaves their
 * drawing to the frame after. Generators keep their one pull per frame.
 */
export function computeInTask(runtime: Runtime): void {
  const rt = runtime as unknown as Partial<Internals>;
  if (typeof rt._computeNow !== "function" || !("_computing" in rt))
    throw new Error(
      "@observablehq/runtime's scheduling internals changed (_computing, _computeNow): update workspace/notebook/runtime-schedule.ts",
    );
  if (rt._computing) return; // a pass is on its way already: the value joins it
  rt._computing = nextTask().then(() => (rt._disposed ? undefined : rt._computeNow!.call(rt)));
}
