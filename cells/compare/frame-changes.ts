// Frames compared: the duration's p50/p90/p95/p99, the jank rate (duration over the frame's deadline) and the
// rate of frames that missed two deadlines, over all frames and per UI-event bucket matched across the sides by
// its event (kind and target, as DUNE §4 keys its buckets). Suspect rows (impossible times) are left out.
import type { Table } from "apache-arrow";
import { bool, int64, optional, readColumns, stringCodes, utf8 } from "../../bundle/read-columns";
import { BEFORE_FIRST_EVENT, blockAt, type SideBlocks } from "./blocks";
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

/** Adds the frame measures of both sides to `builder`. */
export function frameChanges(frames: Table | undefined, builder: MetricBuilder): void {
  if (!frames || frames.numRows === 0) return;
  const c = readColumns(frames, "frames", {
    run_id: utf8(),
    intended_vsync: int64(),
    duration: int64(),
    deadline: int64(),
    jank: bool(),
    suspect: optional(utf8()),
  });
  const runs: string[] = [];
  const code = stringCodes(c.run_id, runs);
  const quantiles = FRAME_QUANTILES.map((q) =>
    spec(`frames:duration:p${q * 100}`, "all frames", `frame duration p${q * 100}`, {
      statistic: { kind: "quantile", q },
      // a quantile needs a value beyond it: 100 frames for a p99
      minUnits: Math.ceil(1 / (1 - q)),
    }),
  );
  const jank = spec("frames:jank", "all frames", "jank rate", { unit: "share", scale: "difference" });
  const missed2 = spec("frames:missed-2", "all frames", "frames over two deadlines", {
    unit: "share",
    scale: "difference",
  });
  const bucketSpecs = new Map<string, MetricSpec[]>();
  const bucket = (key: string) => {
    let s = bucketSpecs.get(key);
    if (!s) {
      const subject = key === BEFORE_FIRST_EVENT ? key : `after ${key}`;
      s = [
        spec(`frames:bucket:${key}:duration`, subject, "frame duration (mean)", {}),
        spec(`frames:bucket:${key}:jank`, subject, "jank rate", { unit: "share", scale: "difference" }),
      ];
      bucketSpecs.set(key, s);
    }
    return s;
  };
  for (let i = 0; i < code.length; i++) {
    if (c.suspect && c.suspect.get(i) !== null) continue;
    const run = runs[code[i]!]!;
    const ts = c.intended_vsync[i]!;
    const ms = c.duration[i]! / 1e6;
    const j = c.jank[i]!;
    for (const q of quantiles) builder.add(q, run, ts, ms);
    builder.add(jank, run, ts, j);
    builder.add(missed2, run, ts, c.duration[i]! > 2 * c.deadline[i]! ? 1 : 0);
    const at = builder.locate(run);
    if (!at) continue;
    const side = at[0] === 0 ? builder.blocks.a : builder.blocks.b;
    const key = side.key[blockKeyIndex(side, at[1], ts)]!;
    const [d, jr] = bucket(key);
    builder.add(d!, run, ts, ms);
    builder.add(jr!, run, ts, j);
  }
}

const blockKeyIndex = (side: SideBlocks, r: number, ts: number) => Math.max(0, blockAt(side, r, ts));
