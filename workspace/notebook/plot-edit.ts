// Writes an edit made in the plot form back into the cell's code: the fields of the n-th `plot({...})`
// call's object literal are replaced, added or removed; the rest of the code is left byte for byte.
import { CHANNELS, type FilterOp, type MarkName } from "./plot-spec";

export interface PlotFields {
  mark?: MarkName;
  x?: string | null;
  y?: string | null;
  fill?: string | null;
  stroke?: string | null;
  fx?: string | null;
  fy?: string | null;
  filter?: [string, FilterOp, string | number | boolean] | null;
}

const EDITABLE = ["mark", ...CHANNELS, "filter"] as const;

/** [start, end) of the object literal of the n-th `plot({` call, skipping strings and comments. */
export function findPlotObject(source: string, nth = 0): [number, number] | undefined {
  let seen = 0;
  const re = /\bplot\s*\(\s*\{/g;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    if (inStringOrComment(source, m.index)) continue;
    if (seen++ !== nth) continue;
    const open = m.index + m[0].length - 1;
    const close = matchBrace(source, open);
    return close === undefined ? undefined : [open, close + 1];
  }
  return undefined;
}

function inStringOrComment(s: string, at: number): boolean {
  let quote: string | null = null;
  for (let i = 0; i < at; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'" || c === "`") quote = c;
    else if (c === "/" && (s[i + 1] === "/" || s[i + 1] === "*")) {
      const end = s[i + 1] === "/" ? s.indexOf("\n", i) : s.indexOf("*/", i);
      if (end < 0 || end >= at) return true;
      i = s[i + 1] === "/" ? end : end + 1;
    }
  }
  return quote !== null;
}

function matchBrace(s: string, open: number): number | undefined {
  let depth = 0;
  let quote: string | null = null;
  for (let i = open; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'" || c === "`") quote = c;
    else if (c === "{" || c === "[" || c === "(") depth++;
    else if (c === "}" || c === "]" || c === ")") {
      depth--;
      if (depth === 0) return c === "}" ? i : undefined;
    }
  }
  return undefined;
}

/** The literal value of `key` when it is a plain string literal, else undefined. */
function keyRange(obj: string, key: string): [number, number] | undefined {
  const re = new RegExp(`([{,]\\s*)${key}\\s*:\\s*`, "g");
  for (let m = re.exec(obj); m; m = re.exec(obj)) {
    if (inStringOrComment(obj, m.index + 1)) continue;
    const start = m.index + m[1]!.length;
    let i = m.index + m[0].length;
    let depth = 0;
    let quote: string | null = null;
    for (; i < obj.length; i++) {
      const c = obj[i]!;
      if (quote) {
        if (c === "\\") i++;
        else if (c === quote) quote = null;
      } else if (c === '"' || c === "'" || c === "`") quote = c;
      else if (c === "{" || c === "[" || c === "(") depth++;
      else if (c === "}" || c === "]" || c === ")") {
        if (depth === 0) break;
        depth--;
      } else if (c === "," && depth === 0) break;
    }
    let end = i;
    if (obj[end] === ",") end++;
    while (obj[end] === " ") end++;
    return [start, end];
  }
  return undefined;
}

/** The source with the n-th plot({...}) call's fields set (null removes a field). */
export function setPlotFields(source: string, fields: PlotFields, nth = 0): string {
  const range = findPlotObject(source, nth);
  if (!range) throw new Error(`no plot({...}) call #${nth + 1} in this cell`);
  let obj = source.slice(range[0], range[1]);
  for (const key of EDITABLE) {
    if (!(key in fields)) continue;
    const value = fields[key];
    const existing = keyRange(obj, key);
    const text =
      value === null || value === undefined || value === "" ? "" : `${key}: ${JSON.stringify(value)}`;
    if (existing) {
      const trailing = obj.slice(existing[0], existing[1]).match(/,\s*$/) ? ", " : "";
      obj = obj.slice(0, existing[0]) + (text ? text + trailing : "") + obj.slice(existing[1]);
    } else if (text) {
      const body = obj.slice(1, -1).trimEnd();
      obj = `{${body}${body.length && !body.endsWith(",") ? ", " : ""}${text}}`;
    }
  }
  obj = obj.replace(/,\s*}$/, "}");
  return source.slice(0, range[0]) + obj + source.slice(range[1]);
}
