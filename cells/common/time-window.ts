// One time window for every cell that takes one: [t0, t1] in ns on the trace's clock, checked by one rule.
// |t| < 2^52 keeps every time and every sum of two exact in a double (the call timeline's grid arithmetic).

/** The width and margins of every chart linked to a timeline (its track names take the left margin), so the call
 * timeline, counters and heap charts put the same time at the same x. 760 px: the notebook's plot width. */
export const TIME_AXIS = { width: 760, left: 160, right: 20 } as const;

/** [t0, t1] ns, t0 <= t1, both finite and below 2^52 in magnitude. */
export type TimeWindow = readonly [t0: number, t1: number];

/** The window as numbers (bigints and numeric strings accepted), or null when none is given; throws when invalid. */
export function timeWindow(w: readonly [unknown, unknown] | null | undefined): TimeWindow | null {
  if (!w) return null;
  const [t0, t1] = [Number(w[0]), Number(w[1])];
  if (!(
    Number.isFinite(t0) &&
    Number.isFinite(t1) &&
    t0 <= t1 &&
    Math.abs(t0) < 2 ** 52 &&
    Math.abs(t1) < 2 ** 52
  ))
    throw new Error(`invalid window: [${w[0]}, ${w[1]}] (expected [t0, t1] ns with t0 <= t1, |t| < 2^52)`);
  return [t0, t1];
}

/** The narrowest window zooming reaches: 1 µs (a few pixels per ns would show nothing the trace has). */
export const MIN_SPAN_NS = 1_000;

/** The window moved (never resized) to lie inside bounds where it can; a wider one becomes bounds. */
export function clampWindow(w: TimeWindow, bounds?: TimeWindow | null): TimeWindow {
  if (!bounds) return w;
  const span = w[1] - w[0];
  if (span >= bounds[1] - bounds[0]) return bounds;
  if (w[0] < bounds[0]) return [bounds[0], bounds[0] + span];
  if (w[1] > bounds[1]) return [bounds[1] - span, bounds[1]];
  return w;
}

/**
 * Zoom by `factor` (< 1 in, > 1 out) about the time `anchor`: the anchor keeps its place in the window (the
 * point under the cursor stays under it, as in Perfetto UI), unless bounds push the window back inside.
 */
export function zoomWindow(
  w: TimeWindow,
  factor: number,
  anchor: number,
  bounds?: TimeWindow | null,
): TimeWindow {
  if (!(factor > 0 && Number.isFinite(factor))) throw new Error(`invalid zoom factor: ${String(factor)}`);
  const span = w[1] - w[0];
  const next = Math.max(MIN_SPAN_NS, span * factor);
  const share = span > 0 ? (anchor - w[0]) / span : 0.5;
  const t0 = anchor - share * next;
  return clampWindow([t0, t0 + next], bounds);
}

/** Pan by dt ns (positive: later), kept inside bounds. */
export function panWindow(w: TimeWindow, dt: number, bounds?: TimeWindow | null): TimeWindow {
  return clampWindow([w[0] + dt, w[1] + dt], bounds);
}
