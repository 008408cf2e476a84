// DRAW benchmarks (docs/budgets.md) on seeded synthetic runs: UI-like view trees (a decor view, an action
// bar, a list of rows with an icon and two texts, sometimes a background GridView covered by its cells
// (FaceQ) and off-screen submenus (PicsPlay)), one frame per interaction, plus uniform random rectangles.
//
// Benchmarks:
// - overdraw depth, 10,000 frames × 100 views at 1080×2400 (budget 1 s), on UI-like frames and on uniform
//   random rectangles (the sweep's worst case: ~200 distinct x edges per frame). Peer: a per-pixel raster
//   (depth buffer incremented over each clipped rectangle, then a histogram pass), timed on 20 of the
//   frames and scaled × 500 to 10,000 frames (the full raster would take minutes per run).
// - diagnosis of 10,000 interactions (budget 2 s): Table I/II features (incl. per-frame overdraw and visible
//   pixels), correlations, BIC hill-climbing structure, Algorithm 1, contributions and RCS. Preprocessing
//   (render_ops → typed trace) is timed separately, as is RES over the same trace.
import type { Table } from "apache-arrow";
import { bundleTableFromRows, makeBundleTable } from "../bundle/table-builder";
import { overdrawDepth, type Rect } from "../cells/draw/overdraw-depth";
import { preprocessRenderOps, type RenderTrace } from "../cells/draw/render-trace";
import { renderingEfficiency } from "../cells/draw/rendering-efficiency";
import { rootCauses } from "../cells/draw/root-cause";
import { userInteractions } from "../cells/draw/user-interactions";
import { timeMs, type Benchmark } from "./harness";
import type { AgentRecord } from "../collectors/agent/protocol";
import { mulberry32 } from "../collectors/simulator/random";
export const SCREEN = { width: 1080, height: 2400 };

export const rng = mulberry32;

interface View {
  id: number;
  parent: number | null;
  cls: string;
  rect: [number, number, number, number];
  bg: boolean;
  vis: RenderOpRow["visibility"];
  children: View[];
  cost: number; // own draw cost, ns
}

/** A render_ops row as the agent logs it (column names as in bundle/schema.ts). */
type RenderOpRow = Omit<Extract<AgentRecord, { type: "op" }>, "type">;

/** One UI-like view tree of about `target` views. */
function tree(rand: () => number, target: number, nextId: () => number): View {
  const mk = (
    parent: View | null,
    cls: string,
    rect: [number, number, number, number],
    bg: boolean,
    cost: number,
    vis: View["vis"] = "visible",
  ): View => {
    const v: View = { id: nextId(), parent: parent?.id ?? null, cls, rect, bg, vis, children: [], cost };
    parent?.children.push(v);
    return v;
  };
  const heavy = () => (rand() < 0.05 ? 20 : 1) * (0.5 + rand());
  const root = mk(null, "com.android.internal.policy.DecorView", [0, 0, 1080, 2400], true, 30_000);
  const content = mk(root, "android.widget.LinearLayout", [0, 0, 1080, 2400], rand() < 0.3, 20_000);
  mk(content, "com.android.internal.widget.ActionBarView", [0, 0, 1080, 160], true, 50_000 * heavy());
  let count = 3;
  if (rand() < 0.3) {
    // FaceQ: a blue GridView fully covered by 3x3 image cells.
    const grid = mk(content, "android.widget.GridView", [0, 160, 1080, 1080], true, 80_000 * heavy());
    for (let i = 0; i < 9; i++)
      mk(
        grid,
        "android.widget.ImageView",
        [(i % 3) * 360, 160 + Math.floor(i / 3) * 360, 360, 360],
        false,
        150_000 * heavy(),
      );
    count += 10;
  }
  if (rand() < 0.3) {
    // PicsPlay: submenus laid out off screen to the right.
    for (let i = 0; i < 3; i++) {
      const sub = mk(
        content,
        "android.widget.LinearLayout",
        [1080 + i * 1080, 2000, 1080, 400],
        true,
        40_000 * heavy(),
      );
      mk(sub, "android.widget.TextView", [1080 + i * 1080, 2000, 540, 400], false, 60_000 * heavy());
      count += 2;
    }
  }
  const list = mk(content, "android.widget.ListView", [0, 160, 1080, 2240], rand() < 0.5, 40_000);
  count++;
  const rowH = 180 + Math.floor(rand() * 4) * 40;
  for (let y = 160; count < target; y += rowH) {
    const row = mk(list, "android.widget.RelativeLayout", [0, y, 1080, rowH], rand() < 0.6, 30_000 * heavy());
    mk(
      row,
      "android.widget.ImageView",
      [24, y + 16, rowH - 32, rowH - 32],
      false,
      200_000 * heavy(),
      rand() < 0.05 ? "invisible" : "visible",
    );
    mk(row, "android.widget.TextView", [rowH, y + 16, 1080 - rowH - 24, 60], false, 90_000 * heavy());
    mk(row, "android.widget.TextView", [rowH, y + 90, 1080 - rowH - 24, 50], false, 70_000 * heavy());
    count += 4;
  }
  return root;
}

