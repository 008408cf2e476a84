// SurfaceFlinger's FrameTimeline compared (Perfetto's actual surface frames): per layer, the share of frames of
// each jank type and of each present type (names as Perfetto gives them, docs/perfetto.md).
import type { Table } from "apache-arrow";
import { int64, optional, readColumns, stringCodes, utf8 } from "../../bundle/read-columns";
import type { MetricBuilder, MetricSpec } from "./metric-builder";

export function frameTimelineChanges(frameTimeline: Table | undefined, builder: MetricBuilder): void {
  if (!frameTimeline || frameTimeline.numRows === 0) return;
  const c = readColumns(frameTimeline, "frame_timeline", {
    run_id: utf8(),
    scope: utf8(),
    timeline: utf8(),
    ts: int64(),
    layer_name: optional(utf8()),
    jank_type: optional(utf8()),
    present_type: optional(utf8()),
  });
  const runs: string[] = [];
  const run = stringCodes(c.run_id, runs);
  // every actual surface frame of a layer is one unit of each of the layer's type shares
  const rows: [string, string, number, string, string][] = [];
  const types = new Map<string, Set<string>>();
  for (let i = 0; i < frameTimeline.numRows; i++) {
    if (c.scope.get(i) !== "surface" || c.timeline.get(i) !== "actual") continue;
    const layer = String(c.layer_name?.get(i) ?? "?");
    const jank = String(c.jank_type?.get(i) ?? "Unknown");
    const present = String(c.present_type?.get(i) ?? "Unknown Present");
    rows.push([runs[run[i]!]!, layer, c.ts[i]!, jank, present]);
    const t = types.get(layer) ?? new Set<string>();
    for (const j of jank.split(", ")) t.add(`jank type ${j}`);
    t.add(`present ${present}`);
    types.set(layer, t);
  }
  const spec = (layer: string, type: string): MetricSpec => ({
    analysis: "frame-timeline",
    key: `frame-timeline:${layer}:${type}`,
    subject: layer,
    measure: `share of frames: ${type}`,
    unit: "share",
    statistic: { kind: "mean" },
    scale: "difference",
    // an on-time frame is the good outcome; every other type is not
    better: type === "jank type None" || type === "present On-time Present" ? "higher" : "lower",
  });
  for (const [r, layer, ts, jank, present] of rows) {
    const has = new Set([...jank.split(", ").map((j) => `jank type ${j}`), `present ${present}`]);
    for (const type of types.get(layer)!) builder.add(spec(layer, type), r, ts, has.has(type) ? 1 : 0);
  }
}
