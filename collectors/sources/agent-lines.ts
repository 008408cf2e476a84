// Reads the agent's logcat lines (protocol v1, docs/agent-protocol.md) into tasks, contexts, render_ops
// and ui_events rows. Lines are de-duplicated by (pid, seq), so a restarted logcat that replays its buffer
// counts nothing twice, and a hole in seq is reported as lost lines.
import {
  AGENT_TAG,
  LINE_PREFIX,
  unfield,
  type AgentRecord,
  type RenderOp,
  type TaskCategory,
} from "../agent/protocol";

const CATEGORIES = new Set([
  "thread",
  "handler_thread",
  "intent_service",
  "thread_pool_executor",
  "async_task",
]);
const OPS = new Set(["measure", "layout", "draw"]);
const VISIBILITY = new Set(["visible", "invisible", "gone"]);

export interface TaskRow {
  task_id: number;
  category: TaskCategory;
  executor_id: string;
  pool_capacity: number | null;
  task_class: string;
  scheduled: bigint;
  started: bigint | null;
  ended: bigint | null;
  thread_id: number | null;
  thread_name: string | null;
  context_id: number;
}
export type RenderOpRow = Omit<Extract<AgentRecord, { type: "op" }>, "type">;
export interface UiEventRow {
  ts: bigint;
  kind: string;
  target: string | null;
  source: string;
}

export interface AgentData {
  tasks: TaskRow[];
  contexts: Map<number, string[]>;
  renderOps: RenderOpRow[];
  uiEvents: UiEventRow[];
  hello: Extract<AgentRecord, { type: "hello" }> | null;
  lines: number;
  duplicates: number;
  warnings: string[];
}

function int(s: string | undefined, what: string): number {
  if (s === undefined || !/^-?\d+$/.test(s)) throw new Error(`${what} is not an integer ("${s ?? ""}")`);
  return Number(s);
}
function big(s: string | undefined, what: string): bigint {
  if (s === undefined || !/^-?\d+$/.test(s)) throw new Error(`${what} is not an integer ("${s ?? ""}")`);
  return BigInt(s);
}
function str(s: string | undefined, what: string): string {
  const v = s === undefined ? null : unfield(s);
  if (v === null) throw new Error(`${what} missing`);
  return v;
}
function optStr(s: string | undefined): string | null {
  return s === undefined ? null : unfield(s);
}

/** One message (after `jb1 <seq> `): the record, or an Error saying which field was wrong. */
export function decodeRecord(type: string, f: string[]): AgentRecord {
  const need = (n: number) => {
    if (f.length < n) throw new Error(`${type}: expected ${n} fields, got ${f.length}`);
  };
  switch (type) {
    case "hello":
      need(3);
      return {
        type,
        agent_version: str(f[0], "agent_version"),
        pid: int(f[1], "pid"),
        package: str(f[2], "package"),
      };
    case "ctx":
      need(2);
      return {
        type,
        context_id: int(f[0], "context_id"),
        frames: f.slice(2).map((x, i) => str(x, `frame ${i}`)),
      };
    case "task": {
      need(7);
      const category = str(f[1], "category");
      if (!CATEGORIES.has(category)) throw new Error(`task: unknown category "${category}"`);
      return {
        type,
        task_id: int(f[0], "task_id"),
        category: category as TaskCategory,
        executor_id: str(f[2], "executor_id"),
        pool_capacity: f[3] === "-" ? null : int(f[3], "pool_capacity"),
        task_class: str(f[4], "task_class"),
        scheduled: big(f[5], "scheduled"),
        context_id: int(f[6], "context_id"),
      };
    }
    case "begin":
      need(4);
      return {
        type,
        task_id: int(f[0], "task_id"),
        ts: big(f[1], "ts"),
        tid: int(f[2], "tid"),
        thread_name: str(f[3], "thread_name"),
      };
    case "end":
      need(2);
      return { type, task_id: int(f[0], "task_id"), ts: big(f[1], "ts") };
    case "op": {
      need(15);
      const op = str(f[4], "op");
      if (!OPS.has(op)) throw new Error(`op: unknown operation "${op}"`);
      const visibility = str(f[12], "visibility");
      if (!VISIBILITY.has(visibility)) throw new Error(`op: unknown visibility "${visibility}"`);
      const flags = str(f[7], "flags");
      return {
        type,
        frame: int(f[0], "frame"),
        view_id: int(f[1], "view_id"),
        parent_id: f[2] === "-" ? null : int(f[2], "parent_id"),
        view_class: str(f[3], "view_class"),
        op: op as RenderOp,
        start: big(f[5], "start"),
        dur: big(f[6], "dur"),
        ui_thread: flags.includes("U"),
        hw_accelerated: flags.includes("H"),
        has_background: flags.includes("B"),
        left: int(f[8], "left"),
        top: int(f[9], "top"),
        width: int(f[10], "width"),
        height: int(f[11], "height"),
        visibility: visibility as "visible",
        xml_id: optStr(f[13]),
        layout_file: optStr(f[14]),
      };
    }
    case "input":
      need(4);
      return {
        type,
        ts: big(f[0], "ts"),
        kind: str(f[1], "kind"),
        target: optStr(f[2]),
        source: str(f[3], "source"),
      };
    default:
      throw new Error(`unknown record type "${type}"`);
  }
}

