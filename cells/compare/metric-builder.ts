// Collects the units of many measures at once (each frame, task or draw is placed into its run's block by its
// time) and hands them to compareMetric as Metric inputs. Amounts per second get one unit per block, zero where
// the block holds none, so a task group or slice found on one side only is still compared (against zero), over
// the runs of the apps it occurs in: another app's runs could not have had it (docs/compare.md, "Assumptions").
import { blockAt, blockSeconds, type ComparisonBlocks, type SideBlocks } from "./blocks";
import type { Metric, MetricSide } from "./compare-metric";

export type MetricSpec = Omit<Metric, "a" | "b">;

/** A growing typed array: a million frames' units without a million boxed numbers for the collector. */
class Grow<A extends Float64Array | Int32Array> {
  length = 0;
  constructor(
    private data: A,
    private readonly make: (n: number) => A,
  ) {}
  push(x: number): void {
    if (this.length === this.data.length) {
      const next = this.make(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = x;
  }
  done(): A {
    return this.data.slice(0, this.length) as A;
  }
}

interface Units {
  value: Grow<Float64Array>;
  weight: Grow<Float64Array>;
  block: Grow<Int32Array>;
}

const f64 = (n: number) => new Float64Array(n);
const i32 = (n: number) => new Int32Array(n);
const units = (): Units => ({
  value: new Grow(f64(64), f64),
  weight: new Grow(f64(64), f64),
  block: new Grow(i32(64), i32),
});

type GivenUnits = Pick<MetricSide, "value" | "weight" | "block" | "sample">;

export class MetricBuilder {
  private readonly where = new Map<string, [0 | 1, number]>();
  private readonly specs = new Map<string, MetricSpec>();
  private readonly data = new Map<string, [Units, Units]>();
  private readonly amounts = new Map<string, [Float64Array, Float64Array]>();
  /** per amount: the apps of the runs it occurs in (only when the runs are of several apps) */
  private readonly amountApps = new Map<string, Set<string>>();
  /** per side, per run: its app, when the runs are of several apps */
  private readonly runApp: [string[], string[]] | undefined;
  private readonly given = new Map<string, [GivenUnits | undefined, GivenUnits | undefined]>();
  private readonly sides: [SideBlocks, SideBlocks];

  /** `apps`: each run's app (package); runs it does not name are one app */
  constructor(
    readonly blocks: ComparisonBlocks,
    apps?: ReadonlyMap<string, string>,
  ) {
    this.sides = [blocks.a, blocks.b];
    blocks.a.runs.forEach((run, r) => this.where.set(run, [0, r]));
    blocks.b.runs.forEach((run, r) => this.where.set(run, [1, r]));
    const appOf = (runs: readonly string[]) => runs.map((run) => apps?.get(run) ?? "");
    const runApp: [string[], string[]] = [appOf(blocks.a.runs), appOf(blocks.b.runs)];
    if (new Set([...runApp[0], ...runApp[1]]).size > 1) this.runApp = runApp;
  }

  /** The side and run index of a run id (undefined: on neither side). */
  locate(run: string): [0 | 1, number] | undefined {
    return this.where.get(run);
  }

  /** One unit of measure `spec.key` from `run` at time `ts`. */
  add(spec: MetricSpec, run: string, ts: number, value: number, weight = 1): void {
    const at = this.where.get(run);
    if (!at || !Number.isFinite(value)) return;
    const [side, r] = at;
    const block = blockAt(this.sides[side], r, ts);
    if (block < 0) return;
    let d = this.data.get(spec.key);
    if (!d) {
      this.specs.set(spec.key, spec);
      this.data.set(spec.key, (d = [units(), units()]));
    }
    d[side].value.push(value);
    d[side].weight.push(weight);
    d[side].block.push(block);
  }

  /** An amount (time, a count) of measure `spec.key` at time `ts`: compared per second of each block. */
  addAmount(spec: MetricSpec, run: string, ts: number, amount: number): void {
    const at = this.where.get(run);
    if (!at || !Number.isFinite(amount)) return;
    const [side, r] = at;
    const block = blockAt(this.sides[side], r, ts);
    if (block < 0) return;
    let d = this.amounts.get(spec.key);
    if (!d) {
      this.specs.set(spec.key, spec);
      this.amounts.set(
        spec.key,
        (d = [
          new Float64Array(this.sides[0].blockRun.length),
          new Float64Array(this.sides[1].blockRun.length),
        ]),
      );
    }
    d[side][block]! += amount;
    if (this.runApp) {
      let seen = this.amountApps.get(spec.key);
      if (!seen) this.amountApps.set(spec.key, (seen = new Set()));
      seen.add(this.runApp[side][r]!);
    }
  }

  /**
   * Time spent over [start, end) (ns) of measure `spec.key`, in ms: each block gets the part of it that falls within
   * the block, so a long task's execution counts per second of the buckets it ran in, not all in the one it began in.
   */
  addInterval(spec: MetricSpec, run: string, start: number, end: number): void {
    const at = this.where.get(run);
    if (!at || !Number.isFinite(start) || !Number.isFinite(end) || end < start) return;
    const [side, r] = at;
    const b = this.sides[side];
    const first = blockAt(b, r, start);
    if (first < 0) return;
    const last = r + 1 < b.offset.length ? b.offset[r + 1]! - 1 : b.blockRun.length - 1;
    if (end === start) return this.addAmount(spec, run, start, 0);
    for (let k = first; k <= last; k++) {
      // the first block takes what lies before it too, the last what lies after (a run's data past its span)
      const lo = k === first ? start : Math.max(start, b.start[k]!);
      const hi = k === last ? end : Math.min(end, b.end[k]!);
      if (hi > lo) this.addAmount(spec, run, b.start[k]!, (hi - lo) / 1e6);
      if (hi >= end) break;
    }
  }

  /**
   * A measure whose units were gathered elsewhere (each block's frames summed, frames sorted by the engine): one
   * side's units as they are, blocks numbered as the side's.
   */
  addUnits(
    spec: MetricSpec,
    side: 0 | 1,
    units: Pick<MetricSide, "value" | "weight" | "block" | "sample">,
  ): void {
    let d = this.given.get(spec.key);
    if (!d) {
      this.specs.set(spec.key, spec);
      this.given.set(spec.key, (d = [undefined, undefined]));
    }
    d[side] = units;
  }

  private side(s: 0 | 1, u: Units): MetricSide {
    const b = this.sides[s];
    return {
      runs: b.runs,
      blockRun: b.blockRun,
      value: u.value.done(),
      weight: u.weight.done(),
      block: u.block.done(),
    };
  }

  private amountSide(s: 0 | 1, amount: Float64Array, apps: Set<string> | undefined): MetricSide {
    const b = this.sides[s];
    const side = {
      runs: b.runs,
      blockRun: b.blockRun,
      value: amount,
      weight: blockSeconds(b),
      block: Int32Array.from(amount.keys()),
    };
    if (!this.runApp || !apps) return side;
    // only the blocks of runs of an app the amount occurs in (on either side)
    const runApp = this.runApp[s];
    const mine = (_: number, k: number) => apps.has(runApp[b.blockRun[k]!]!);
    return {
      ...side,
      value: side.value.filter(mine),
      weight: side.weight.filter(mine),
      block: side.block.filter(mine),
    };
  }

  private givenSide(s: 0 | 1, u: GivenUnits | undefined): MetricSide {
    const b = this.sides[s];
    return {
      runs: b.runs,
      blockRun: b.blockRun,
      ...(u ?? { value: new Float64Array(0), weight: new Float64Array(0), block: new Int32Array(0) }),
    };
  }

  build(): Metric[] {
    const out: Metric[] = [];
    for (const [key, [a, b]] of this.data)
      out.push({ ...this.specs.get(key)!, a: this.side(0, a), b: this.side(1, b) });
    for (const [key, [a, b]] of this.amounts)
      out.push({
        ...this.specs.get(key)!,
        a: this.amountSide(0, a, this.amountApps.get(key)),
        b: this.amountSide(1, b, this.amountApps.get(key)),
      });
    for (const [key, [a, b]] of this.given)
      out.push({ ...this.specs.get(key)!, a: this.givenSide(0, a), b: this.givenSide(1, b) });
    return out;
  }
}
