// Decodes one agent protocol record (docs/agent-protocol.md), v1 or v2, from its space-separated fields.
// v2 adds the `hook` record, `hello`'s api_level and `task`'s due time; everything else is the same in both.
import { RENDER_OPS, VIEW_VISIBILITIES } from "../../bundle/schema";
import { unfield, type AgentRecord, type RenderOp, type TaskCategory } from "../agent/protocol";

const CATEGORIES = new Set([
  "thread",
  "handler_thread",
  "intent_service",
  "thread_pool_executor",
  "async_task",
  "scheduled_executor",
  "fork_join_pool",
  "coroutine",
]);
const OPS = new Set<string>(RENDER_OPS);
const VISIBILITY = new Set<string>(VIEW_VISIBILITIES);
const INT64_MAX = (1n << 63n) - 1n;
const HOOK_STATUS = new Set(["ok", "missing", "failed", "off"]);

function int(s: string | undefined, what: string): number {
  if (s === undefined || !/^-?\d{1,15}$/.test(s)) throw new Error(`${what} is not an integer ("${s ?? ""}")`);
  return Number(s);
}
function big(s: string | undefined, what: string): bigint {
  if (s === undefined || !/^-?\d{1,19}$/.test(s)) throw new Error(`${what} is not an integer ("${s ?? ""}")`);
  const v = BigInt(s);
  if (v > INT64_MAX || v < -INT64_MAX - 1n) throw new Error(`${what} overflows int64 ("${s}")`);
  return v;
}
function str(s: string | undefined, what: string): string {
  const v = s === undefined ? null : unfield(s);
  if (v === null) throw new Error(`${what} missing`);
  return v;
}
function optStr(s: string | undefined): string | null {
  return s === undefined ? null : unfield(s);
}

type Reader<T> = (s: string | undefined, what: string) => T;
/** Fields read in record order from f[0], each by its reader; a bad one's error names it by its key. */
function fields<S extends Record<string, Reader<unknown>>>(
  f: string[],
  readers: S,
): { [K in keyof S]: ReturnType<S[K]> } {
  const out: Record<string, unknown> = {};
  let i = 0;
  for (const name in readers) out[name] = readers[name]!(f[i++], name);
  return out as { [K in keyof S]: ReturnType<S[K]> };
}

/** One record from its type and fields (protocol `version`, 1 or 2); throws an Error naming the bad field. */
export function decodeRecord(type: string, f: string[], version = 2): AgentRecord {
  const need = (n: number) => {
    if (f.length < n) throw new Error(`${type}: expected ${n} fields, got ${f.length}`);
  };
  switch (type) {
    case "hello":
      need(version >= 2 ? 4 : 3);
      return {
        type,
        agent_version: str(f[0], "agent_version"),
        pid: int(f[1], "pid"),
        package: str(f[2], "package"),
        ...(version >= 2 ? { api_level: f[3] === "-" ? null : int(f[3], "api_level") } : {}),
      };
    case "hook": {
      if (version < 2) throw new Error(`unknown record type "hook" in protocol v${version}`);
      need(4);
      const status = str(f[2], "status");
      if (!HOOK_STATUS.has(status)) throw new Error(`hook: unknown status "${status}"`);
      return {
        type,
        hook: str(f[0], "hook"),
        group: str(f[1], "group"),
        status: status as "ok",
        detail: str(f[3], "detail"),
        found: f.slice(4).map((x, i) => str(x, `overload ${i}`)),
      };
    }
    case "ctx":
      need(2);
      return {
        type,
        context_id: int(f[0], "context_id"),
        frames: f.slice(2).map((x, i) => str(x, `frame ${i}`)),
      };
    case "task": {
      need(version >= 2 ? 8 : 7);
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
        ...(version >= 2 ? { due: f[7] === "-" ? null : big(f[7], "due") } : {}),
      };
    }
    case "begin":
      need(4);
      return { type, ...fields(f, { task_id: int, ts: big, tid: int, thread_name: str }) };
    case "end":
      need(2);
      return { type, ...fields(f, { task_id: int, ts: big }) };
    case "drop":
      if (version < 2) throw new Error(`unknown record type "drop" in protocol v${version}`);
      need(2);
      return { type, ...fields(f, { task_id: int, ts: big }) };
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
        // agent 3: R = replayed from its RenderNode (not re-recorded this frame); the window it is in and its
        // position there. Absent from older lines: null.
        replayed: f.length > 15 ? flags.includes("R") : null,
        left: int(f[8], "left"),
        top: int(f[9], "top"),
        width: int(f[10], "width"),
        height: int(f[11], "height"),
        visibility: visibility as "visible",
        xml_id: optStr(f[13]),
        layout_file: optStr(f[14]),
        window_id: f[15] === undefined || f[15] === "-" ? null : int(f[15], "window_id"),
        window_left: f[16] === undefined || f[16] === "-" ? null : int(f[16], "window_left"),
        window_top: f[17] === undefined || f[17] === "-" ? null : int(f[17], "window_top"),
      };
    }
    case "same":
      need(2);
      return {
        type,
        frame: int(f[0], "frame"),
        start: big(f[1], "start"),
        ids: f.slice(2).map((x, i) => int(x, `view ${i}`)),
      };
    case "count":
      return {
        type,
        counts: f.map((x, i) => {
          const m = /^([a-z]+):(\d{1,15})$/.exec(x);
          if (!m) throw new Error(`count: field ${i} is not type:number ("${x}")`);
          return [m[1]!, Number(m[2])] as [string, number];
        }),
      };
    case "input":
      need(4);
      return { type, ...fields(f, { ts: big, kind: str, target: optStr, source: str }) };
    default:
      throw new Error(`unknown record type "${type}"`);
  }
}
