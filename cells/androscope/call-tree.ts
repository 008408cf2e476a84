// The call tree diagram of a method (AndroScope §VI-4, Fig. 14): every call of the method merged into one
// tree (children by method), a 0-100 % inclusive-time threshold that hides small subtrees, and the
// critical path: from the root, at each node the dominant child (the one with the largest inclusive time).
import { chartSpec, type ChartSpec } from "../common/chart-spec";
import type { Table } from "apache-arrow";
import { readCallColumns } from "./call-columns";
import type { CallCounters } from "./counter-attribution";
import type { ProfileMethod } from "./method-profile";

export interface CallTreeOptions {
  /**
   * 0-100: a subtree is hidden when its inclusive time is below this share of the root's (default 0, all shown).
   * §VI-4 sets it as a TraceBridge option "from 0% (nothing) to 100% (everything)"; here it is the cut-off share.
   */
  thresholdPercent?: number;
  /** only this thread's calls; default every thread */
  threadId?: number;
  /** "wall" (default) or "cpu": which inclusive and exclusive times the tree sums */
  clock?: "wall" | "cpu";
  /** counter values per call (attributeCounters) to sum per node, as Fig. 14 shows IPC per node */
  counters?: CallCounters;
}

export interface CallTreeNode {
  /** index in the tree's preorder (children by inclusive time, largest first) */
  id: number;
  parent: number | null;
  /** 0 at the root */
  depth: number;
  methodId: number;
  name: string;
  /** calls merged into this node */
  calls: number;
  /** ns, summed over the merged calls */
  inclusive: number;
  exclusive: number;
  /** inclusive / the root's inclusive */
  share: number;
  /** on the critical path */
  critical: boolean;
  /** shown at this threshold (every ancestor shown and inclusive >= threshold share of the root's) */
  visible: boolean;
  /** how many direct children the threshold hides, and their inclusive time */
  hiddenChildren: number;
  hiddenInclusive: number;
  /** counter sums over the merged calls (inclusive), when counters were given */
  counters: Record<string, number> | null;
}

export interface CallTree {
  methodId: number;
  name: string;
  /** the method's outermost calls merged into the root (a recursive call is a node inside the tree) */
  rootCalls: number;
  thresholdPercent: number;
  /** every node in preorder; `visible` says which the threshold keeps */
  nodes: CallTreeNode[];
  /** root, dominant child, its dominant child, ... down to a leaf */
  criticalPath: CallTreeNode[];
}

export function methodName(
  methods: readonly ProfileMethod[] | Map<number, ProfileMethod>,
  id: number,
): string {
  const m = methods instanceof Map ? methods.get(id) : methods.find((x) => x.id === id);
  return m ? `${m.className}.${m.methodName}` : `method 0x${id.toString(16)}`;
}

