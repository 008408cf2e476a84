// Builds render_ops tables for the DRAW tests from readable rows.
import { makeBundleTable } from "../../../bundle/table-builder";

export interface OpRow {
  frame?: number;
  view: number;
  parent?: number | null;
  cls?: string;
  op: "measure" | "layout" | "draw" | string;
  start: number;
  dur: number;
  rect?: [number, number, number, number];
  bg?: boolean;
  vis?: string;
  ui?: boolean;
  hw?: boolean;
  xml?: string | null;
  layout?: string | null;
  /** a draw replayed from the view's RenderNode (agent 3) */
  replayed?: boolean;
}

export function renderOps(rows: OpRow[]) {
  return makeBundleTable("render_ops", "r1", {
    frame: rows.map((r) => r.frame ?? 0),
    view_id: rows.map((r) => r.view),
    parent_id: rows.map((r) => r.parent ?? null),
    view_class: rows.map((r) => r.cls ?? "android.view.View"),
    op: rows.map((r) => r.op),
    start: rows.map((r) => BigInt(Math.round(r.start))),
    dur: rows.map((r) => BigInt(Math.round(r.dur))),
    ui_thread: rows.map((r) => r.ui ?? true),
    hw_accelerated: rows.map((r) => r.hw ?? true),
    left: rows.map((r) => (r.rect ?? [0, 0, 0, 0])[0]),
    top: rows.map((r) => (r.rect ?? [0, 0, 0, 0])[1]),
    width: rows.map((r) => (r.rect ?? [0, 0, 0, 0])[2]),
    height: rows.map((r) => (r.rect ?? [0, 0, 0, 0])[3]),
    has_background: rows.map((r) => r.bg ?? false),
    visibility: rows.map((r) => r.vis ?? "visible"),
    xml_id: rows.map((r) => r.xml ?? null),
    layout_file: rows.map((r) => r.layout ?? null),
    ...(rows.some((r) => r.replayed !== undefined) ? { replayed: rows.map((r) => r.replayed ?? false) } : {}),
  });
}
