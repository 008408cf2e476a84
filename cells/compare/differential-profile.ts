// A differential method profile of two sides (a baseline and a candidate, each one run or several): per method,
// matched across runs by class, name and signature (method ids are per trace), inclusive and self time normalised
// per frame, per second or per run, their difference and ratio; and both sides' call trees merged by method path,
// for a differential flame graph. Inclusive time counts outermost calls only, as AndroScope's method view and
// traceview do (§VI), so recursion is not counted twice; self time is each call's own (exclusive) time.
import type { Table, Vector } from "apache-arrow";
import { int32, int64, readColumns, stringCodes, utf8 } from "../../bundle/read-columns";
import type { ProfileMethod } from "../androscope/method-profile";

export interface ProfileSide {
  /** calls (bundle/schema.ts "calls") of one or several runs, as a query returns them */
  calls: Table;
  /** the same runs' methods table (with run_id), or one method list that names every run's ids */
  methods: Table | readonly ProfileMethod[];
  /** only these runs' calls (run_id); default every row of `calls` */
  runs?: readonly string[];
  /** frames these runs drew, to give times per frame */
  frames?: number;
  /** seconds these runs traced, to give times per second */
  seconds?: number;
}

export type ProfileUnit = "frame" | "second" | "run";

export interface DifferentialProfileOptions {
  /** what times are divided by; default "frame" when both sides give frames, else "second" when both give
   * seconds, else "run" */
  per?: ProfileUnit;
  /**
   * Only the calls under this method, "Class.method" or "Class.method signature" (e.g. the frames'
   * "android.view.Choreographer.doFrame"): its outermost calls become the tree's root, the rest is left out.
   */
  root?: string;
}

/** One side's times, ns per unit (frame, second or run). */
export interface SideTimes {
  calls: number;
  inclusive: number;
  self: number;
}

export interface DifferentialRow {
  /** "Class.method signature" */
  name: string;
  baseline: SideTimes;
  candidate: SideTimes;
  /** candidate - baseline, ns per unit */
  inclusiveDiff: number;
  selfDiff: number;
  /** candidate / baseline; null when the baseline spent no time there */
  inclusiveRatio: number | null;
  selfRatio: number | null;
  /** "new": no calls in the baseline; "vanished": none in the candidate */
  status: "both" | "new" | "vanished";
}

export interface DifferentialNode {
  /** preorder index; 0 is the root, which stands for every thread's outermost calls */
  id: number;
  parent: number | null;
  depth: number;
  name: string;
  baseline: SideTimes;
  candidate: SideTimes;
  inclusiveDiff: number;
  selfDiff: number;
}

export interface DifferentialProfile {
  per: ProfileUnit;
  /** what each side's times were divided by (its frames, seconds or runs) */
  units: { baseline: number; candidate: number };
  runs: { baseline: string[]; candidate: string[] };
  /** every method either side called, by |inclusive difference|, largest first */
  methods: DifferentialRow[];
  /** both sides' call trees merged by method path, preorder, children by mean inclusive time, largest first */
  tree: DifferentialNode[];
}

export const ROOT_NAME = "(all threads)";