/** The merged call tree rooted at `methodId`. Throws when the method has no calls (on the chosen thread). */
export function callTree(
  calls: Table,
  methods: readonly ProfileMethod[],
  methodId: number,
  options: CallTreeOptions = {},
): CallTree {
  const threshold = options.thresholdPercent ?? 0;
  if (typeof threshold !== "number" || !(threshold >= 0 && threshold <= 100))
    throw new Error(`invalid thresholdPercent: ${String(threshold)} (expected 0 to 100)`);
  const clock = options.clock ?? "wall";
  if (clock !== "wall" && clock !== "cpu")
    throw new Error(`invalid clock: ${String(clock)} (expected wall or cpu)`);
  const c = readCallColumns(calls);
  const inc = clock === "wall" ? c.inclusive : c.cpuInclusive;
  const exc = clock === "wall" ? c.exclusive : c.cpuExclusive;
  if (!inc || !exc)
    throw new Error(
      "callTree: clock cpu needs cpu_inclusive and cpu_exclusive in calls (this trace has no thread-CPU times)",
    );
  if (options.counters && options.counters.calls !== c.n)
    throw new Error(
      `callTree: counters were attributed to ${options.counters.calls} calls, this table has ${c.n}`,
    );
  const names = new Map(methods.map((m) => [m.id, m]));
  const counterNames = options.counters ? Object.keys(options.counters.inclusive) : [];

  // Children of each call, in row order (CSR).
  const start = new Int32Array(c.n + 1);
  for (let i = 0; i < c.n; i++) if (c.parent[i]! >= 0) start[c.parent[i]! + 1] = start[c.parent[i]! + 1]! + 1;
  for (let i = 0; i < c.n; i++) start[i + 1] = start[i + 1]! + start[i]!;
  const fill = start.slice(0, c.n);
  const kids = new Int32Array(start[c.n]!);
  for (let i = 0; i < c.n; i++) if (c.parent[i]! >= 0) kids[fill[c.parent[i]!]!++] = i;

  // Outermost calls of the method: no ancestor is the same method (so recursion is not counted twice).
  const roots: number[] = [];
  const stack: number[] = [];
  const onPath: number[] = [];
  for (let top = 0; top < c.n; top++) {
    if (c.parent[top]! >= 0) continue;
    (stack.push(top), onPath.push(0));
    while (stack.length) {
      const i = stack.pop()!;
      const above = onPath.pop()!;
      const mine = c.methodId[i] === methodId;
      if (mine && above === 0 && (options.threadId === undefined || c.threadId[i] === options.threadId))
        roots.push(i);
      for (let k = start[i + 1]! - 1; k >= start[i]!; k--)
        (stack.push(kids[k]!), onPath.push(above + (mine ? 1 : 0)));
    }
  }
  if (!roots.length)
    throw new Error(
      `callTree: ${methodName(names, methodId)} has no calls${options.threadId !== undefined ? ` on thread ${options.threadId}` : ""}`,
    );

  // Merge: a node per distinct method path from the root.
  const nMethod: number[] = [methodId];
  const nParent: number[] = [-1];
  const nCalls: number[] = [0];
  const nInc: number[] = [0];
  const nExc: number[] = [0];
  const nCounters: number[][] = counterNames.map(() => [0]);
  const childOf: Map<number, number>[] = [new Map()];
  const work: number[] = [];
  const workNode: number[] = [];
  for (const r of roots) (work.push(r), workNode.push(0));
  while (work.length) {
    const i = work.pop()!;
    const u = workNode.pop()!;
    nCalls[u]!++;
    nInc[u] = nInc[u]! + inc[i]!;
    nExc[u] = nExc[u]! + exc[i]!;
    counterNames.forEach(
      (name, k) => (nCounters[k]![u] = nCounters[k]![u]! + options.counters!.inclusive[name]![i]!),
    );
    for (let k = start[i]!; k < start[i + 1]!; k++) {
      const child = kids[k]!;
      const m = c.methodId[child]!;
      let v = childOf[u]!.get(m);
      if (v === undefined) {
        v = nMethod.length;
        childOf[u]!.set(m, v);
        (nMethod.push(m),
          nParent.push(u),
          nCalls.push(0),
          nInc.push(0),
          nExc.push(0),
          childOf.push(new Map()));
        for (const arr of nCounters) arr.push(0);
      }
      (work.push(child), workNode.push(v));
    }
  }

  // Preorder with children by inclusive time, largest first (ties: smaller method id); the first child is dominant.
  const order = (u: number) =>
    [...childOf[u]!.values()].sort((a, b) => nInc[b]! - nInc[a]! || nMethod[a]! - nMethod[b]!);
  const total = nInc[0]!;
  const minTime = (threshold / 100) * total;
  const nodes: CallTreeNode[] = [];
  const critical = new Set<number>();
  for (let u = 0; ;) {
    critical.add(u);
    const first = order(u)[0];
    if (first === undefined) break;
    u = first;
  }
  const visit: [number, number | null, number, boolean][] = [[0, null, 0, true]];
  while (visit.length) {
    const [u, parentId, depth, parentVisible] = visit.pop()!;
    const visible = u === 0 || (parentVisible && nInc[u]! >= minTime);
    const node: CallTreeNode = {
      id: nodes.length,
      parent: parentId,
      depth,
      methodId: nMethod[u]!,
      name: methodName(names, nMethod[u]!),
      calls: nCalls[u]!,
      inclusive: nInc[u]!,
      exclusive: nExc[u]!,
      share: total > 0 ? nInc[u]! / total : 1,
      critical: critical.has(u),
      visible,
      hiddenChildren: 0,
      hiddenInclusive: 0,
      counters: options.counters
        ? Object.fromEntries(counterNames.map((name, k) => [name, nCounters[k]![u]!]))
        : null,
    };
    nodes.push(node);
    const children = order(u);
    for (const v of children)
      if (visible && nInc[v]! < minTime) (node.hiddenChildren++, (node.hiddenInclusive += nInc[v]!));
    for (let k = children.length - 1; k >= 0; k--) visit.push([children[k]!, node.id, depth + 1, visible]);
  }
  return {
    methodId,
    name: methodName(names, methodId),
    rootCalls: roots.length,
    thresholdPercent: threshold,
    nodes,
    criticalPath: nodes.filter((n) => n.critical),
  };
}