/** The draw rectangles of `frames` UI-like frames of about `views` views each, in drawing order. */
export function uiFrames(frames: number, views: number, seed = 1): Rect[][] {
  const rand = rng(seed);
  let id = 0;
  const out: Rect[][] = [];
  for (let f = 0; f < frames; f++) {
    const rects: Rect[] = [];
    const walk = (v: View) => {
      if (rects.length < views)
        rects.push({ left: v.rect[0], top: v.rect[1], width: v.rect[2], height: v.rect[3] });
      v.children.forEach(walk);
    };
    walk(tree(rand, views, () => id++));
    out.push(rects);
  }
  return out;
}

/** `frames` frames of `views` uniform random rectangles anywhere on (and a little off) the screen. */
export function randomFrames(frames: number, views: number, seed = 2): Rect[][] {
  const rand = rng(seed);
  return Array.from({ length: frames }, () =>
    Array.from({ length: views }, () => ({
      left: Math.floor(rand() * 1200) - 60,
      top: Math.floor(rand() * 2600) - 100,
      width: Math.floor(rand() * 800),
      height: Math.floor(rand() * 1600),
    })),
  );
}

/** A render_ops + ui_events pair: one input, then one frame (measure, layout, draw per view) each. */
export function syntheticRun(
  interactions: number,
  views: number,
  seed = 3,
): { renderOps: Table; uiEvents: Table } {
  const rand = rng(seed);
  let id = 0;
  const ops: RenderOpRow[] = [];
  const ts: bigint[] = [];
  const seq: number[] = [];
  const kind: string[] = [];
  let now = 1_000_000_000;
  const hw = () => rand() > 0.02;
  for (let i = 0; i < interactions; i++) {
    ts.push(BigInt(now));
    seq.push(i);
    kind.push(rand() < 0.5 ? "click" : "scroll");
    now += 2_000_000;
    const root = tree(rand, views, () => id++ % 5000);
    const accel = hw();
    // One call per operation kind over the whole tree, children nested inside their parent's call.
    for (const op of ["measure", "layout", "draw"] as const) {
      const emit = (v: View): number => {
        const start = now;
        now += Math.round((op === "draw" ? v.cost : v.cost / 4) * (0.8 + 0.4 * rand()));
        for (const c of v.children) emit(c);
        ops.push({
          frame: i,
          view_id: v.id,
          parent_id: v.parent,
          view_class: v.cls,
          op,
          start: BigInt(start),
          dur: BigInt(now - start),
          ui_thread: true,
          hw_accelerated: accel,
          left: v.rect[0],
          top: v.rect[1],
          width: v.rect[2],
          height: v.rect[3],
          has_background: v.bg,
          visibility: v.vis,
          xml_id: `id_${v.id % 50}`,
          layout_file: `res/layout/screen_${v.id % 7}.xml`,
        });
        return now - start;
      };
      emit(root);
      now += 100_000;
    }
    now += 30_000_000 + Math.floor(rand() * 200_000_000);
  }
  // Rows are emitted when each call ends; the log is in start order, as the agent writes it (a stable sort).
  ops.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  return {
    renderOps: bundleTableFromRows("render_ops", "bench", ops),
    uiEvents: makeBundleTable("ui_events", "bench", { ts, seq, kind }),
  };
}

