// A run bundle as a Perfetto trace (docs/perfetto-export.md): frames (expected and actual, named by verdict
// so Perfetto UI colours jank apart), DiagDroid tasks (queued and running per execution unit, a flow from
// each task's queued slice to its running slice), DRAW render operations, AndroScope calls, input events,
// counters, and the slices of an imported Perfetto or systrace trace on their own threads.
import type { Table } from "apache-arrow";
import type { TableName } from "../bundle/schema";
import { PerfettoTraceWriter } from "./perfetto-trace-writer";

export interface PerfettoExport {
  trace: Uint8Array;
  /** slices and counter samples written, per source table */
  written: Partial<Record<TableName, number>>;
  warnings: string[];
}

type Tables = ReadonlyMap<TableName, Table> | Partial<Record<TableName, Table>>;

const MS = 1e6;

export function bundleToPerfetto(tables: Tables, runId: string | null = null): PerfettoExport {
  const get = (n: TableName) =>
    tables instanceof Map ? tables.get(n) : (tables as Record<string, Table>)[n];
  const w = new PerfettoTraceWriter();
  const written: PerfettoExport["written"] = {};
  const warnings: string[] = [];
  const count = (n: TableName, k = 1) => (written[n] = (written[n] ?? 0) + k);
  const rowsOf = (n: TableName) => {
    const t = get(n);
    return t ? rowsFor(t, runId) : null;
  };

  const frames = rowsOf("frames");
  if (frames) {
    const tracks = new Map<string, { expected: number; actual: number }>();
    let suspect = 0;
    for (const f of frames) {
      if (f.str("suspect") !== null) {
        suspect++;
        continue;
      }
      const window = f.str("window") ?? "app";
      let t = tracks.get(window);
      if (!t) {
        t = { expected: w.track(`Expected frames ${window}`), actual: w.track(`Actual frames ${window}`) };
        tracks.set(window, t);
      }
      const iv = f.num("intended_vsync")!;
      const deadline = f.num("deadline")!;
      const duration = f.num("duration")!;
      const jank = f.bool("jank");
      const args = {
        vsync_id: f.num("frame_timeline_vsync_id"),
        duration_ms: duration / MS,
        deadline_ms: deadline / MS,
      };
      w.slice(t.expected, { ts: iv, dur: deadline, name: "Expected frame", category: "frames", args });
      w.slice(t.actual, {
        ts: iv,
        dur: duration,
        name: jank ? "Janky frame" : "On-time frame",
        category: "frames",
        args,
      });
      count("frames", 2);
    }
    if (suspect) warnings.push(`frames: ${suspect} suspect row(s) (impossible times) left out`);
  }

  const tasks = rowsOf("tasks");
  if (tasks) {
    const units = new Map<string, { queued: number; running: number }>();
    for (const t of tasks) {
      const unit = `${t.str("category")} ${t.str("executor_id")}`;
      let u = units.get(unit);
      if (!u) {
        const parent = w.track(`Tasks: ${unit}`);
        u = { queued: w.track("queued", parent), running: w.track("running", parent) };
        units.set(unit, u);
      }
      const scheduled = t.num("scheduled")!;
      const started = t.num("started");
      const ended = t.num("ended");
      const name = t.str("task_class") ?? t.str("category")!;
      const id = t.num("task_id")!;
      const args = { task_id: id, thread: t.str("thread_name"), context_id: t.num("context_id") };
      // Queued and running are the same task from one time to the next (open when that one is unknown).
      const phase = (from: number, to: number | null) => ({
        ts: from,
        dur: to === null ? null : to - from,
        name,
        category: "diagdroid",
        args,
      });
      // Flow ids must be non-zero; task ids start at 0.
      w.slice(u.queued, { ...phase(scheduled, started), flowOut: started === null ? [] : [id + 1] });
      if (started !== null) w.slice(u.running, { ...phase(started, ended), flowIn: [id + 1] });
      count("tasks", started === null ? 1 : 2);
    }
  }

  const ops = rowsOf("render_ops");
  if (ops) {
    const ui = w.track("Render ops (UI thread)");
    let other: number | null = null;
    for (const o of ops) {
      const track = o.bool("ui_thread") ? ui : (other ??= w.track("Render ops (other threads)"));
      const cls = o.str("view_class")!;
      w.slice(track, {
        ts: o.num("start")!,
        dur: o.num("dur")!,
        name: `${o.str("op")} ${cls.slice(cls.lastIndexOf(".") + 1)}`,
        category: "draw",
        args: { frame: o.num("frame"), view_id: o.num("view_id"), view_class: cls, xml_id: o.str("xml_id") },
      });
      count("render_ops");
    }
  }

  const calls = rowsOf("calls");
  if (calls) {
    const methods = new Map<number, string>();
    for (const m of rowsOf("methods") ?? [])
      methods.set(m.num("method_id")!, `${m.str("class_name")}.${m.str("method_name")}`);
    const threadNames = new Map<number, string>();
    for (const t of rowsOf("threads") ?? []) threadNames.set(t.num("thread_id")!, t.str("name")!);
    const tracks = new Map<number, number>();
    for (const c of calls) {
      const tid = c.num("thread_id")!;
      let track = tracks.get(tid);
      if (track === undefined)
        tracks.set(tid, (track = w.track(`Calls: ${threadNames.get(tid) ?? "thread"} (${tid})`)));
      const id = c.num("method_id")!;
      const enter = c.num("enter")!;
      w.slice(track, {
        ts: enter,
        dur: c.num("exit")! - enter,
        name: methods.get(id) ?? `method ${id}`,
        category: "androscope",
        args: { exclusive_ms: c.num("exclusive")! / MS, synthetic_exit: c.bool("synthetic_exit") },
      });
      count("calls");
    }
  }

  const ui = rowsOf("ui_events");
  if (ui) {
    const track = w.track("Input events");
    for (const e of ui) {
      w.slice(track, {
        ts: e.num("ts")!,
        dur: 0,
        name: e.str("kind")!,
        category: "input",
        args: { target: e.str("target") },
      });
      count("ui_events");
    }
  }

  const slices = rowsOf("slices");
  const processNames = new Map<number, string | null>();
  for (const p of rowsOf("processes") ?? []) processNames.set(p.num("pid")!, p.str("name"));
  const processTrack = (pid: number | null) =>
    pid === null ? null : w.processTrack(pid, processNames.get(pid) ?? null);
  if (slices) {
    const named = new Map<string, number>();
    for (const s of slices) {
      const pid = s.num("pid");
      const tid = s.num("tid");
      let track: number;
      if (tid !== null) {
        processTrack(pid);
        track = w.threadTrack(pid, tid, s.str("thread_name"));
      } else {
        const name = s.str("track") ?? s.str("name")!;
        const key = `${pid}\u0000${name}`;
        let t = named.get(key);
        if (t === undefined) named.set(key, (t = w.track(name, processTrack(pid))));
        track = t;
      }
      w.slice(track, {
        ts: s.num("ts")!,
        dur: s.num("dur"),
        name: s.str("name")!,
        category: s.str("category") ?? undefined,
      });
      count("slices");
    }
  }

  const counterTracks = new Map<string, number>();
  const counter = (table: TableName, name: string, pid: number | null, ts: number, value: number) => {
    const key = `${table}\u0000${pid}\u0000${name}`;
    let t = counterTracks.get(key);
    if (t === undefined) counterTracks.set(key, (t = w.counterTrack(name, processTrack(pid))));
    w.counter(t, ts, value);
    count(table);
  };
  for (const s of rowsOf("counter_samples") ?? [])
    counter("counter_samples", s.str("name")!, s.num("pid"), s.num("ts")!, s.num("value")!);
  for (const s of rowsOf("hpc_samples") ?? []) {
    const cpu = s.num("cpu");
    counter(
      "hpc_samples",
      `${s.str("counter")}${cpu === null ? "" : ` cpu${cpu}`}`,
      null,
      s.num("ts")!,
      s.num("value")!,
    );
  }
  for (const s of rowsOf("heap_samples") ?? [])
    counter("heap_samples", `heap ${s.str("kind")}`, null, s.num("ts")!, s.num("value")!);

  return { trace: w.finish(), written, warnings };
}

interface Row {
  num(c: string): number | null;
  str(c: string): string | null;
  bool(c: string): boolean;
}

// Row accessors over a table's columns (absent columns read as null), only the rows of `runId` when given.
function* rowsFor(t: Table, runId: string | null): Generator<Row> {
  const cols = new Map<string, { get(i: number): unknown } | null>();
  const col = (c: string) => {
    if (!cols.has(c)) cols.set(c, t.getChild(c) as { get(i: number): unknown } | null);
    return cols.get(c)!;
  };
  let i = 0;
  const row: Row = {
    num: (c) => {
      const v = col(c)?.get(i);
      return v === null || v === undefined ? null : Number(v);
    },
    str: (c) => {
      const v = col(c)?.get(i);
      return v === null || v === undefined ? null : String(v);
    },
    bool: (c) => Boolean(col(c)?.get(i)),
  };
  for (i = 0; i < t.numRows; i++) if (runId === null || row.str("run_id") === runId) yield row;
}