/** Incremental reader: feed it logcat messages of the agent's tag, in order; read `data` at any time. */
export class AgentLineReader {
  readonly data: AgentData = {
    tasks: [],
    contexts: new Map(),
    renderOps: [],
    uiEvents: [],
    hello: null,
    lines: 0,
    duplicates: 0,
    warnings: [],
  };
  private seen = new Map<number, Set<number>>();
  private maxSeq = new Map<number, number>();
  private minSeq = new Map<number, number>();
  private byId = new Map<number, TaskRow>();
  private pending = new Map<number, { begin?: Extract<AgentRecord, { type: "begin" }>; end?: bigint }>();
  private warnedVersion = false;

  /** `where` names the source and line for messages ("logcat line 812"). */
  feed(message: string, pid: number, where: string): void {
    const parts = message.trim().split(" ");
    if (parts[0] !== LINE_PREFIX) {
      if (/^jb\d+$/.test(parts[0] ?? "") && !this.warnedVersion) {
        this.warnedVersion = true;
        this.data.warnings.push(
          `${where}: agent protocol ${parts[0]} is not supported (this collector reads ${LINE_PREFIX}); its lines are skipped`,
        );
      }
      return;
    }
    const seqText = parts[1];
    if (seqText === undefined || !/^\d+$/.test(seqText)) {
      this.data.warnings.push(`${where}: agent line without a sequence number`);
      return;
    }
    const seq = Number(seqText);
    let seen = this.seen.get(pid);
    if (!seen) this.seen.set(pid, (seen = new Set()));
    if (seen.has(seq)) {
      this.data.duplicates++;
      return;
    }
    seen.add(seq);
    this.maxSeq.set(pid, Math.max(this.maxSeq.get(pid) ?? -1, seq));
    this.minSeq.set(pid, Math.min(this.minSeq.get(pid) ?? seq, seq));
    let record: AgentRecord;
    try {
      record = decodeRecord(parts[2] ?? "", parts.slice(3));
    } catch (e) {
      this.data.warnings.push(`${where}: ${(e as Error).message}`);
      return;
    }
    this.data.lines++;
    this.apply(record, where);
  }

  private apply(r: AgentRecord, where: string) {
    const d = this.data;
    switch (r.type) {
      case "hello":
        d.hello = r;
        return;
      case "ctx":
        d.contexts.set(r.context_id, r.frames);
        return;
      case "task": {
        if (this.byId.has(r.task_id)) {
          d.warnings.push(`${where}: task ${r.task_id} scheduled twice; the second is ignored`);
          return;
        }
        const row: TaskRow = {
          task_id: r.task_id,
          category: r.category,
          executor_id: r.executor_id,
          pool_capacity: r.pool_capacity,
          task_class: r.task_class,
          scheduled: r.scheduled,
          started: null,
          ended: null,
          thread_id: null,
          thread_name: null,
          context_id: r.context_id,
        };
        const p = this.pending.get(r.task_id);
        if (p) {
          this.pending.delete(r.task_id);
          if (p.begin)
            Object.assign(row, {
              started: p.begin.ts,
              thread_id: p.begin.tid,
              thread_name: p.begin.thread_name,
            });
          if (p.end !== undefined) row.ended = p.end;
        }
        this.byId.set(r.task_id, row);
        d.tasks.push(row);
        return;
      }
      case "begin": {
        const row = this.byId.get(r.task_id);
        if (row) Object.assign(row, { started: r.ts, thread_id: r.tid, thread_name: r.thread_name });
        else this.pending.set(r.task_id, { ...this.pending.get(r.task_id), begin: r });
        return;
      }
      case "end": {
        const row = this.byId.get(r.task_id);
        if (row) row.ended = r.ts;
        else this.pending.set(r.task_id, { ...this.pending.get(r.task_id), end: r.ts });
        return;
      }
      case "op": {
        const { type: _t, ...rest } = r;
        d.renderOps.push(rest);
        return;
      }
      case "input":
        d.uiEvents.push({ ts: r.ts, kind: r.kind, target: r.target, source: r.source });
        return;
    }
  }

  /** Call once at the end: reports seq holes (lost lines), orphan begin/end lines and tasks with unknown contexts. */
  finish(): AgentData {
    for (const [pid, seen] of this.seen) {
      // Collection may start while the agent already runs: count holes from the first sequence number seen.
      const max = this.maxSeq.get(pid) ?? -1;
      const min = this.minSeq.get(pid) ?? 0;
      const lost = max - min + 1 - seen.size;
      if (lost > 0)
        this.data.warnings.push(
          `agent pid ${pid}: ${lost} of ${max - min + 1} lines lost (sequence numbers ${min}-${max} have holes; logcat buffer overrun?)`,
        );
    }
    if (this.pending.size)
      this.data.warnings.push(
        `agent: ${this.pending.size} task begin/end lines for tasks never scheduled in the trace`,
      );
    const missing = new Set(
      this.data.tasks.filter((t) => !this.data.contexts.has(t.context_id)).map((t) => t.context_id),
    );
    for (const c of missing) this.data.contexts.set(c, []);
    if (missing.size)
      this.data.warnings.push(
        `agent: ${missing.size} contexts referenced by tasks but never defined; kept with empty stacks`,
      );
    this.data.uiEvents.sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
    return this.data;
  }
}

export { AGENT_TAG };
