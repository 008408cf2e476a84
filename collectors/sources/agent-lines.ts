// Reads the agent's logcat lines (protocol v1 and v2, docs/agent-protocol.md) into tasks, contexts,
// render_ops and ui_events rows, and v2's hook reports. Lines are de-duplicated by (pid, seq), so a restarted
// logcat that replays its buffer counts nothing twice, and a hole in seq is reported as lost lines. A task
// whose times are impossible (ends before it starts, starts before it was scheduled: a line cut mid-number)
// or whose v2 line was cut is left out with a warning naming its lines, never passed on.
import { AGENT_TAG, LINE_END, type AgentRecord } from "../agent/protocol";
import { decodeRecord } from "./agent-record";
import { hookWarnings, type HookReport } from "./agent-hook-warnings";
import { LostLineCounter } from "./agent-lost-lines";

const VERSIONS = new Map([
  ["jb1", 1],
  ["jb2", 2],
]);

/** A task as scheduled (the agent's `task` record, its due time folded into `scheduled`), then run. */
export interface TaskRow extends Omit<Extract<AgentRecord, { type: "task" }>, "type" | "due"> {
  started: bigint | null;
  ended: bigint | null;
  thread_id: number | null;
  thread_name: string | null;
  /** v2: when the scheduling call ran; `scheduled` is the later of this and a looper message's target time */
  enqueued: bigint;
}
export type RenderOpRow = Omit<Extract<AgentRecord, { type: "op" }>, "type">;
export type UiEventRow = Omit<Extract<AgentRecord, { type: "input" }>, "type">;

export interface AgentData {
  tasks: TaskRow[];
  contexts: Map<number, string[]>;
  renderOps: RenderOpRow[];
  uiEvents: UiEventRow[];
  hello: Extract<AgentRecord, { type: "hello" }> | null;
  /** v2 hook reports, the latest per (pid, hook) */
  hooks: HookReport[];
  lines: number;
  duplicates: number;
  warnings: string[];
  /** true when lines were cut, lost or impossible: the tables hold less than the agent saw */
  partial: boolean;
  /** agent 3: lines lost per record type (from the agent's `count` records), summed over processes */
  lostLines: Record<string, number>;
  /** windows (render_ops.window_id; null: unknown) holding a Jetpack Compose hierarchy */
  composeWindows: (number | null)[];
}

/** Jetpack Compose's host view: everything a Compose screen draws is inside this one View. */
const COMPOSE_HOST = "androidx.compose.ui.platform.AndroidComposeView";

/** Incremental reader: feed it logcat messages of the agent's tag, in order; read `data` at any time. */
export class AgentLineReader {
  readonly data: AgentData = {
    tasks: [],
    contexts: new Map(),
    renderOps: [],
    uiEvents: [],
    hello: null,
    hooks: [],
    lines: 0,
    duplicates: 0,
    warnings: [],
    partial: false,
    lostLines: {},
    composeWindows: [],
  };
  private seen = new Map<number, Set<number>>();
  private maxSeq = new Map<number, number>();
  private minSeq = new Map<number, number>();
  private byId = new Map<number, TaskRow>();
  private where = new Map<number, { scheduled?: string; started?: string; ended?: string }>();
  private pending = new Map<
    number,
    { begin?: Extract<AgentRecord, { type: "begin" }>; beginAt?: string; end?: bigint; endAt?: string }
  >();
  /** tasks taken back before they ran (v2 `drop`): never executed, so never queued work */
  private dropped = new Map<number, string>();
  /** task ids left out, with why */
  private damaged = new Map<number, string>();
  private hookAt = new Map<string, number>();
  private warnedVersion = false;
  private lost = new LostLineCounter();
  /** each view's last draw row, by "pid view_id": what a `same` record repeats */
  private lastDraw = new Map<string, RenderOpRow>();
  /** `same` views whose last draw row never arrived (lost) */
  private unrepeatable = 0;

