// The call timeline (AndroScope §VI-1, Fig. 13a) as a zoomable timeline's source: one track per thread, one row
// per call depth, and at every zoom level the level-of-detail query of call-timeline.ts over the run's summary
// (short calls counted per cell of time, so a million calls come back as a few thousand boxes). A box's
// details are the call's own row (start_ns, dur_ns: a call cut by the window shows its whole span there).
import type { Table } from "apache-arrow";
import type { TimelineBox, TimelineQuerySource } from "../common/timeline-lod";
import type { TimeWindow } from "../common/time-window";
import { callTimelineQuery, callTimelineRows, type CallTimelineFilter } from "./call-timeline";
import type { CallTimelineSummary } from "./call-timeline-summary";
import { summaryLanes } from "./call-timeline-summary";
import { boundQuery, checkFilter } from "./call-timeline-sql";
import type { ProfileMethod } from "./method-profile";

export interface CallTimelineSourceOptions extends Omit<CallTimelineFilter, "runId"> {
  /** the run's summary (callTimelineSummary) */
  summary: CallTimelineSummary;
  methods?: readonly ProfileMethod[];
  threads?: readonly { id: number; name: string }[];
  /** pixels per bucket at least (call-timeline.ts); default 2 */
  bucketPx?: number;
}

export function callTimelineSource(options: CallTimelineSourceOptions): TimelineQuerySource {
  const { summary } = options;
  const threads = checkFilter(options);
  const { chosen, extent } = summaryLanes(summary, options, threads);
  const methodNames = new Map((options.methods ?? []).map((m) => [m.id, `${m.className}.${m.methodName}`]));
  const threadNames = new Map((options.threads ?? []).map((t) => [t.id, t.name]));
  const trackNames = new Map<number, string>();
  const trackOf = (id: number) => {
    let t = trackNames.get(id);
    if (t === undefined) trackNames.set(id, (t = `${threadNames.get(id) ?? "thread"} ${id}`));
    return t;
  };
  const methodOf = (id: number) => methodNames.get(id) ?? `method 0x${id.toString(16)}`;
  const rows = new Map<number, number>();
  for (const l of chosen) rows.set(l.threadId, Math.max(rows.get(l.threadId) ?? 0, l.depth + 1));
  // The main thread first, as Perfetto UI lists a process's main thread first; then by thread id.
  const order = [...rows.keys()].sort(
    (a, b) => Number(threadNames.get(b) === "main") - Number(threadNames.get(a) === "main") || a - b,
  );
  return {
    extent: (extent ?? [0, 0]) as TimeWindow,
    tracks: order.map((id) => ({ name: trackOf(id), rows: rows.get(id)! })),
    query: (window, widthPx) =>
      callTimelineQuery({
        ...options,
        runId: summary.runId,
        summary,
        window,
        widthPx: Math.max(1, Math.round(widthPx)),
        // the canvas paints tens of thousands of boxes in a few ms (more than SVG's budget); turning rows into
        // boxes costs ~1 µs each on the main thread, so 20,000 (the timeline asks for 3x its width)
        maxRects: 20_000,
      }),
    boxes: (table) => {
      const r = callTimelineRows(table as Table);
      const out: TimelineBox[] = [];
      for (let i = 0; i < r.n; i++) {
        const method = methodOf(r.method[i]!);
        const isCall = r.isCall(i);
        out.push({
          track: trackOf(r.thread[i]!),
          depth: r.depth[i]!,
          start: r.start[i]!,
          end: r.end[i]!,
          name: method,
          count: r.calls[i]!,
          busy: r.busy[i]!,
          args: isCall
            ? { call_id: r.callId(i) }
            : { calls: r.calls[i]!, busy_ms: r.busy[i]! / 1e6, longest: method },
        });
      }
      return out;
    },
    details: (box) => {
      const id = box.args?.call_id;
      if (box.count !== 1 || typeof id !== "number") return null;
      const run = summary.runId != null ? " AND c.run_id = $run" : "";
      return boundQuery(
        `SELECT c.enter AS start_ns, c.exit - c.enter AS dur_ns, c.inclusive / 1e6 AS inclusive_ms,
       c.exclusive / 1e6 AS exclusive_ms, m.signature
FROM calls c LEFT JOIN methods m ON m.method_id = c.method_id AND m.run_id = c.run_id
WHERE c.call_id = $id${run}`,
        {
          id: [id, "BIGINT"],
          ...(summary.runId != null ? { run: [summary.runId, "VARCHAR"] as const } : {}),
        },
      );
    },
  };
}
