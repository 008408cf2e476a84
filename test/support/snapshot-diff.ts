// Comparing two notebook value snapshots (snapshot.ts), naming each path where they differ: exactly, or numbers
// within a relative tolerance where two JavaScript engines' libm differ (Math.exp, log, pow in their last bits).
/** Paths where two JSON values differ (at most `limit`), e.g. `cells[12].values.groups[0].mqMs: 1200 vs 1200.0000001`. */
export function differences(
  a: unknown,
  b: unknown,
  path = "",
  out: string[] = [],
  limit = 20,
  [first, second] = ["browser", "headless"],
  relativeTolerance = 0,
): string[] {
  if (out.length >= limit) return out;
  if (Object.is(a, b)) return out;
  if (
    typeof a === "number" &&
    typeof b === "number" &&
    Math.abs(a - b) <= relativeTolerance * Math.max(Math.abs(a), Math.abs(b))
  )
    return out;
  const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
  if (kind(a) !== kind(b) || typeof a !== "object" || a === null) {
    out.push(
      `${path || "(root)"}: ${JSON.stringify(a)?.slice(0, 120)} vs ${JSON.stringify(b)?.slice(0, 120)}`,
    );
    return out;
  }
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) out.push(`${path}: length ${a.length} vs ${other.length}`);
    for (let i = 0; i < Math.min(a.length, other.length); i++)
      differences(a[i], other[i], `${path}[${i}]`, out, limit, [first, second], relativeTolerance);
    return out;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
    if (!(k in x) || !(k in y)) out.push(`${path}.${k}: only in the ${k in x ? first : second} snapshot`);
    else differences(x[k], y[k], `${path}.${k}`, out, limit, [first, second], relativeTolerance);
  }
  return out;
}