  /** `where` names the source and line for messages ("logcat line 812"); `cut`: the file ends inside this
   * line (no newline), so a v1 line may have lost digits; a v2 line still ending with its marker is whole. */
  feed(message: string, pid: number, where: string, cut = false): void {
    const parts = message.trim().split(" ");
    const version = VERSIONS.get(parts[0] ?? "");
    if (version === undefined) {
      if (/^jb\d+$/.test(parts[0] ?? "") && !this.warnedVersion) {
        this.warnedVersion = true;
        this.data.warnings.push(
          `${where}: agent protocol ${parts[0]} is not supported (this collector reads jb1 and jb2); its lines are skipped`,
        );
      }
      return;
    }
    const seqText = parts[1];
    if (seqText === undefined || !/^\d{1,15}$/.test(seqText)) {
      this.data.warnings.push(`${where}: agent line without a sequence number`);
      this.data.partial = true;
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
    const type = parts[2] ?? "";
    this.lost.received(pid, type);
    let fields = parts.slice(3);
    if (version >= 2) {
      if (fields[fields.length - 1] !== LINE_END) {
        this.cut(type, fields, where);
        return;
      }
      fields = fields.slice(0, -1);
    } else if (cut) {
      this.cut(type, fields, where, "the file ends inside it");
      return;
    }
    let record: AgentRecord;
    try {
      record = decodeRecord(type, fields, version);
    } catch (e) {
      this.data.warnings.push(`${where}: ${(e as Error).message}`);
      this.data.partial = true;
      return;
    }
    this.data.lines++;
    if (record.type === "count") this.lost.counted(pid, seq, record.counts);
    this.apply(record, pid, where);
  }

  /** A v2 line without its end marker, or a v1 line the file ends inside: skipped; when it still names its task,
   * that task is left out too. */
  private cut(type: string, fields: string[], where: string, why = `no end marker "${LINE_END}"`) {
    this.data.partial = true;
    const id = fields.length >= 2 && /^\d+$/.test(fields[0]!) ? Number(fields[0]) : null;
    if (id !== null && (type === "task" || type === "begin" || type === "end")) {
      this.damage(id, `its ${type} line (${where}) was cut`);
      this.data.warnings.push(`${where}: ${type} line cut (${why}); task ${id} left out`);
    } else this.data.warnings.push(`${where}: ${type || "agent"} line cut (${why}); skipped`);
  }

  private damage(taskId: number, why: string) {
    if (!this.damaged.has(taskId)) this.damaged.set(taskId, why);
  }

  /** scheduled <= started <= ended, or the task is left out (DiagDroid §5.2: a task starts after it is scheduled). */
  private check(row: TaskRow) {
    const w = this.where.get(row.task_id) ?? {};
    if (row.started !== null && row.started < row.scheduled)
      this.damage(
        row.task_id,
        `it starts (${row.started}, ${w.started}) before it was scheduled (${row.scheduled}, ${w.scheduled}); a line cut mid-number?`,
      );
    else if (row.started !== null && row.ended !== null && row.ended < row.started)
      this.damage(
        row.task_id,
        `it ends (${row.ended}, ${w.ended}) before it starts (${row.started}, ${w.started}); a line cut mid-number?`,
      );
  }

  private apply(r: AgentRecord, pid: number, where: string) {
    const d = this.data;
    switch (r.type) {
      case "hello":
        d.hello = r;
        return;
      case "hook": {
        const key = `${pid} ${r.hook}`;
        const report: HookReport = { ...r, pid, where };
        const at = this.hookAt.get(key);
        if (at === undefined) {
          this.hookAt.set(key, d.hooks.length);
          d.hooks.push(report);
        } else d.hooks[at] = report;
        return;
      }
      case "ctx":
        d.contexts.set(r.context_id, r.frames);
        return;
      case "task": {
        if (this.byId.has(r.task_id)) {
          d.warnings.push(`${where}: task ${r.task_id} scheduled twice; the second is ignored`);
          return;
        }
        // A delayed message waits for its target time by design, not for its looper (DiagDroid §5.2, HandlerThread).
        const scheduled = r.due != null && r.due > r.scheduled ? r.due : r.scheduled;
        const row: TaskRow = {
          task_id: r.task_id,
          category: r.category,
          executor_id: r.executor_id,
          pool_capacity: r.pool_capacity,
          task_class: r.task_class,
          scheduled,
          started: null,
          ended: null,
          thread_id: null,
          thread_name: null,
          context_id: r.context_id,
          enqueued: r.scheduled,
        };
        const w: { scheduled?: string; started?: string; ended?: string } = { scheduled: where };
        const p = this.pending.get(r.task_id);
        if (p) {
          this.pending.delete(r.task_id);
          if (p.begin) {
            Object.assign(row, {
              started: p.begin.ts,
              thread_id: p.begin.tid,
              thread_name: p.begin.thread_name,
            });
            w.started = p.beginAt;
          }
          if (p.end !== undefined) {
            row.ended = p.end;
            w.ended = p.endAt;
          }
        }
        this.where.set(r.task_id, w);
        this.byId.set(r.task_id, row);
        d.tasks.push(row);
        this.check(row);
        return;
      }
      case "begin": {
        const row = this.byId.get(r.task_id);
        if (row) {
          Object.assign(row, { started: r.ts, thread_id: r.tid, thread_name: r.thread_name });
          this.where.get(r.task_id)!.started = where;
          this.check(row);
        } else this.pending.set(r.task_id, { ...this.pending.get(r.task_id), begin: r, beginAt: where });
        return;
      }
      case "end": {
        const row = this.byId.get(r.task_id);
        if (row) {
          row.ended = r.ts;
          this.where.get(r.task_id)!.ended = where;
          this.check(row);
        } else this.pending.set(r.task_id, { ...this.pending.get(r.task_id), end: r.ts, endAt: where });
        return;
      }
      case "drop":
        this.dropped.set(r.task_id, where);
        return;
      case "op": {
        const { type: _t, ...rest } = r;
        d.renderOps.push(rest);
        if (rest.op === "draw") this.lastDraw.set(`${pid} ${rest.view_id}`, rest);
        return;
      }
      case "same":
        for (const id of r.ids) {
          const last = this.lastDraw.get(`${pid} ${id}`);
          if (last) d.renderOps.push({ ...last, frame: r.frame, start: r.start, dur: 0n, replayed: true });
          else this.unrepeatable++;
        }
        return;
      case "input":
        d.uiEvents.push({ ts: r.ts, kind: r.kind, target: r.target, source: r.source });
        return;
    }
  }

  /** Call once at the end: reports seq holes (lost lines), orphan begin/end lines, tasks left out and tasks with unknown contexts. */
  finish(): AgentData {
    const d = this.data;
    for (const [pid, seen] of this.seen) {
      // Collection may start while the agent already runs: count holes from the first sequence number seen.
      const max = this.maxSeq.get(pid) ?? -1;
      const min = this.minSeq.get(pid) ?? 0;
      const lost = max - min + 1 - seen.size;
      if (lost > 0) {
        d.partial = true;
        d.warnings.push(
          `agent pid ${pid}: ${lost} of ${max - min + 1} lines lost (sequence numbers ${min}-${max} have holes; logcat buffer overrun or logd rate limit?)` +
            this.lost.explain(pid, min, lost, d.lostLines),
        );
      }
    }
    if (this.pending.size)
      d.warnings.push(
        `agent: ${this.pending.size} task begin/end lines for tasks never scheduled in the trace`,
      );
    // Checked only now: a begin line may still follow its end line when the two were logged out of order.
    for (const t of d.tasks)
      if (t.started === null && t.ended !== null)
        this.damage(t.task_id, `it ends (${this.where.get(t.task_id)?.ended}) without a begin line`);
    let cancelled = 0;
    for (const [id, at] of this.dropped) {
      const t = this.byId.get(id);
      if (t && t.started !== null)
        d.warnings.push(`${at}: task ${id} dropped after it started; the drop is ignored`);
      else if (t && !this.damaged.has(id)) cancelled++;
    }
    if (cancelled) {
      const gone = new Set([...this.dropped.keys()].filter((id) => this.byId.get(id)?.started === null));
      const kept = d.tasks.filter((t) => !gone.has(t.task_id));
      d.tasks.length = 0;
      d.tasks.push(...kept);
      d.warnings.push(
        `agent: ${cancelled} tasks taken back before they ran (looper messages removed from their queue) are not in tasks`,
      );
    }
    if (this.damaged.size) {
      d.partial = true;
      for (const [id, why] of this.damaged) d.warnings.push(`agent: task ${id} left out (data lost): ${why}`);
      const kept = d.tasks.filter((t) => !this.damaged.has(t.task_id));
      d.tasks.length = 0;
      d.tasks.push(...kept);
    }
    const missing = new Set(d.tasks.filter((t) => !d.contexts.has(t.context_id)).map((t) => t.context_id));
    for (const c of missing) d.contexts.set(c, []);
    if (missing.size)
      d.warnings.push(
        `agent: ${missing.size} contexts referenced by tasks but never defined; kept with empty stacks`,
      );
    d.uiEvents.sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
    if (this.unrepeatable) {
      d.partial = true;
      d.warnings.push(
        `agent: ${this.unrepeatable} replayed views left out of render_ops: their last draw line was lost, so their rectangle is unknown`,
      );
    }
    const compose = new Set(
      d.renderOps.filter((o) => o.view_class === COMPOSE_HOST).map((o) => o.window_id ?? null),
    );
    if (compose.size) {
      d.composeWindows = [...compose];
      d.warnings.push(
        `agent: ${compose.size} window(s) draw Jetpack Compose (${COMPOSE_HOST}; window ${d.composeWindows.map((w) => w ?? "unknown").join(", ")}): DRAW's view analyses do not apply inside them: a Compose screen is one View to the framework, so its overdraw, costs and invisible views are those of the whole screen, not of any composable`,
      );
    }
    return d;
  }
}

export { AGENT_TAG, decodeRecord, hookWarnings, type HookReport };

/** What `collect` prints when no agent line arrived: how to build and run the agent. */
export function agentNotRunningHint(pkg: string): string {
  return `no ${AGENT_TAG} lines in logcat: is the agent running? (npm run build:agent, then frida -U -l collectors/agent/dist/agent.js -f ${pkg}; docs/agent.md)`;
}
