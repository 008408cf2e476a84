// A differential icicle of a differentialProfile's merged call tree: one rect per call path, as wide as its
// inclusive time (the mean of both sides by default, so a path that vanished or appeared still shows), one row
// per depth, filled by how much the path's inclusive time changed (red slower, blue faster), both sides' times in
// its title. Brendan Gregg's differential flame graphs colour by the change the same way; they size frames by the
// second profile only, which hides what vanished (his "negated" graph is the workaround).
import { chartSpec, type ChartSpec } from "../common/chart-spec";
import { shortMethodName } from "../androscope/trace-names";
import type { DifferentialNode, DifferentialProfile } from "./differential-profile";

export interface DifferentialFlamePlotOptions {
  /** which side's inclusive time sets a rect's width: "mean" (default), "baseline" or "candidate" */
  width?: "mean" | "baseline" | "candidate";
  /** paths narrower than this share of the root's width are left out (with their callees); default 0.002 */
  minShare?: number;
}

/** Thresholds of the relative change in inclusive time, %, and their colours (RdBu, reversed: red is slower). */
const STEPS = [-50, -20, -5, 5, 20, 50];
const COLOURS = ["#2166ac", "#67a9cf", "#d1e5f0", "#f7f7f7", "#fddbc7", "#ef8a62", "#b2182b"];

export interface FlameRow {
  id: number;
  depth: number;
  x1: number;
  x2: number;
  /** relative change of inclusive time, %: +Infinity for a path only the candidate has, -100 for a vanished one */
  change: number;
  label: string;
  title: string;
  /** wide enough for its label */
  wide: boolean;
}

const UNIT_LABEL = { frame: "per frame", second: "per second", run: "per run" } as const;

/** The rects of the icicle, preorder, children left to right inside their parent (largest first). */
export function differentialFlameRows(
  profile: DifferentialProfile,
  options: DifferentialFlamePlotOptions = {},
): FlameRow[] {
  const which = options.width ?? "mean";
  if (which !== "mean" && which !== "baseline" && which !== "candidate")
    throw new Error(`invalid width: ${String(which)} (expected mean, baseline or candidate)`);
  const minShare = options.minShare ?? 0.002;
  if (!(minShare >= 0 && minShare < 1)) throw new Error(`invalid minShare: ${minShare} (expected 0 to 1)`);
  const width = (n: DifferentialNode) =>
    which === "mean"
      ? (n.baseline.inclusive + n.candidate.inclusive) / 2
      : which === "baseline"
        ? n.baseline.inclusive
        : n.candidate.inclusive;
  const root = profile.tree[0];
  if (!root) return [];
  const total = width(root);
  const next = new Map<number, number>();
  const shown = new Set<number>();
  const rows: FlameRow[] = [];
  const per = UNIT_LABEL[profile.per];
  for (const n of profile.tree) {
    const w = width(n);
    if (n.parent !== null && (!shown.has(n.parent) || w <= 0 || w < minShare * total)) continue;
    shown.add(n.id);
    const x1 = n.parent === null ? 0 : next.get(n.parent)!;
    if (n.parent !== null) next.set(n.parent, x1 + w);
    next.set(n.id, x1);
    const [b, c] = [n.baseline.inclusive, n.candidate.inclusive];
    const change = b > 0 ? ((c - b) / b) * 100 : c > 0 ? Infinity : 0;
    const label = shortMethodName(n.name);
    const ms = (v: number) => (v / 1e6).toFixed(3);
    const changeText = Number.isFinite(change) ? `${change >= 0 ? "+" : ""}${change.toFixed(1)} %` : "new";
    rows.push({
      id: n.id,
      depth: n.depth,
      x1: x1 / 1e6,
      x2: (x1 + w) / 1e6,
      change,
      label,
      title:
        `${n.name}\ninclusive ${per}: baseline ${ms(b)} ms, candidate ${ms(c)} ms (${changeText})` +
        `\nself ${per}: baseline ${ms(n.baseline.self)} ms, candidate ${ms(n.candidate.self)} ms` +
        `\ncalls ${per}: baseline ${n.baseline.calls.toFixed(2)}, candidate ${n.candidate.calls.toFixed(2)}`,
      // room for the label: about 6.5 px a character on a ~640 px wide plot
      wide: total > 0 && (w / total) * 640 > 6.5 * (label.length + 1),
    });
  }
  return rows;
}

/** The differential icicle as a chart spec (rect marks: x by cumulative inclusive time, y by depth). */
export function differentialFlamePlot(
  profile: DifferentialProfile,
  options: DifferentialFlamePlotOptions = {},
): ChartSpec {
  const rows = differentialFlameRows(profile, options).map((r) => ({
    ...r,
    y1: r.depth,
    y2: r.depth + 1,
    // Plot's threshold scale takes finite values: a new path is past the last step either way.
    fill: Number.isFinite(r.change) ? r.change : 1e9,
  }));
  const depths = Math.max(1, ...rows.map((r) => r.depth + 1));
  const which = options.width ?? "mean";
  const labels = rows.filter((r) => r.wide).map((r) => ({ ...r, y: r.depth + 0.5 }));
  return chartSpec("differentialFlamePlot", {
    mark: "rect",
    data: rows,
    options: { x1: "x1", x2: "x2", y1: "y1", y2: "y2", fill: "fill", stroke: "white", title: "title" },
    title: `Differential profile, ${profile.runs.baseline.join(", ")} → ${profile.runs.candidate.join(", ")}`,
    height: 60 + 22 * depths,
    layout: {
      marginLeft: 10,
      x: {
        label: `inclusive time ${UNIT_LABEL[profile.per]} (ms, ${which === "mean" ? "mean of both sides" : which})`,
        grid: true,
      },
      y: { axis: null, domain: [depths, 0] },
      color: {
        type: "threshold",
        domain: STEPS,
        range: COLOURS,
        label: "inclusive time, candidate vs baseline (%)",
        legend: true,
      },
    },
    over: [
      {
        mark: "text",
        data: labels,
        options: { x: "x1", y: "y", text: "label", textAnchor: "start", dx: 3, pointerEvents: "none" },
      },
    ],
  });
}
