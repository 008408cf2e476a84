// The frames as the comparison needs them, per side: the durations in ascending order with each one's UI-event
// bucket (for the quantiles), and per bucket its frames, janky frames and frames over two deadlines (for the
// rates). The native engine computes it in SQL without handing every row to JS (workspace/node/
// compare-frames-sql.ts); frameSummaryOf computes the same from a frames table. Suspect rows (impossible times)
// are left out.
import type { Table } from "apache-arrow";
import { bool, int64, optional, readColumns, stringCodes, utf8 } from "../../bundle/read-columns";
import { blockAt, type ComparisonBlocks } from "./blocks";

export interface FrameSideSummary {
  /** durations of the frames that have one, ms, ascending */
  ms: Float64Array;
  /** the block (of the side's) of each of those */
  msBlock: Int32Array;
  /** per block of the side: its frames, janky frames, and frames whose duration passed two deadlines */
  frames: Float64Array;
  jank: Float64Array;
  missed2: Float64Array;
}

export interface FrameSummary {
  a: FrameSideSummary;
  b: FrameSideSummary;
}

/** One row per frame: its side (0 = A, 1 = B), block, duration in ms (NaN: none), jank and two-deadline flags. */
export interface FrameRows {
  side: ArrayLike<number>;
  block: ArrayLike<number>;
  ms: Float64Array;
  jank: ArrayLike<number>;
  missed2: ArrayLike<number>;
  /** rows already ordered by side, then duration ascending, NaN last (the engine's ORDER BY) */
  ordered?: boolean;
}

/** The summary of frames given row by row. */
export function summariseFrames(blocks: ComparisonBlocks, rows: FrameRows): FrameSummary {
  const n = rows.ms.length;
  let order: ArrayLike<number> | undefined;
  if (!rows.ordered) {
    // by side, then duration, frames without one last
    const key = (i: number) => (Number.isNaN(rows.ms[i]!) ? Infinity : rows.ms[i]!);
    order = Uint32Array.from({ length: n }, (_, i) => i).sort((x, y) => {
      if (rows.side[x] !== rows.side[y]) return rows.side[x]! - rows.side[y]!;
      const kx = key(x);
      const ky = key(y);
      return kx < ky ? -1 : kx > ky ? 1 : 0;
    });
  }
  // ordered rows: each side's rows are one stretch, its timed frames first
  let bStarts = n;
  if (!order) {
    let lo = 0;
    while (lo < bStarts) {
      const mid = (lo + bStarts) >> 1;
      if (rows.side[mid]! < 1) lo = mid + 1;
      else bStarts = mid;
    }
  }
  const side = (s: 0 | 1): FrameSideSummary => {
    const nb = (s === 0 ? blocks.a : blocks.b).blockRun.length;
    const frames = new Float64Array(nb);
    const jank = new Float64Array(nb);
    const missed2 = new Float64Array(nb);
    const [from, to] = order ? [0, n] : s === 0 ? [0, bStarts] : [bStarts, n];
    let timed = 0;
    for (let j = from; j < to; j++) {
      const i = order ? order[j]! : j;
      if (rows.side[i] === s && Number.isFinite(rows.ms[i]!)) timed++;
    }
    const ms = new Float64Array(timed);
    const msBlock = new Int32Array(timed);
    let at = 0;
    for (let j = from; j < to; j++) {
      const i = order ? order[j]! : j;
      if (rows.side[i] !== s) continue;
      const k = rows.block[i]!;
      frames[k]!++;
      jank[k]! += rows.jank[i]!;
      missed2[k]! += rows.missed2[i]!;
      if (Number.isFinite(rows.ms[i]!)) {
        ms[at] = rows.ms[i]!;
        msBlock[at++] = k;
      }
    }
    return { ms, msBlock, frames, jank, missed2 };
  };
  return { a: side(0), b: side(1) };
}

/** The summary of a frames table's rows of both sides' runs, each frame in the block holding its vsync. */
export function frameSummaryOf(frames: Table | undefined, blocks: ComparisonBlocks): FrameSummary {
  const where = new Map<string, [0 | 1, number]>();
  blocks.a.runs.forEach((run, r) => where.set(run, [0, r]));
  blocks.b.runs.forEach((run, r) => where.set(run, [1, r]));
  const side: number[] = [];
  const block: number[] = [];
  const ms: number[] = [];
  const jank: number[] = [];
  const missed2: number[] = [];
  if (frames && frames.numRows > 0) {
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
    for (let i = 0; i < code.length; i++) {
      if (c.suspect && c.suspect.get(i) !== null) continue;
      const at = where.get(runs[code[i]!]!);
      if (!at) continue;
      const k = blockAt(at[0] === 0 ? blocks.a : blocks.b, at[1], c.intended_vsync[i]!);
      if (k < 0) continue;
      side.push(at[0]);
      block.push(k);
      ms.push(c.duration[i]! / 1e6);
      jank.push(c.jank[i]!);
      missed2.push(c.duration[i]! > 2 * c.deadline[i]! ? 1 : 0);
    }
  }
  return summariseFrames(blocks, { side, block, ms: Float64Array.from(ms), jank, missed2 });
}
