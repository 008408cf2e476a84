// Frames compared: the duration's p50/p90/p95/p99, the jank rate (duration over the frame's deadline) and the
// rate of frames that missed two deadlines, over all frames and per UI-event bucket matched across the sides by
// its event (kind and target, as DUNE §4 keys its buckets). They are read from the frames' summary
// (frame-summary.ts): a quantile's units are the frames, in ascending order; a rate's or a mean's are the
// buckets' sums, with the frames' values kept as the sample Cliff's δ compares.
import type { Table } from "apache-arrow";
import { BEFORE_FIRST_EVENT } from "./blocks";
import { frameSummaryOf, type FrameSideSummary, type FrameSummary } from "./frame-summary";
import type { MetricBuilder, MetricSpec } from "./metric-builder";

export const FRAME_QUANTILES = [0.5, 0.9, 0.95, 0.99] as const;

const spec = (key: string, subject: string, measure: string, rest: Partial<MetricSpec>): MetricSpec => ({
  analysis: "frames",
  key,
  subject,
  measure,
  unit: "ms",
  statistic: { kind: "mean" },
  scale: "ratio",
  better: "lower",
  ...rest,
});

/** Adds the frame measures of both sides to `builder`, from a frames table. */
export function frameChanges(frames: Table | undefined, builder: MetricBuilder): void {
  if (!frames || frames.numRows === 0) return;
  frameSummaryChanges(frameSummaryOf(frames, builder.blocks), builder);
}

/** A 0/1 outcome per frame, summed per block: units are the blocks holding frames, the sample its 0s and 1s. */
function rateUnits(frames: Float64Array, hits: Float64Array, keep: (k: number) => boolean) {
  const blocks: number[] = [];
  let n = 0;
  let h = 0;
  for (let k = 0; k < frames.length; k++)
    if (frames[k]! > 0 && keep(k)) {
      blocks.push(k);
      n += frames[k]!;
      h += hits[k]!;
    }
  return {
    value: Float64Array.from(blocks, (k) => hits[k]!),
    weight: Float64Array.from(blocks, (k) => frames[k]!),
    block: Int32Array.from(blocks),
    sample: { value: Float64Array.of(0, 1), count: Float64Array.of(n - h, h) },
  };
}

/**
 * Per bucket key: the blocks of that key holding durations, each unit a block's sum (in ascending order of its
 * durations, so every engine's summary sums alike), and the key's durations as the sample, ascending.
 */
function meanUnitsByKey(s: FrameSideSummary, keyOf: Int32Array, keys: number) {
  const nb = s.frames.length;
  const sum = new Float64Array(nb);
  const count = new Float64Array(nb);
  const perKey = new Int32Array(keys + 1);
  for (let i = 0; i < s.ms.length; i++) {
    const k = s.msBlock[i]!;
    sum[k]! += s.ms[i]!;
    count[k]!++;
    perKey[keyOf[k]! + 1]!++;
  }
  for (let j = 0; j < keys; j++) perKey[j + 1]! += perKey[j]!;
  const at = perKey.slice(0, keys);
  const sample = new Float64Array(s.ms.length);
  for (let i = 0; i < s.ms.length; i++) sample[at[keyOf[s.msBlock[i]!]!]!++] = s.ms[i]!;
  const blocksOf: number[][] = Array.from({ length: keys }, () => []);
  for (let k = 0; k < nb; k++) if (count[k]! > 0) blocksOf[keyOf[k]!]!.push(k);
  return blocksOf.map((blocks, j) => ({
    value: Float64Array.from(blocks, (k) => sum[k]!),
    weight: Float64Array.from(blocks, (k) => count[k]!),
    block: Int32Array.from(blocks),
    sample: { value: sample.slice(perKey[j]!, perKey[j + 1]!) },
  }));
}

/** Adds the frame measures of both sides to `builder`, from the frames' summary. */
export function frameSummaryChanges(summary: FrameSummary, builder: MetricBuilder): void {
  const sides = [summary.a, summary.b] as const;
  const blocks = [builder.blocks.a, builder.blocks.b] as const;
  const all = () => true;
  // one weight array a side for the four quantiles (a million frames' ones)
  const ones = sides.map((s) => new Float64Array(s.ms.length).fill(1));
  if (sides.some((s) => s.ms.length > 0))
    for (const q of FRAME_QUANTILES) {
      const m = spec(`frames:duration:p${q * 100}`, "all frames", `frame duration p${q * 100}`, {
        statistic: { kind: "quantile", q },
        // a quantile needs a value beyond it: 100 frames for a p99
        minUnits: Math.ceil(1 / (1 - q)),
      });
      sides.forEach((s, i) =>
        builder.addUnits(m, i as 0 | 1, {
          value: s.ms,
          weight: ones[i]!,
          block: s.msBlock,
        }),
      );
    }
  if (sides.some((s) => s.frames.some((n) => n > 0))) {
    const jank = spec("frames:jank", "all frames", "jank rate", { unit: "share", scale: "difference" });
    const missed2 = spec("frames:missed-2", "all frames", "frames over two deadlines", {
      unit: "share",
      scale: "difference",
    });
    sides.forEach((s, i) => {
      builder.addUnits(jank, i as 0 | 1, rateUnits(s.frames, s.jank, all));
      builder.addUnits(missed2, i as 0 | 1, rateUnits(s.frames, s.missed2, all));
    });
  }
  // per UI-event bucket, matched across the sides by its key
  const keys: string[] = [];
  const index = new Map<string, number>();
  const keyOf = blocks.map((b, i) =>
    Int32Array.from(b.key, (key, k) => {
      if (!(sides[i]!.frames[k]! > 0)) return -1;
      let j = index.get(key);
      if (j === undefined) index.set(key, (j = keys.push(key) - 1));
      return j;
    }),
  );
  const means = sides.map((s, i) => meanUnitsByKey(s, keyOf[i]!, keys.length));
  keys.forEach((key, j) => {
    const subject = key === BEFORE_FIRST_EVENT ? key : `after ${key}`;
    const duration = spec(`frames:bucket:${key}:duration`, subject, "frame duration (mean)", {});
    const jank = spec(`frames:bucket:${key}:jank`, subject, "jank rate", {
      unit: "share",
      scale: "difference",
    });
    if (means.some((m) => m[j]!.block.length > 0))
      means.forEach((m, i) => builder.addUnits(duration, i as 0 | 1, m[j]!));
    sides.forEach((s, i) =>
      builder.addUnits(
        jank,
        i as 0 | 1,
        rateUnits(s.frames, s.jank, (k) => keyOf[i]![k] === j),
      ),
    );
  });
}
