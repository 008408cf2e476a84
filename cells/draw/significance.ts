// Significance scores of features for a performance metric (DRAW §V-B, Algorithm 1).
//
// iv: a BFS from the metric p (p.iv = 1); a node is settled only once all its parents that the BFS can
// reach are settled (Algorithm 1 line 8 re-enqueues it otherwise), then f.iv = 1 + Σ_parents r.iv · w_fr.
// sig(f, p) = |corr(f, p)| + f.iv / max(iv) (line 18; the paper takes corr ∈ [0, 1], so its magnitude).
//
// Defined where Algorithm 1 is silent:
// - A node the BFS never reaches (no path from the metric) gets iv = 0, so sig = |corr|; a parent that is
//   unreachable contributes nothing to its child's iv (it never enters the queue in Algorithm 1).
// - Each node is settled once even if several parents enqueue it (the paper's queue would recompute the
//   same value). A cycle among reachable nodes is an error (a correlation graph is a DAG).
// - Weights are used as given: callers pass |corr(f_i, f_j)| as the paper's Figure 4 does.
// - max(iv) is taken over all nodes, the metric included (its iv = 1 is the smallest possible).

export interface CorrelationGraph {
  /** the performance metric's node id */
  root: string;
  /** every feature with corr(f, p); the root's own corr is ignored */
  nodes: { id: string; corr: number }[];
  /** from the parent (nearer the metric) to the child, weight = corr between the two */
  edges: { from: string; to: string; weight: number }[];
}

export type SignificanceScores = Record<string, { iv: number; sig: number }>;

export function significanceScores(graph: CorrelationGraph): SignificanceScores {
  const ids = new Set(graph.nodes.map((n) => n.id));
  ids.add(graph.root);
  const parents = new Map<string, { from: string; weight: number }[]>();
  const children = new Map<string, string[]>();
  for (const id of ids) (parents.set(id, []), children.set(id, []));
  for (const e of graph.edges) {
    if (!ids.has(e.from))
      throw new Error(`significanceScores: edge ${e.from} → ${e.to}: unknown node ${e.from}`);
    if (!ids.has(e.to)) throw new Error(`significanceScores: edge ${e.from} → ${e.to}: unknown node ${e.to}`);
    if (e.to === graph.root)
      throw new Error(`significanceScores: edge ${e.from} → ${e.to} points into the root`);
    if (!Number.isFinite(e.weight))
      throw new Error(`significanceScores: edge ${e.from} → ${e.to} has weight ${e.weight}`);
    parents.get(e.to)!.push({ from: e.from, weight: e.weight });
    children.get(e.from)!.push(e.to);
  }

  // Nodes reachable from the metric: the only ones Algorithm 1's queue ever holds.
  const reachable = new Set<string>([graph.root]);
  const stack = [graph.root];
  while (stack.length)
    for (const c of children.get(stack.pop()!)!) if (!reachable.has(c)) (reachable.add(c), stack.push(c));

  // A cycle would keep Algorithm 1's queue busy forever: find it first (Kahn over the reachable part).
  const indegree = new Map<string, number>();
  for (const id of reachable) indegree.set(id, parents.get(id)!.filter((p) => reachable.has(p.from)).length);
  const ready = [...reachable].filter((id) => indegree.get(id) === 0);
  let settled = 0;
  while (ready.length) {
    settled++;
    for (const c of children.get(ready.pop()!)!) {
      const d = indegree.get(c)! - 1;
      indegree.set(c, d);
      if (d === 0) ready.push(c);
    }
  }
  if (settled < reachable.size) {
    const inCycle = [...reachable].filter((id) => indegree.get(id)! > 0).sort();
    throw new Error(`significanceScores: the graph has a cycle among ${inCycle.join(", ")}`);
  }

  const iv = new Map<string, number>();
  const queue: string[] = [graph.root];
  let head = 0;
  while (head < queue.length) {
    const f = queue[head++]!;
    if (iv.has(f)) continue;
    const pending = f !== graph.root && parents.get(f)!.some((p) => reachable.has(p.from) && !iv.has(p.from));
    if (pending) {
      queue.push(f); // line 8-9: wait until every reachable parent is settled
      continue;
    }
    let v = 1;
    if (f !== graph.root) for (const p of parents.get(f)!) v += (iv.get(p.from) ?? 0) * p.weight; // line 13
    iv.set(f, v);
    for (const c of children.get(f)!) queue.push(c);
  }

  let maxIv = 0;
  for (const v of iv.values()) maxIv = Math.max(maxIv, v);
  const out: SignificanceScores = {};
  const corr = new Map(graph.nodes.map((n) => [n.id, n.corr]));
  for (const id of ids) {
    const v = iv.get(id) ?? 0;
    const c = id === graph.root ? 1 : Math.abs(corr.get(id) ?? 0);
    out[id] = { iv: v, sig: (Number.isFinite(c) ? c : 0) + (maxIv > 0 ? v / maxIv : 0) }; // line 18
  }
  return out;
}