export function differentialProfile(
  baseline: ProfileSide,
  candidate: ProfileSide,
  options: DifferentialProfileOptions = {},
): DifferentialProfile {
  const per = options.per ?? defaultUnit(baseline, candidate);
  if (per !== "frame" && per !== "second" && per !== "run")
    throw new Error(`invalid per: ${String(per)} (expected frame, second or run)`);
  const tree = new MergedTree();
  const root = options.root;
  if (root !== undefined && (typeof root !== "string" || !root.includes(".")))
    throw new Error(`invalid root: ${String(root)} (expected "Class.method", optionally with its signature)`);
  const a = accumulate(baseline, "baseline", tree, 0, root);
  const b = accumulate(candidate, "candidate", tree, 1, root);
  if (root !== undefined) tree.rename(root);
  const units = {
    baseline: unitsOf(baseline, a.runs, per, "baseline"),
    candidate: unitsOf(candidate, b.runs, per, "candidate"),
  };
  const scale = (t: Acc | undefined, u: number): SideTimes =>
    t
      ? { calls: t.calls / u, inclusive: t.inclusive / u, self: t.self / u }
      : { calls: 0, inclusive: 0, self: 0 };
  const methods: DifferentialRow[] = [];
  for (const name of new Set([...a.methods.keys(), ...b.methods.keys()])) {
    const x = scale(a.methods.get(name), units.baseline);
    const y = scale(b.methods.get(name), units.candidate);
    methods.push({
      name,
      baseline: x,
      candidate: y,
      inclusiveDiff: y.inclusive - x.inclusive,
      selfDiff: y.self - x.self,
      inclusiveRatio: x.inclusive > 0 ? y.inclusive / x.inclusive : null,
      selfRatio: x.self > 0 ? y.self / x.self : null,
      status: x.calls === 0 ? "new" : y.calls === 0 ? "vanished" : "both",
    });
  }
  methods.sort(
    (p, q) => Math.abs(q.inclusiveDiff) - Math.abs(p.inclusiveDiff) || p.name.localeCompare(q.name),
  );
  return {
    per,
    units,
    runs: { baseline: a.runs, candidate: b.runs },
    methods,
    tree: tree.nodes(units, scale),
  };
}

function defaultUnit(a: ProfileSide, b: ProfileSide): ProfileUnit {
  if (a.frames !== undefined && b.frames !== undefined) return "frame";
  if (a.seconds !== undefined && b.seconds !== undefined) return "second";
  return "run";
}

function unitsOf(side: ProfileSide, runs: string[], per: ProfileUnit, which: string): number {
  const n = per === "frame" ? side.frames : per === "second" ? side.seconds : runs.length;
  const what =
    per === "frame" ? "frames (how many frames its runs drew)" : "seconds (how long its runs traced)";
  if (per !== "run" && n === undefined)
    throw new Error(`differentialProfile: per ${per} needs ${which}.${what}`);
  if (!(typeof n === "number" && n > 0))
    throw new Error(
      per === "run"
        ? `differentialProfile: the ${which} has no calls${side.runs ? ` in runs ${side.runs.join(", ")}` : ""}`
        : `differentialProfile: ${which}.${per === "frame" ? "frames" : "seconds"} must be a number above 0, got ${String(n)}`,
    );
  return n;
}

interface Acc {
  calls: number;
  inclusive: number;
  self: number;
}

/** "Class.method signature" for a method, or its id when the methods table does not name it. */
function methodKey(m: ProfileMethod | undefined, id: number): string {
  return m ? `${m.className}.${m.methodName} ${m.signature}` : `(method 0x${id.toString(16)})`;
}

/** Method names by run and id: a methods table's rows per run, or one list for every run. */
function methodNames(methods: ProfileSide["methods"]): (run: string, id: number) => string {
  if (Array.isArray(methods)) {
    const byId = new Map((methods as readonly ProfileMethod[]).map((m) => [m.id, methodKey(m, m.id)]));
    return (_, id) => byId.get(id) ?? methodKey(undefined, id);
  }
  const t = methods as Table;
  const m = readColumns(t, "methods", {
    run_id: utf8(),
    method_id: int64(0),
    class_name: utf8(),
    method_name: utf8(),
    signature: utf8(),
  });
  const runNames: string[] = [];
  const runs = stringCodes(m.run_id as Vector, runNames);
  const byRun = new Map<string, Map<number, string>>();
  for (let i = 0; i < t.numRows; i++) {
    const run = runNames[runs[i]!]!;
    let names = byRun.get(run);
    if (!names) byRun.set(run, (names = new Map()));
    const id = m.method_id[i]!;
    names.set(
      id,
      methodKey(
        {
          id,
          className: String(m.class_name.get(i)),
          methodName: String(m.method_name.get(i)),
          signature: String(m.signature.get(i)),
        },
        id,
      ),
    );
  }
  return (run, id) => byRun.get(run)?.get(id) ?? methodKey(undefined, id);
}

