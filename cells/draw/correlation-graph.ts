// Correlation graph (DRAW §V-B, Figure 4): a Bayesian network over the features and the metric, rooted
// at the metric; node value = corr(f, p), edge weight = |corr(f_i, f_j)| (Pearson, on the raw values).
//
// Structure learning, as the paper leaves it open:
// - Discretisation: equal-frequency bins (default 3) by rank, ties kept together. Rendering times are
//   heavy-tailed; equal-width bins would leave most rows in one state. Rank bins are invariant to monotone
//   transforms and keep ≈ N/3 rows per state, so conditional counts are estimated well.
// - Search: greedy hill climbing over add / delete / reverse edge moves, from the empty graph, taking the
//   best improving move until none improves; at most `maxParents` (default 3) parents per node; the metric
//   may have no parents (it is the root). Deterministic: ties go to the lowest (from, to) indices.
// - Score: BIC = Σ_nodes [Σ_jk N_ijk log(N_ijk / N_ij) − ½ log N · q_i (r_i − 1)]. It is decomposable, so a
//   move re-scores only the nodes whose parents changed, and its penalty keeps 40+ features over
//   thousands of interactions from growing dense graphs (BDeu would need a prior sample size to tune).
// - Orientation: BIC cannot tell directions within an equivalence class, so the learnt skeleton is oriented
//   away from the metric by BFS distance (edges within one distance keep their learnt direction, which is
//   acyclic). That makes "farther from the metric" Algorithm 1's "more likely the root cause" (§V-B).
//   Features with no path to the metric stay in the graph without edges from it (iv = 0 in Algorithm 1).
import { chartSpec, type ChartSpec } from "../common/chart-spec";
import { DRAW } from "./defaults";
import type { CorrelationGraph, SignificanceScores } from "./significance";

export interface CorrelationGraphOptions {
  /** equal-frequency bins per variable; default DRAW.bins (defaults.ts) */
  bins?: number;
  /** most parents per node in the search; default DRAW.maxParents */
  maxParents?: number;
  /** most hill-climbing moves; default DRAW.maxMoves (a safety stop, never reached in practice) */
  maxMoves?: number;
}

export interface LearntGraph extends CorrelationGraph {
  /** the discretisation and search bound that learnt it */
  bins: number;
  maxParents: number;
  /** BFS distance of each node from the metric (-1: not connected) */
  levels: Record<string, number>;
  /** the DAG as the search left it, before orientation */
  learnt: { from: string; to: string }[];
  /** total BIC of the learnt DAG */
  bic: number;
}

export function pearson(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = a.length;
  let ma = 0,
    mb = 0;
  for (let i = 0; i < n; i++) ((ma += a[i]!), (mb += b[i]!));
  ma /= n;
  mb /= n;
  let sab = 0,
    saa = 0,
    sbb = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i]! - ma,
      y = b[i]! - mb;
    ((sab += x * y), (saa += x * x), (sbb += y * y));
  }
  // A constant variable correlates with nothing.
  return saa > 0 && sbb > 0 ? Math.max(-1, Math.min(1, sab / Math.sqrt(saa * sbb))) : 0;
}

/** Equal-frequency states 0..r-1 by rank; equal values share a state. Returns states and r. */
export function discretize(values: ArrayLike<number>, bins: number): { states: Uint8Array; arity: number } {
  const n = values.length;
  // A tie group's state is where its first rank falls among the bins: floor(rank · bins / n), where the
  // first rank of value x is the number of values below it (binary search in a natively sorted copy).
  const sorted = Float64Array.from(values).sort();
  const states = new Uint8Array(n);
  const present = new Uint8Array(bins);
  for (let k = 0; k < n; k++) {
    const x = values[k]!;
    let lo = 0,
      hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    const s = Math.min(bins - 1, Math.floor((lo * bins) / n));
    states[k] = s;
    present[s] = 1;
  }
  // Renumber so states are 0..arity-1 with none empty.
  const map = new Int16Array(bins);
  let arity = 0;
  for (let s = 0; s < bins; s++) map[s] = present[s] ? arity++ : -1;
  for (let k = 0; k < n; k++) states[k] = map[states[k]!]!;
  return { states, arity: Math.max(arity, 1) };
}

/**
 * The correlation graph of `features` (name → values per interaction) and `metric` (values), rooted at
 * the node named `metricName`.
 */
