// The one classifier of a cell's displayed value, shared by the page (jb-output), publish and the snapshot, so
// the three agree on what a value is; the order of the tests lives here only (a timeline and a brush are also
// inputs, a brush is also Plot options, a Plot spec is an object with a marker, an input is also a DOM node).
import type * as Plot from "@observablehq/plot";
import { isMarkdown, type MarkdownValue } from "./markdown-value";
import { isBrushX, isPlotSpec, type BrushX, type PlotSpec } from "../../charts/plot-spec";
import { isTimelineView, type TimelineView } from "./timeline-view";

/** An Arrow table, or anything shaped like one (rows, a schema with fields, columns by name). */
export interface TableLike {
  numRows: number;
  schema: { fields: { name: string; type: unknown }[] };
  getChild(name: string): { get(i: number): unknown } | null;
}

/** An input element: a real @observablehq/inputs form, or the headless runner's stand-in. */
export interface InputLike {
  addEventListener: unknown;
  value: unknown;
}

export type Display =
  | { kind: "timeline"; value: TimelineView }
  | { kind: "brush"; value: BrushX }
  | { kind: "plot-spec"; value: PlotSpec & { __plotSpec: true } }
  | { kind: "plot-options"; value: Plot.PlotOptions }
  | { kind: "table"; value: TableLike }
  | { kind: "markdown"; value: MarkdownValue }
  | { kind: "input"; value: InputLike }
  | { kind: "node"; value: { nodeType: number; nodeName?: string; outerHTML?: string } }
  | { kind: "value"; value: unknown };

export function isTable(v: unknown): v is TableLike {
  const t = v as { numRows?: unknown; schema?: { fields?: unknown }; getChild?: unknown } | null;
  return (
    !!t &&
    typeof t.numRows === "number" &&
    Array.isArray(t.schema?.fields) &&
    typeof t.getChild === "function"
  );
}

export function classifyDisplay(v: unknown): Display {
  if (typeof v !== "object" || v === null) return { kind: "value", value: v };
  if (isTimelineView(v)) return { kind: "timeline", value: v };
  if (isBrushX(v)) return { kind: "brush", value: v };
  if (isPlotSpec(v)) return { kind: "plot-spec", value: v };
  if (Array.isArray((v as { marks?: unknown }).marks))
    return { kind: "plot-options", value: v as Plot.PlotOptions };
  if (isTable(v)) return { kind: "table", value: v };
  if (isMarkdown(v)) return { kind: "markdown", value: v };
  const o = v as Record<string, unknown>;
  if (typeof o.addEventListener === "function" && "value" in o)
    return { kind: "input", value: o as unknown as InputLike };
  if (typeof o.nodeType === "number")
    return { kind: "node", value: o as { nodeType: number; nodeName?: string; outerHTML?: string } };
  return { kind: "value", value: v };
}
