// Whether a cell's new displayed value draws what the one on screen drew: plain data (Markdown text, a chart's
// spec and rows) compared by value, anything else (a DOM node, an input, a table, a function) by identity.
// <jb-output> skips the redraw of an equal value: a threshold that moves leaves many outputs as they were.

/** Values visited before giving up (and redrawing): comparing must stay cheaper than drawing. */
const MAX_VISITS = 200_000;
/** Nesting followed before giving up: a cycle, or data deeper than any chart's, is not walked off the stack. */
const MAX_DEPTH = 64;

export function sameDisplay(a: unknown, b: unknown): boolean {
  return same(a, b, { left: MAX_VISITS }, 0);
}

function isPlain(v: object): boolean {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function same(a: unknown, b: unknown, budget: { left: number }, depth: number): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (--budget.left < 0 || depth > MAX_DEPTH) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let k = 0; k < a.length; k++) if (!same(a[k], b[k], budget, depth + 1)) return false;
    return true;
  }
  if (ArrayBuffer.isView(a)) {
    if (!ArrayBuffer.isView(b) || a.constructor !== b.constructor || a instanceof DataView) return false;
    const x = a as unknown as ArrayLike<unknown>;
    const y = b as unknown as ArrayLike<unknown>;
    if (x.length !== y.length) return false;
    budget.left -= x.length;
    for (let k = 0; k < x.length; k++) if (!Object.is(x[k], y[k])) return false;
    return budget.left >= 0;
  }
  if (a instanceof Date) return b instanceof Date && a.getTime() === b.getTime();
  if (!isPlain(a) || !isPlain(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const k of keys) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    const [x, y] = [(a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]];
    if (!same(x, y, budget, depth + 1)) return false;
  }
  return true;
}