/** One side's per-method sums (raw ns) and its calls merged into the shared tree. */
function accumulate(side: ProfileSide, which: string, tree: MergedTree, s: 0 | 1, root?: string) {
  const c = readColumns(side.calls, "calls", {
    run_id: utf8(),
    call_id: int32(),
    parent: int32(-1),
    method_id: int64(0),
    inclusive: int64(0),
    exclusive: int64(0),
  });
  const n = side.calls.numRows;
  const runNames: string[] = [];
  const runCode = stringCodes(c.run_id as Vector, runNames);
  const wanted = side.runs ? new Set(side.runs) : null;
  const keep = (i: number) => !wanted || wanted.has(runNames[runCode[i]!]!);
  const nameOf = methodNames(side.methods);
  // Call ids are per run: a caller is looked up among its own run's calls.
  // rows by call id, one map per run (small-integer keys hash fast)
  const rowsOf: Map<number, number>[] = [];
  const keys: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    if (!keep(i)) continue;
    (rowsOf[runCode[i]!] ??= new Map()).set(c.call_id[i]!, i);
    keys[i] = nameOf(runNames[runCode[i]!]!, c.method_id[i]!);
  }
  const parent = new Int32Array(n).fill(-1);
  const runs = new Set<string>();
  for (let i = 0; i < n; i++) {
    if (!keep(i)) continue;
    runs.add(runNames[runCode[i]!]!);
    const p = c.parent[i]!;
    if (p < 0) continue;
    const row = rowsOf[runCode[i]!]!.get(p);
    if (row === undefined)
      throw new Error(
        `${which} calls row ${i} (run ${runNames[runCode[i]!]}): parent ${p} is not a call_id of that run (a filtered table must keep every caller)`,
      );
    parent[i] = row;
  }
  // Under a root method: its outermost calls lose their callers (they are the tree's root), calls outside go.
  if (root !== undefined) {
    const isRoot = (k: string) => k === root || k.startsWith(`${root} `);
    const inside = new Int8Array(n); // 0 unknown, 1 inside, -1 outside
    for (let i = 0; i < n; i++) {
      if (!keep(i)) continue;
      const chain: number[] = [];
      let j = i;
      let found: 1 | -1 = -1;
      for (; j >= 0; j = parent[j]!) {
        if (inside[j] !== 0) {
          found = inside[j] as 1 | -1;
          break;
        }
        chain.push(j);
      }
      // from the outermost call down: the first call of the root method starts the inside
      for (let k = chain.length - 1; k >= 0; k--) {
        const c = chain[k]!;
        if (found === -1 && isRoot(keys[c]!)) ((found = 1), (parent[c] = -1));
        inside[c] = found;
      }
    }
    for (let i = 0; i < n; i++) if (inside[i] !== 1) keys[i] = "";
  }
  const methods = new Map<string, Acc>();
  const node = new Int32Array(n).fill(-1);
  // the root method's outermost calls are the tree's root itself
  if (root !== undefined) for (let i = 0; i < n; i++) if (keys[i] && parent[i]! < 0) node[i] = 0;
  for (let i = 0; i < n; i++) {
    if (!keep(i) || keys[i] === "") continue;
    const key = keys[i]!;
    let acc = methods.get(key);
    if (!acc) methods.set(key, (acc = { calls: 0, inclusive: 0, self: 0 }));
    acc.calls++;
    acc.self += c.exclusive[i]!;
    let outermost = true;
    for (let p = parent[i]!; p >= 0 && outermost; p = parent[p]!) outermost = keys[p] !== key;
    if (outermost) acc.inclusive += c.inclusive[i]!;
    const u = tree.nodeOfCall(i, parent, keys, node);
    tree.add(u, s, c.inclusive[i]!, c.exclusive[i]!);
    if (parent[i]! < 0 && root === undefined) tree.add(0, s, c.inclusive[i]!, 0, 0);
  }
  return { methods, runs: runNames.filter((r) => runs.has(r)) };
}