export interface CallTreePlotOptions {
  /** a counter ratio to write next to each node, e.g. IPC from counters "instructions" / "cpu-cycles" */
  ratio?: { label: string; numerator: string; denominator: string };
}

/** An icicle of the visible nodes: one bar per node, as wide as its inclusive time (ms), the critical path dark. */
export function callTreePlot(tree: CallTree, options: CallTreePlotOptions = {}): ChartSpec {
  const rows = icicleRows(tree, options);
  const depths = Math.max(1, ...rows.map((r) => r.depth + 1));
  const labels = rows
    .filter((r) => r.wide)
    .map((r) => ({ ...r, ink: r.kind === "critical path" ? "white" : "black" }));
  return chartSpec("callTreePlot", {
    mark: "barX",
    data: rows,
    y: "depth",
    fill: "kind",
    options: { x1: "x1", x2: "x2", stroke: "white", title: "title" },
    title: `Call tree of ${tree.name} (${tree.rootCalls} calls, threshold ${tree.thresholdPercent} %)`,
    height: 40 + 26 * depths,
    layout: {
      marginLeft: 10,
      x: { label: "inclusive time (ms)", grid: true },
      y: { axis: null, domain: Array.from({ length: depths }, (_, d) => d) },
      color: { domain: ["critical path", "other"], range: ["#08519c", "#9ecae1"], legend: true },
    },
    over: [
      {
        mark: "text",
        data: labels,
        options: {
          x: "x1",
          y: "depth",
          text: "label",
          textAnchor: "start",
          dx: 3,
          fill: "ink",
          pointerEvents: "none",
        },
      },
    ],
  });
}

interface IcicleRow {
  depth: number;
  x1: number;
  x2: number;
  kind: "critical path" | "other";
  label: string;
  title: string;
  wide: boolean;
}

/** Children laid out left to right inside their parent, largest first (they never exceed it: nested calls). */
function icicleRows(tree: CallTree, options: CallTreePlotOptions): IcicleRow[] {
  const total = tree.nodes[0]?.inclusive ?? 0;
  const left = new Map<number, number>();
  const next = new Map<number, number>();
  const rows: IcicleRow[] = [];
  for (const n of tree.nodes) {
    if (!n.visible) continue;
    const x1 = n.parent === null ? 0 : next.get(n.parent)!;
    if (n.parent !== null) next.set(n.parent, x1 + n.inclusive);
    left.set(n.id, x1);
    next.set(n.id, x1);
    const ratio =
      options.ratio && n.counters
        ? n.counters[options.ratio.numerator]! / n.counters[options.ratio.denominator]!
        : NaN;
    const ratioText = Number.isFinite(ratio) ? `, ${options.ratio!.label} ${ratio.toFixed(2)}` : "";
    rows.push({
      depth: n.depth,
      x1: x1 / 1e6,
      x2: (x1 + n.inclusive) / 1e6,
      kind: n.critical ? "critical path" : "other",
      label: n.name.split(/[./]/).slice(-2).join("."),
      title: `${n.name}\n${n.calls} calls, inclusive ${(n.inclusive / 1e6).toFixed(3)} ms (${(n.share * 100).toFixed(1)} %), exclusive ${(n.exclusive / 1e6).toFixed(3)} ms${ratioText}${n.hiddenChildren ? `\n${n.hiddenChildren} children below the threshold (${(n.hiddenInclusive / 1e6).toFixed(3)} ms)` : ""}`,
      // room for the label: about 6.5 px a character on a ~640 px wide plot
      wide:
        total > 0 &&
        (n.inclusive / total) * 640 > 6.5 * (n.name.split(/[./]/).slice(-2).join(".").length + 1),
    });
  }
  return rows;
}