export function correlationGraph(
  features: Record<string, ArrayLike<number>>,
  metricName: string,
  metric: ArrayLike<number>,
  options: CorrelationGraphOptions = {},
): LearntGraph {
  const { bins = DRAW.bins, maxParents = DRAW.maxParents, maxMoves = DRAW.maxMoves } = options;
  const names = [metricName, ...Object.keys(features)];
  const raw = [metric, ...Object.values(features)];
  const n = names.length;
  const N = metric.length;
  const disc = raw.map((v) => discretize(v, bins));
  const data = disc.map((d) => d.states);
  const arity = disc.map((d) => d.arity);
  const parents: number[][] = names.map(() => []);
  const penalty = 0.5 * Math.log(Math.max(N, 1));
  const counts = new Float64Array(Math.max(1, bins ** (maxParents + 1) * 4));
  const config = names.map(() => new Int32Array(N));
  const q = names.map(() => 1);

  // BIC of node v with its current parents plus `extra` (or minus `without`), from config[v].
  const score = (v: number, extra = -1, without = -1): number => {
    let cfg = config[v]!;
    let qv = q[v]!;
    if (without >= 0) {
      cfg = new Int32Array(N);
      qv = 1;
      for (const p of parents[v]!)
        if (p !== without) {
          const d = data[p]!;
          for (let i = 0; i < N; i++) cfg[i] = cfg[i]! * arity[p]! + d[i]!;
          qv *= arity[p]!;
        }
    }
    const rv = arity[v]!,
      dv = data[v]!;
    const re = extra >= 0 ? arity[extra]! : 1;
    const de = extra >= 0 ? data[extra]! : null;
    const cells = qv * re * rv;
    counts.fill(0, 0, cells);
    if (de)
      for (let i = 0; i < N; i++) {
        const c = (cfg[i]! * re + de[i]!) * rv + dv[i]!;
        counts[c] = counts[c]! + 1;
      }
    else
      for (let i = 0; i < N; i++) {
        const c = cfg[i]! * rv + dv[i]!;
        counts[c] = counts[c]! + 1;
      }
    let ll = 0;
    for (let j = 0; j < qv * re; j++) {
      let nj = 0;
      for (let k = 0; k < rv; k++) nj += counts[j * rv + k]!;
      if (nj === 0) continue;
      for (let k = 0; k < rv; k++) {
        const c = counts[j * rv + k]!;
        if (c > 0) ll += c * Math.log(c / nj);
      }
    }
    return ll - penalty * qv * re * (rv - 1);
  };
  const rebuild = (v: number) => {
    const cfg = config[v]!.fill(0);
    q[v] = 1;
    for (const p of parents[v]!) {
      const d = data[p]!;
      for (let i = 0; i < N; i++) cfg[i] = cfg[i]! * arity[p]! + d[i]!;
      q[v] *= arity[p]!;
    }
  };

  const local = names.map((_, v) => score(v));
  const add = new Float64Array(n * n).fill(-Infinity); // add[u * n + v]: gain of u → v
  const del = new Float64Array(n * n).fill(-Infinity); // del[u * n + v]: gain of removing u → v
  const refresh = (v: number) => {
    for (let u = 0; u < n; u++) {
      add[u * n + v] = -Infinity;
      del[u * n + v] = -Infinity;
      if (u === v || v === 0 || arity[u]! < 2 || arity[v]! < 2) continue;
      if (parents[v]!.includes(u)) del[u * n + v] = score(v, -1, u) - local[v]!;
      else if (parents[v]!.length < maxParents && q[v]! * arity[u]! * arity[v]! <= counts.length)
        add[u * n + v] = score(v, u) - local[v]!;
    }
  };
  for (let v = 0; v < n; v++) refresh(v);

  // Descendants of every node (recomputed after each move: n DFS over ≤ n·maxParents edges).
  const reach = new Uint8Array(n * n);
  const children: number[][] = names.map(() => []);
  const closure = () => {
    children.forEach((c) => (c.length = 0));
    parents.forEach((ps, v) => ps.forEach((p) => children[p]!.push(v)));
    reach.fill(0);
    for (let s = 0; s < n; s++) {
      const stack = [s];
      reach[s * n + s] = 1;
      while (stack.length)
        for (const c of children[stack.pop()!]!)
          if (!reach[s * n + c]) ((reach[s * n + c] = 1), stack.push(c));
    }
  };
  // Is there a path from → to other than the edge from → to itself? (For reversing that edge.)
  const otherPath = (from: number, to: number): boolean => {
    for (const c of children[from]!) if (c !== to && reach[c * n + to]) return true;
    return false;
  };
  closure();

  for (let move = 0; move < maxMoves; move++) {
    let best = 1e-9,
      kind = 0,
      bu = -1,
      bv = -1;
    for (let u = 0; u < n; u++)
      for (let v = 0; v < n; v++) {
        const a = add[u * n + v]!;
        if (a > best && !reach[v * n + u]) ((best = a), (kind = 1), (bu = u), (bv = v));
        const d = del[u * n + v]!;
        if (d > best) ((best = d), (kind = 2), (bu = u), (bv = v));
        if (d > -Infinity) {
          const r = d + add[v * n + u]!;
          if (r > best && !otherPath(u, v)) ((best = r), (kind = 3), (bu = u), (bv = v));
        }
      }
    if (kind === 0) break;
    const changed = kind === 3 ? [bu, bv] : [bv];
    if (kind !== 1) parents[bv]!.splice(parents[bv]!.indexOf(bu), 1);
    if (kind === 1) parents[bv]!.push(bu);
    if (kind === 3) parents[bu]!.push(bv);
    for (const x of changed) (rebuild(x), (local[x] = score(x)));
    for (const x of changed) refresh(x);
    closure();
  }

  // Orient the skeleton away from the metric (node 0) by BFS distance.
  const level = new Int32Array(n).fill(-1);
  level[0] = 0;
  const adj = names.map(() => new Set<number>());
  parents.forEach((ps, v) => ps.forEach((p) => (adj[p]!.add(v), adj[v]!.add(p))));
  const queue = [0];
  for (let h = 0; h < queue.length; h++)
    for (const y of adj[queue[h]!]!) if (level[y]! < 0) ((level[y] = level[queue[h]!]! + 1), queue.push(y));
  const edges: CorrelationGraph["edges"] = [];
  const learnt: LearntGraph["learnt"] = [];
  parents.forEach((ps, v) =>
    ps.forEach((p) => {
      learnt.push({ from: names[p]!, to: names[v]! });
      if (level[p]! < 0) return; // a component without the metric: Algorithm 1 never reaches it
      const [from, to] = level[p]! <= level[v]! ? [p, v] : [v, p];
      edges.push({ from: names[from]!, to: names[to]!, weight: Math.abs(pearson(raw[from]!, raw[to]!)) });
    }),
  );
  return {
    bins,
    maxParents,
    root: metricName,
    nodes: names.slice(1).map((id, i) => ({ id, corr: pearson(raw[i + 1]!, metric) })),
    edges,
    levels: Object.fromEntries(names.map((id, i) => [id, level[i]!])),
    learnt,
    bic: local.reduce((a, b) => a + b, 0),
  };
}

