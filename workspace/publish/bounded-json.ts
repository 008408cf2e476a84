// JSON text of a value with a size limit that is enforced while it is written: a 200 MB cell value never becomes
// a 200 MB (or, with escaping, an "Invalid string length") string on its way into a report.

class TooBig extends Error {}

/**
 * JSON.stringify(v) (bigints as strings) when it fits in `maxChars`, else null. The replacer counts what each
 * key and primitive adds, so the work stops soon after the limit instead of after the whole value.
 */
export function boundedJson(v: unknown, maxChars: number, indent = 0): string | null {
  let size = 0;
  const replacer = (key: string, x: unknown) => {
    const value = typeof x === "bigint" ? x.toString() : x;
    size += key.length + 4 + indent;
    if (typeof value === "string") size += value.length + 2;
    else if (typeof value === "number" || typeof value === "boolean") size += 24;
    if (size > maxChars) throw new TooBig();
    return value;
  };
  try {
    const text = JSON.stringify(v, replacer, indent);
    return text !== undefined && text.length > maxChars ? null : (text ?? null);
  } catch (e) {
    if (e instanceof TooBig || (e instanceof RangeError && /string length/i.test(e.message))) return null;
    throw e;
  }
}

/** A short description of a value too big to embed: its type and size. */
export function describeValue(v: unknown): string {
  if (typeof v === "string") return `a string of ${v.length.toLocaleString("en-US")} characters`;
  if (Array.isArray(v)) return `an array of ${v.length.toLocaleString("en-US")} items`;
  if (ArrayBuffer.isView(v))
    return `a ${v.constructor.name} of ${v.byteLength.toLocaleString("en-US")} bytes`;
  const t = v as { numRows?: unknown; numCols?: unknown } | null;
  if (t && typeof t === "object" && typeof t.numRows === "number")
    return `a table of ${t.numRows.toLocaleString("en-US")} rows`;
  if (v && typeof v === "object")
    return `an object with ${Object.keys(v).length.toLocaleString("en-US")} keys`;
  return typeof v;
}
