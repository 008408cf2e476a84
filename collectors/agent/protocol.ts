// The agent's line protocol, version 2 (docs/agent-protocol.md). Shared by the Frida agent and the
// simulated phone so both print the same bytes; the collector parses it (v1 and v2) in
// collectors/sources/agent-lines.ts. Pure and dependency-free: it also runs inside Frida's JavaScript runtime.

/** logcat tag of every agent line. */
export const AGENT_TAG = "JankbookAgent";
export const PROTOCOL_VERSION = 2;
export const LINE_PREFIX = `jb${PROTOCOL_VERSION}`;
/** v2 lines end with this field; `|` is always percent-encoded inside fields, so a line without it was cut. */
export const LINE_END = "|";
/** logd truncates messages near 4 KB; stacks are cut to keep each line below this many characters. */
export const MAX_LINE = 3800;

export type TaskCategory =
  | "thread"
  | "handler_thread"
  | "intent_service"
  | "thread_pool_executor"
  | "async_task"
  | "scheduled_executor"
  | "fork_join_pool"
  | "coroutine";
export type RenderOp = "measure" | "layout" | "draw";
/** ok: installed; missing: the class or a fitting overload is absent; failed: installing threw; off: turned off by config. */
export type HookStatus = "ok" | "missing" | "failed" | "off";

/** Percent-encodes what would break a space-separated field; "-" alone stands for null. */
export function field(value: string | number | bigint | null | undefined): string {
  if (value === null || value === undefined) return "-";
  const s = String(value);
  if (s === "") return "%";
  if (s === "-") return "%2D";
  return s.replace(
    // Control characters would break the logcat line: percent-encoded like %, | and white space (docs/agent-protocol.md).
    // oxlint-disable-next-line no-control-regex
    /[%\s|\x00-\x1f]/g,
    (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0"),
  );
}

export function unfield(text: string): string | null {
  if (text === "-") return null;
  if (text === "%") return "";
  return text.replace(/%([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

export type AgentRecord =
  | { type: "hello"; agent_version: string; pid: number; package: string; api_level?: number | null }
  | {
      type: "hook";
      /** e.g. "View.draw", "Choreographer.doFrame" */
      hook: string;
      /** the config group that turns it on or off (docs/agent.md) */
      group: string;
      status: HookStatus;
      /** the signature hooked, or why not */
      detail: string;
      /** every overload the class offers under that name, as `name(argType,...)` */
      found: string[];
    }
  | { type: "ctx"; context_id: number; frames: string[] }
  | {
      type: "task";
      task_id: number;
      category: TaskCategory;
      executor_id: string;
      pool_capacity: number | null;
      task_class: string;
      scheduled: bigint;
      context_id: number;
      /** v2: a looper message's target time (Handler.sendMessageAtTime's uptimeMillis, as ns); null otherwise */
      due?: bigint | null;
    }
  | { type: "begin"; task_id: number; ts: bigint; tid: number; thread_name: string }
  | { type: "end"; task_id: number; ts: bigint }
  /** v2: a task taken back before it ran (a looper message removed from its queue) */
  | { type: "drop"; task_id: number; ts: bigint }
  | {
      type: "op";
      frame: number;
      view_id: number;
      parent_id: number | null;
      view_class: string;
      op: RenderOp;
      start: bigint;
      dur: bigint;
      ui_thread: boolean;
      hw_accelerated: boolean;
      /** agent 3: drawn from its RenderNode as recorded earlier, at no Java cost this frame (flag R) */
      replayed?: boolean | null;
      /** on-screen rectangle, px: the view's bounds through every ancestor's offset, scroll and transform, clipped by them and the window */
      left: number;
      top: number;
      width: number;
      height: number;
      has_background: boolean;
      visibility: "visible" | "invisible" | "gone";
      xml_id: string | null;
      layout_file: string | null;
      /** agent 3: the window (its ViewRootImpl's identity hash) and the rectangle's position in it, px */
      window_id?: number | null;
      window_left?: number | null;
      window_top?: number | null;
    }
  | { type: "input"; ts: bigint; kind: string; target: string | null; source: string }
  /** agent 3: views replayed in `frame` exactly as their last draw line says (but for frame, start and dur 0) */
  | { type: "same"; frame: number; start: bigint; ids: number[] }
  /** agent 3: lines of each type printed before this one (cumulative), so lost lines are counted by type */
  | { type: "count"; counts: [string, number][] };

/** The message part of one logcat line: `jb2 <seq> <type> <fields...> |`. */
export function encodeRecord(seq: number, r: AgentRecord): string {
  const f = (...xs: (string | number | bigint | null | undefined)[]) =>
    `${LINE_PREFIX} ${seq} ${r.type} ${xs.map(field).join(" ")} ${LINE_END}`;
  switch (r.type) {
    case "hello":
      return f(r.agent_version, r.pid, r.package, r.api_level);
    case "hook":
      return f(r.hook, r.group, r.status, r.detail, ...r.found);
    case "ctx": {
      const frames: string[] = [];
      let length = 40;
      for (const fr of r.frames) {
        length += fr.length + 1;
        if (length > MAX_LINE) break;
        frames.push(fr);
      }
      return f(r.context_id, frames.length < r.frames.length ? "cut" : "full", ...frames);
    }
    case "task":
      return f(
        r.task_id,
        r.category,
        r.executor_id,
        r.pool_capacity,
        r.task_class,
        r.scheduled,
        r.context_id,
        r.due,
      );
    case "begin":
      return f(r.task_id, r.ts, r.tid, r.thread_name);
    case "end":
    case "drop":
      return f(r.task_id, r.ts);
    case "op": {
      const flags =
        (r.ui_thread ? "U" : "") +
        (r.hw_accelerated ? "H" : "") +
        (r.has_background ? "B" : "") +
        (r.replayed ? "R" : "");
      return f(
        r.frame,
        r.view_id,
        r.parent_id,
        r.view_class,
        r.op,
        r.start,
        r.dur,
        flags || "0",
        r.left,
        r.top,
        r.width,
        r.height,
        r.visibility,
        r.xml_id,
        r.layout_file,
        ...(r.window_id === undefined ? [] : [r.window_id, r.window_left, r.window_top]),
      );
    }
    case "input":
      return f(r.ts, r.kind, r.target, r.source);
    case "count":
      return f(...r.counts.map(([t, n]) => `${t}:${n}`));
    case "same":
      return f(r.frame, r.start, ...r.ids);
  }
}
