// Writes an edit made in the plot form back into the cell's code: the fields of the n-th `plot({...})`
// call's object literal are replaced, added or removed; the rest of the code is left byte for byte. A paper
// chart (a cell's chart function, e.g. `jb.diagdroid.anomalousGroupsPlot(report)`) is edited by wrapping its call
// as `plot({...jb.diagdroid.anomalousGroupsPlot(report), mark: "dot"})`: the chart keeps everything the function
// made (data, layers, layout), the literal holds the edit, and later edits change that literal.
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

/** The index of the bracket closing the one at `open` (any of {[( ), skipping strings; undefined when unbalanced. */
function matchClose(s: string, open: number): number | undefined {
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
      if (depth === 0) return i;
    }
  }
  return undefined;
}

function matchBrace(s: string, open: number): number | undefined {
  const close = matchClose(s, open);
  return close !== undefined && s[close] === "}" ? close : undefined;
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
  // A literal spreading a chart's spec cannot drop a field the spread brings: it is overridden with null instead.
  const spreads = /^\{\s*\.\.\./.test(obj);
  for (const key of EDITABLE) {
    if (!(key in fields)) continue;
    const value = fields[key];
    const existing = keyRange(obj, key);
    const cleared = value === null || value === undefined || value === "";
    const text = cleared ? (spreads ? `${key}: null` : "") : `${key}: ${JSON.stringify(value)}`;
    if (existing) {
      const trailing = obj.slice(existing[0], existing[1]).match(/,\s*$/) ? ", " : "";
      obj = obj.slice(0, existing[0]) + (text ? text + trailing : "") + obj.slice(existing[1]);
    } else if (text) {
      const body = obj.slice(1, -1).trimEnd();
      obj = `{${body}${body.length && !body.endsWith(",") ? ", " : ""}${text}}`;
    }
  }
  // The literal's title names what the chart showed: once a channel shows another column it would mislabel the
  // chart, so it goes (a spread chart function's own title names the analysis, and stays).
  const title = CHANNELS.some((c) => c in fields) ? keyRange(obj, "title") : undefined;
  if (title) {
    const trailing = obj.slice(title[0], title[1]).match(/,\s*$/) ? ", " : "";
    obj = obj.slice(0, title[0]) + (spreads ? `title: null${trailing}` : "") + obj.slice(title[1]);
  }
  obj = obj.replace(/,\s*}$/, "}");
  return source.slice(0, range[0]) + obj + source.slice(range[1]);
}

/** Where a displayed plot's edits go: the n-th plot({...}) literal, or the n-th call of a chart function. */
export type PlotTarget = { literal: number } | { origin: string; call: number };

/** The edit target of each displayed value of a cell (undefined for what is not an editable plot), in order. */
export function plotTargets(displays: readonly unknown[]): (PlotTarget | undefined)[] {
  let literal = 0;
  const calls = new Map<string, number>();
  return displays.map((d) => {
    const spec = d as { __plotSpec?: boolean; __plotCall?: boolean; origin?: string } | null;
    if (typeof spec !== "object" || spec === null || !spec.__plotSpec) return undefined;
    if (spec.__plotCall || !spec.origin) return { literal: literal++ };
    const call = calls.get(spec.origin) ?? 0;
    calls.set(spec.origin, call + 1);
    return { origin: spec.origin, call };
  });
}

/** The source with a displayed plot's fields set: its literal edited, or its chart call wrapped in one. */
export function editPlot(source: string, target: PlotTarget, fields: PlotFields): string {
  if ("literal" in target) return setPlotFields(source, fields, target.literal);
  const literals: [number, number][] = [];
  for (let r = findPlotObject(source, 0); r; r = findPlotObject(source, literals.length)) literals.push(r);
  const re = new RegExp(`[\\w$.]*\\b${target.origin}\\s*\\(`, "g");
  let seen = 0;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    // Calls already wrapped in a literal display as that literal; they are not this call.
    if (inStringOrComment(source, m.index) || literals.some(([a, b]) => m!.index > a && m!.index < b))
      continue;
    if (seen++ !== target.call) continue;
    const close = matchClose(source, m.index + m[0].length - 1);
    if (close === undefined) break;
    const call = source.slice(m.index, close + 1);
    const wrapped = source.slice(0, m.index) + `plot({...${call}})` + source.slice(close + 1);
    const nth = literals.filter(([a]) => a < m!.index).length;
    return setPlotFields(wrapped, fields, nth);
  }
  throw new Error(`no call #${target.call + 1} of ${target.origin}(...) in this cell`);
}
