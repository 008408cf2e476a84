// Each loaded run's start (ns on its own clock), for tables that show moments from the run's start rather than
// from boot: the run loader records it when a run loads (workspace/db/run-origin.ts) and drops it when it goes.
const origins = new Map<string, number>();

export function setTimeOrigin(runId: string, ns: number | null): void {
  if (ns === null || !Number.isFinite(ns)) origins.delete(runId);
  else origins.set(runId, ns);
}

/**
 * The start of a row's run: its `run_id`'s when the row has one; without one, the only run's when exactly one is
 * loaded (else none: which run's start a row counts from would be a guess).
 */
export function timeOrigin(runId?: unknown): number | undefined {
  if (typeof runId === "string") return origins.get(runId);
  return origins.size === 1 ? [...origins.values()][0] : undefined;
}

/** Every known run's start, to hand to another thread (the headless runner's cell worker). */
export function timeOrigins(): [runId: string, ns: number][] {
  return [...origins];
}
