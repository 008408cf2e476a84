// Test support: the call timeline's level-of-detail rule (cells/androscope/call-timeline.ts) written out by
// brute force over a list of calls, and the query's rows in the same shape.
import type { CallTimelineOptions, CallTimelineQuery } from "../../../cells/androscope/call-timeline";
import type { SqlEngine } from "../../../workspace/db/engine";
import type { FlatCall } from "./call-table";

export interface Out {
  kind: string;
  thread_id: number;
  depth: number;
  start: number;
  end: number;
  calls: number;
  busy: number;
  method_id: number;
  call_id: number | null;
}

export function runLanes(calls: { thread: number; depth: number }[]): number {
  const deepest = new Map<number, number>();
  for (const c of calls) deepest.set(c.thread, Math.max(deepest.get(c.thread) ?? 0, c.depth + 1));
  return [...deepest.values()].reduce((a, b) => a + b, 0);
}

/** The rule by hand: filter, cut to the window, grid level, then wide calls and per-cell short ones. */
export function reference(calls: FlatCall[], o: CallTimelineOptions): Out[] {
  const mine = calls
    .map((c, i) => ({ ...c, id: i }))
    .filter(
      (c) =>
        (!o.threadIds || o.threadIds.includes(c.thread)) && (o.maxDepth == null || c.depth <= o.maxDepth),
    );
  if (!mine.length) return [];
  const t0 = o.window ? Math.floor(o.window[0]) : Math.min(...mine.map((c) => c.enter));
  const t1 = o.window ? Math.ceil(o.window[1]) : Math.max(...mine.map((c) => c.exit));
  // lanes: every thread's deepest depth + 1, over the run's calls (not only the window's)
  const lanes = o.lanes ?? runLanes(mine);
  const buckets = Math.max(
    1,
    Math.min(
      Math.min(65_535, Math.max(1, Math.floor(o.widthPx / (o.bucketPx ?? 2)))),
      Math.floor((o.maxRects ?? 8_000) / Math.max(lanes, 1)),
    ),
  );
  const len = t1 - t0;
  let cell = 1;
  while (cell * buckets < len) cell *= 2;
  const shown = mine
    .filter((c) => c.enter < t1 && (c.exit > t0 || (c.exit === c.enter && c.enter >= t0)))
    .map((c) => ({ ...c, s: Math.max(c.enter, t0), e: Math.min(c.exit, t1) }));
  const asCall = (c: (typeof shown)[number]): Out => ({
    kind: "call",
    thread_id: c.thread,
    depth: c.depth,
    start: c.s,
    end: c.e,
    calls: 1,
    busy: c.e - c.s,
    method_id: c.method,
    call_id: c.id,
  });
  const out: Out[] = shown.filter((c) => c.exit - c.enter >= cell).map(asCall);
  const groups = new Map<string, typeof shown>();
  for (const c of shown.filter((x) => x.exit - x.enter < cell)) {
    const key = `${c.thread}/${c.depth}/${Math.floor(c.s / cell)}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  for (const [key, g] of groups) {
    if (g.length === 1) {
      out.push(asCall(g[0]!));
      continue;
    }
    const from = Number(key.split("/")[2]) * cell;
    const longest = [...g].sort((x, y) => y.e - y.s - (x.e - x.s) || x.method - y.method)[0]!;
    out.push({
      kind: "bucket",
      thread_id: g[0]!.thread,
      depth: g[0]!.depth,
      start: Math.max(from, t0),
      end: Math.min(from + cell, t1),
      calls: g.length,
      busy: g.reduce((s, c) => s + c.e - c.s, 0),
      method_id: longest.method,
      call_id: null,
    });
  }
  return sortOut(out);
}

export const sortOut = (rows: Out[]) =>
  [...rows].sort(
    (a, b) =>
      a.thread_id - b.thread_id ||
      a.depth - b.depth ||
      a.start - b.start ||
      (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0) ||
      (a.call_id ?? -1) - (b.call_id ?? -1),
  );

export async function rowsOf(engine: SqlEngine, q: CallTimelineQuery): Promise<Out[]> {
  const t = await engine.query(q.sql, q.params);
  return t.toArray().map((r) => {
    const x = r.toJSON() as Record<string, unknown>;
    return {
      kind: String(x.kind),
      thread_id: Number(x.thread_id),
      depth: Number(x.depth),
      start: Number(x.start),
      end: Number(x.end),
      calls: Number(x.calls),
      busy: Number(x.busy),
      method_id: Number(x.method_id),
      call_id: x.call_id == null ? null : Number(x.call_id),
    };
  });
}
