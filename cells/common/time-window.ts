// One time window for every cell that takes one: [t0, t1] in ns on the trace's clock, checked by one rule.
// |t| < 2^52 keeps every time and every sum of two exact in a double (the call timeline's grid arithmetic).

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