/** The narrowest the graph is drawn (triage at a 900 px window): each layer's labels are cut to fit at it. */
export const GRAPH_MIN_WIDTH = 560;
/** px between two nodes of a layer: a 10 px label and its gap. */
export const GRAPH_ROW_PX = 20;
const NOT_CONNECTED = "not connected";
const LABEL_GAP = 12;

export interface GraphLayoutNode {
  id: string;
  /** the layer's name on the x axis: its distance from the metric, or "not connected" */
  layer: string;
  /** the node's place in its layer, 0 at the top */
  row: number;
}

/**
 * A layered (Sugiyama-style) layout: one column per distance from the metric, the unconnected features last; in
 * each column nodes ordered by the mean row of their neighbours in the column before (the barycenter heuristic,
 * which removes most edge crossings in one pass), ties by name.
 */
export function correlationGraphLayout(graph: LearntGraph): GraphLayoutNode[] {
  const levels = [...new Set(Object.values(graph.levels))].sort((a, b) => (a < 0 ? 1 : b < 0 ? -1 : a - b));
  const neighbours = new Map<string, string[]>();
  for (const e of graph.edges) {
    neighbours.set(e.from, [...(neighbours.get(e.from) ?? []), e.to]);
    neighbours.set(e.to, [...(neighbours.get(e.to) ?? []), e.from]);
  }
  const row = new Map<string, number>();
  const out: GraphLayoutNode[] = [];
  for (const level of levels) {
    const ids = Object.keys(graph.levels).filter((id) => graph.levels[id] === level);
    const centre = (id: string) => {
      const placed = (neighbours.get(id) ?? []).filter((n) => row.has(n)).map((n) => row.get(n)!);
      return placed.length ? placed.reduce((a, b) => a + b, 0) / placed.length : Infinity;
    };
    const keyed = ids.map((id) => ({ id, c: centre(id) }));
    keyed.sort((a, b) => a.c - b.c || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    keyed.forEach(({ id }, i) => {
      row.set(id, i);
      out.push({ id, layer: level < 0 ? NOT_CONNECTED : String(level), row: i });
    });
  }
  return out;
}

/**
 * The correlation graph in layers by distance from the metric: node size and colour = sig; each label is the
 * feature's name cut in the middle to its layer's width at GRAPH_MIN_WIDTH, the name with iv and sig on hover.
 */
export function correlationGraphPlot(graph: LearntGraph, scores: SignificanceScores): ChartSpec {
  const layout = correlationGraphLayout(graph);
  const layers = [...new Set(layout.map((n) => n.layer))];
  const rows = Math.max(1, ...layout.map((n) => n.row + 1));
  const pos = new Map(layout.map((n) => [n.id, n]));
  const nodes = layout.map(({ id, layer, row }) => ({
    id,
    layer,
    row,
    iv: scores[id]?.iv ?? 0,
    sig: scores[id]?.sig ?? 0,
    full: `${id}: iv=${(scores[id]?.iv ?? 0).toFixed(2)}, sig=${(scores[id]?.sig ?? 0).toFixed(2)}`,
  }));
  const links = graph.edges.map((e) => {
    const [a, b] = [pos.get(e.from)!, pos.get(e.to)!];
    return { from: e.from, to: e.to, weight: e.weight, x1: a.layer, y1: a.row, x2: b.layer, y2: b.row };
  });
  // A point scale with its outer padding all on the right: each layer's labels get one step, the last one too.
  const step = (GRAPH_MIN_WIDTH - 2 * 12) / layers.length;
  const labelEm = Math.max(3, (step - LABEL_GAP - 4) / 10);
  // a node's name at its node, cut in the middle to its layer's width, the whole name on hover
  const nodeLabel = {
    x: "layer",
    y: "row",
    text: "id",
    title: "full",
    fontSize: 10,
    lineWidth: labelEm,
    textOverflow: "ellipsis-middle",
  };
  return chartSpec("correlationGraphPlot", {
    mark: "dot",
    data: nodes,
    x: "layer",
    y: "row",
    fill: "sig",
    // an outline in the text colour: a node of sig 0 (the scheme's darkest) still shows on a dark page
    options: { r: "sig", tip: true, title: "full", stroke: "currentColor", strokeWidth: 0.75 },
    height: 60 + GRAPH_ROW_PX * rows,
    layout: {
      marginLeft: 12,
      marginRight: 12,
      x: { type: "point", domain: layers, padding: 0.5, align: 0, label: "distance from the metric (edges)" },
      // half a row of room above the first row (the metric's name) and below the last (clear of the x axis)
      y: { axis: null, reverse: true, domain: [-0.75, rows - 0.5] },
      r: { range: [3, 8] },
      color: { label: "significance sig (Algorithm 1)" },
    },
    under: [
      {
        mark: "arrow",
        data: links,
        options: { x1: "x1", y1: "y1", x2: "x2", y2: "y2", strokeOpacity: "weight", inset: 6 },
      },
    ],
    // each feature's name right of its node; the metric's above it, clear of the arrows leaving it to the right
    over: [
      {
        mark: "text",
        data: nodes.filter((n) => n.id !== graph.root),
        options: {
          ...nodeLabel,
          dx: LABEL_GAP,
          textAnchor: "start",
        },
      },
      {
        mark: "text",
        data: nodes.filter((n) => n.id === graph.root),
        options: {
          ...nodeLabel,
          dy: -GRAPH_ROW_PX / 2 - 2,
          dx: -6,
          textAnchor: "start",
        },
      },
    ],
  });
}
