// One equality for a chosen value, shared by selectable plots (plot-spec.ts) and the notebook's inputs.
/**
 * Are two input values the same choice? Primitives by identity (a bigint equals the number it converts to, as plots
 * turn bigints into numbers), Dates by time, arrays (brush windows, multiple choices) element by element.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b || (Number.isNaN(a) && Number.isNaN(b))) return true;
  if ((typeof a === "bigint" || typeof b === "bigint") && (typeof a === "number" || typeof b === "number"))
    return Number(a) === Number(b);
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  return false;
}