const W = SCREEN.width;
const H = SCREEN.height;
let depthBuffer: Uint16Array | null = null;

/** The peer: rasterise every pixel of every rectangle into a depth buffer, then histogram it. */
function rasterDepth(rects: readonly Rect[]): Float64Array {
  const buf = (depthBuffer ??= new Uint16Array(W * H));
  buf.fill(0);
  for (const r of rects) {
    const x0 = Math.max(0, r.left),
      x1 = Math.min(W, r.left + r.width);
    const y0 = Math.max(0, r.top),
      y1 = Math.min(H, r.top + r.height);
    for (let y = y0; y < y1; y++) for (let i = y * W + x0, e = y * W + x1; i < e; i++) buf[i]!++;
  }
  const hist = new Float64Array(rects.length + 1);
  for (let i = 0; i < buf.length; i++) hist[buf[i]!]!++;
  return hist;
}

function overdrawBench(label: string, make: () => Rect[][]): Benchmark {
  let frames: Rect[][] = [];
  return {
    name: `draw/overdraw-depth 10,000 frames x 100 views at 1080x2400 (${label})`,
    unit: "ms",
    budget: 1000,
    runs: 5,
    setup() {
      frames = make();
      // The sweep and the raster agree on a sample (a benchmark of a wrong answer is worthless).
      for (const f of frames.slice(0, 3)) {
        const a = overdrawDepth(f, SCREEN).histogram,
          b = rasterDepth(f);
        for (let d = 0; d < b.length; d++)
          if ((a[d] ?? 0) !== b[d]) throw new Error(`${label}: sweep and raster differ at depth ${d}`);
      }
    },
    measure: () =>
      timeMs(() => {
        for (const f of frames) overdrawDepth(f, SCREEN);
      }),
    peer: {
      name: "per-pixel raster, 20 frames timed x 500",
      runs: 3,
      measure: async () =>
        500 *
        (await timeMs(() => {
          for (const f of frames.slice(0, 20)) rasterDepth(f);
        })),
    },
  };
}

let run: { renderOps: Table; uiEvents: Table } | null = null;
let trace: RenderTrace | null = null;
const INTERACTIONS = 10_000;
const VIEWS = 30;
function traceOnce(): RenderTrace {
  run ??= syntheticRun(INTERACTIONS, VIEWS);
  trace ??= preprocessRenderOps(run.renderOps);
  return trace;
}

export const benchmarks: Benchmark[] = [
  overdrawBench("UI-like view trees", () => uiFrames(10_000, 100)),
  overdrawBench("uniform random rectangles", () => randomFrames(10_000, 100)),
  {
    name: `draw/diagnosis 10,000 interactions x ~${VIEWS} views (features + correlations + BIC structure + Algorithm 1 + RCS)`,
    unit: "ms",
    budget: 2000,
    runs: 3,
    setup: () => void traceOnce(),
    measure: () =>
      timeMs(() => {
        const t = traceOnce();
        const ui = userInteractions(t, run!.uiEvents, { screen: SCREEN });
        rootCauses(t, ui.interactions);
      }),
  },
  {
    name: `draw/preprocess render_ops (10,000 interactions, ~${INTERACTIONS * VIEWS * 3} rows)`,
    unit: "ms",
    runs: 3,
    setup: () => void traceOnce(),
    measure: () => timeMs(() => preprocessRenderOps(run!.renderOps)),
  },
  {
    name: "draw/rendering-efficiency (RES) over the same trace",
    unit: "ms",
    runs: 3,
    setup: () => void traceOnce(),
    measure: () => timeMs(() => renderingEfficiency(traceOnce(), { screen: SCREEN })),
  },
];
