// AndroScope's segment partitioning for context switches (§V-3, Fig. 12), on intervals. A method trace
// records enters and exits, not context switches, so when two threads' segments overlap on one CPU the
// switches are inferred:
//   full overlap (Fig. 12(b)): Y lies inside X -> Y ran, and X was switched out for Y's whole span;
//   partial overlap (Fig. 12(c)): X starts first, Y starts before X ends and ends after it -> the overlap
//     [Y.start, X.end] is cut at its middle: X ran until m = (Y.start + X.end) / 2, Y from m.
// For more than two segments (the paper shows pairs) the rule here is: (1) trim every partial pair at its
// midpoint (X ends no later than its first partial partner's midpoint, Y starts no earlier than its last
// one's); (2) at every instant the active trimmed segment that started last runs ("scanned from left to
// right and top to bottom": ordered by start, longer first on ties, then by thread), so nested segments
// cut holes in the ones around them. Two segments give exactly Fig. 12; no instant covered by a segment
// is lost or counted twice (the tests check both against a brute force).

export interface SegmentInput {
  start: Float64Array;
  end: Float64Array;
  thread: Int32Array;
  /** CPU of each segment; segments on different CPUs never compete */
  cpu: Int32Array;
}

export interface Partition {
  /** the pieces each segment ran, ordered by CPU then time */
  piece: { segment: Int32Array; start: Float64Array; end: Float64Array };
  /** ns each segment ran */
  running: Float64Array;
  /** overlapping pairs of segments on one CPU, by case */
  full: number;
  partial: number;
}

/** Precedence: start, then the longer first (it contains the other), then thread, then index. */
export function precedes(s: SegmentInput, a: number, b: number): number {
  return s.start[a]! - s.start[b]! || s.end[b]! - s.end[a]! || s.thread[a]! - s.thread[b]! || a - b;
}

export function partitionSegments(s: SegmentInput): Partition {
  const n = s.start.length;
  const order = Int32Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => s.cpu[a]! - s.cpu[b]! || precedes(s, a, b),
  );
  const rank = new Int32Array(n);
  for (let r = 0; r < n; r++) rank[order[r]!] = r;
  const start = s.start.slice();
  const end = s.end.slice();
  const counts = trimPartialPairs(s, order, start, end);
  const running = new Float64Array(n);
  const pieces = { segment: [] as number[], start: [] as number[], end: [] as number[] };
  // Step 2 per CPU: sweep the trimmed starts in time order; the active segment of highest rank runs.
  let from = 0;
  while (from < n) {
    let to = from;
    while (to < n && s.cpu[order[to]!] === s.cpu[order[from]!]) to++;
    const byStart = Array.from(order.subarray(from, to)).filter((i) => end[i]! > start[i]!);
    byStart.sort((a, b) => start[a]! - start[b]! || rank[a]! - rank[b]!);
    sweep(byStart, start, end, rank, running, pieces);
    from = to;
  }
  return {
    piece: {
      segment: Int32Array.from(pieces.segment),
      start: Float64Array.from(pieces.start),
      end: Float64Array.from(pieces.end),
    },
    running,
    ...counts,
  };
}

/** Step 1: in precedence order, pair each segment with the active ones on its CPU; trims partial pairs. */
function trimPartialPairs(s: SegmentInput, order: Int32Array, start: Float64Array, end: Float64Array) {
  const trimmedEnd = new Uint8Array(order.length);
  const active: number[] = [];
  let cpu = NaN;
  let full = 0;
  let partial = 0;
  for (const y of order) {
    if (s.cpu[y] !== cpu) ((active.length = 0), (cpu = s.cpu[y]!));
    const sy = s.start[y]!;
    const ey = s.end[y]!;
    if (ey <= sy) continue;
    let kept = 0;
    for (const x of active) if (s.end[x]! > sy) active[kept++] = x;
    active.length = kept;
    for (const x of active) {
      if (s.thread[x] === s.thread[y]) continue; // one thread's segments follow each other
      if (ey <= s.end[x]!) {
        full++;
        continue;
      }
      partial++;
      const m = (sy + s.end[x]!) / 2;
      // The first partial partner in start order has the earliest midpoint: X runs until it.
      if (!trimmedEnd[x]) ((end[x] = m), (trimmedEnd[x] = 1));
      if (m > start[y]!) start[y] = m;
    }
    active.push(y);
  }
  return { full, partial };
}

function sweep(
  byStart: number[],
  start: Float64Array,
  end: Float64Array,
  rank: Int32Array,
  running: Float64Array,
  out: { segment: number[]; start: number[]; end: number[] },
) {
  const active: number[] = [];
  let run = -1;
  let since = 0;
  const emit = (seg: number, to: number) => {
    if (to <= since) return;
    running[seg] = running[seg]! + (to - since);
    const last = out.segment.length - 1;
    // A segment resumed right where it stopped continues its piece.
    if (last >= 0 && out.segment[last] === seg && out.end[last] === since) out.end[last] = to;
    else (out.segment.push(seg), out.start.push(since), out.end.push(to));
  };
  let i = 0;
  while (i < byStart.length || active.length) {
    const nextStart = i < byStart.length ? start[byStart[i]!]! : Infinity;
    let k = -1;
    for (let j = 0; j < active.length; j++) if (k < 0 || end[active[j]!]! < end[active[k]!]!) k = j;
    const nextEnd = k < 0 ? Infinity : end[active[k]!]!;
    if (nextEnd <= nextStart) {
      const x = active[k]!;
      active[k] = active[active.length - 1]!;
      active.pop();
      if (x !== run) continue;
      emit(x, nextEnd);
      run = -1;
      for (const a of active) if (run < 0 || rank[a]! > rank[run]!) run = a;
      since = nextEnd;
      continue;
    }
    const y = byStart[i++]!;
    active.push(y);
    if (run < 0 || rank[y]! > rank[run]!) {
      if (run >= 0) emit(run, nextStart);
      run = y;
      since = nextStart;
    }
  }
}