/** Both sides' calls merged into one tree: a node per distinct method path from the outermost calls. */
class MergedTree {
  private name: string[] = [ROOT_NAME];
  private parent: number[] = [-1];
  /** each node's children, and their method keys as numbers (most nodes have a few: scanned, not hashed) */
  private kids: number[][] = [[]];
  private nodeKey: number[] = [-1];
  /** the children of a node with many, by key number */
  private wide = new Map<number, Map<number, number>>();
  private keyIds = new Map<string, number>();
  /** [side][node] */
  private inc: [number[], number[]] = [[0], [0]];
  private self: [number[], number[]] = [[0], [0]];
  private calls: [number[], number[]] = [[0], [0]];

  private child(u: number, key: string): number {
    let k = this.keyIds.get(key);
    if (k === undefined) this.keyIds.set(key, (k = this.keyIds.size));
    const kids = this.kids[u]!;
    const many = this.wide.get(u);
    let v: number | undefined;
    if (many) v = many.get(k);
    else for (const w of kids) if (this.nodeKey[w] === k) v = w;
    if (v === undefined) {
      v = this.name.length;
      kids.push(v);
      if (many) many.set(k, v);
      else if (kids.length > 16) this.wide.set(u, new Map(kids.map((w) => [this.nodeKey[w] ?? k, w])));
      this.nodeKey.push(k);
      this.name.push(key);
      this.parent.push(u);
      this.kids.push([]);
      for (const arr of [...this.inc, ...this.self, ...this.calls]) arr.push(0);
    }
    return v;
  }

  /** The node of call i (and of its callers, memoised in `node`), walking up to the first known caller. */
  nodeOfCall(i: number, parent: Int32Array, keys: string[], node: Int32Array): number {
    const path: number[] = [];
    let j = i;
    while (j >= 0 && node[j] === -1) (path.push(j), (j = parent[j]!));
    let u = j >= 0 ? node[j]! : 0;
    for (let k = path.length - 1; k >= 0; k--) u = node[path[k]!] = this.child(u, keys[path[k]!]!);
    return u;
  }

  /** The root stands for the calls of one method (DifferentialProfileOptions.root). */
  rename(root: string) {
    this.name[0] = root;
  }

  add(u: number, s: 0 | 1, inclusive: number, self: number, calls = 1) {
    this.inc[s][u] = this.inc[s][u]! + inclusive;
    this.self[s][u] = this.self[s][u]! + self;
    this.calls[s][u] = this.calls[s][u]! + calls;
  }

  nodes(
    units: { baseline: number; candidate: number },
    scale: (t: Acc, u: number) => SideTimes,
  ): DifferentialNode[] {
    const side = (s: 0 | 1, u: number) =>
      scale(
        { calls: this.calls[s][u]!, inclusive: this.inc[s][u]!, self: this.self[s][u]! },
        s === 0 ? units.baseline : units.candidate,
      );
    // both sides' inclusive per unit, summed: the children's order (largest mean first)
    const mean = this.name.map(
      (_, v) => this.inc[0][v]! / units.baseline + this.inc[1][v]! / units.candidate,
    );
    const out: DifferentialNode[] = [];
    const visit: [number, number | null, number][] = [[0, null, 0]];
    while (visit.length) {
      const [u, parent, depth] = visit.pop()!;
      const [x, y] = [side(0, u), side(1, u)];
      const id = out.length;
      out.push({
        id,
        parent,
        depth,
        name: this.name[u]!,
        baseline: x,
        candidate: y,
        inclusiveDiff: y.inclusive - x.inclusive,
        selfDiff: y.self - x.self,
      });
      const kids = [...this.kids[u]!].sort(
        (p, q) => mean[q]! - mean[p]! || this.name[p]!.localeCompare(this.name[q]!),
      );
      for (let k = kids.length - 1; k >= 0; k--) visit.push([kids[k]!, id, depth + 1]);
    }
    return out;
  }
}
