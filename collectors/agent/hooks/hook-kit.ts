// What every hook shares: the Java bridge, the line emitter, and installing one hook on its own. A hook finds
// its overload among those the class offers on this API level (frida-java-bridge's `overloads`), installs it,
// and prints one `hook` line saying so, or why not, with every overload it found (docs/agent-protocol.md v2).
// One hook failing never stops the others.
import Java from "frida-java-bridge";
import { AGENT_TAG, encodeRecord, type AgentRecord, type HookStatus } from "../protocol";

export { Java };
export type JavaObject = Java.Wrapper;
export type Group =
  | "threads"
  | "handlers"
  | "intent_services"
  | "executors"
  | "async_tasks"
  | "scheduled_executors"
  | "fork_join"
  | "coroutines"
  | "views"
  | "frames"
  | "inputs"
  | "gestures";
export const GROUPS: readonly Group[] = [
  "threads",
  "handlers",
  "intent_services",
  "executors",
  "async_tasks",
  "scheduled_executors",
  "fork_join",
  "coroutines",
  "views",
  "frames",
  "inputs",
  "gestures",
];

const used = new Map<string, JavaObject>();
/** Java.use, remembered: hooks look classes up on every event. */
export function use(name: string): JavaObject {
  let c = used.get(name);
  if (c === undefined) used.set(name, (c = Java.use(name)));
  return c;
}

/** An overload as the agent sees it: `draw(android.graphics.Canvas)`. */
export function signature(m: Java.Method): string {
  return `${m.methodName}(${m.argumentTypes.map((t) => t.className ?? t.name).join(",")})`;
}
export function argTypes(m: Java.Method): string[] {
  return m.argumentTypes.map((t) => t.className ?? t.name);
}

export interface HookSpec {
  /** e.g. "View.draw": what the report line and the collector's warning name */
  hook: string;
  group: Group;
  cls: string;
  method: string;
  /** the overload wanted, in words, for the report when none fits */
  want: string;
  /** index of the overload to hook among those found, or -1 */
  pick(overloads: readonly string[][]): number;
  /** the replacement; `original` calls the method as it was (frida-java-bridge calls from JS skip the hook) */
  impl(original: Java.Method): (this: JavaObject, ...args: any[]) => any;
}

const COUNT_EVERY = 256;

/** The agent's shared state: sequence numbers, the clock, identity hashes. */
export class Agent {
  private seq = 0;
  private Log!: JavaObject;
  private System!: JavaObject;
  private installed = new Map<string, Java.Method>();
  /** the class wrapper a hook was installed through (app classes come from their own loader) */
  private classOf = new Map<HookSpec, JavaObject>();
  readonly specs: HookSpec[] = [];

  /** Classes are looked up inside Java.perform, when the VM is attached. */
  attach() {
    this.Log = use("android.util.Log");
    this.System = use("java.lang.System");
  }
  /** lines printed so far per record type, for the `count` record */
  private printed: Record<string, number> = {};
  emit(r: AgentRecord) {
    this.Log.i(AGENT_TAG, encodeRecord(this.seq++, r));
    this.printed[r.type] = (this.printed[r.type] ?? 0) + 1;
    // Every COUNT_EVERY lines, how many of each type came before: the reader counts the missing ones by type
    // (logd drops lines under load: docs/agent-protocol.md, "Lost lines").
    if (this.seq % COUNT_EVERY === COUNT_EVERY - 1) this.count();
  }
  /** Prints the `count` record now. */
  count() {
    const counts = Object.entries(this.printed).filter(([t]) => t !== "count");
    this.Log.i(AGENT_TAG, encodeRecord(this.seq++, { type: "count", counts }));
  }
  /** System.nanoTime(): CLOCK_MONOTONIC, the clock framestats and `logcat -v monotonic` use. */
  now(): bigint {
    return BigInt(String(this.System.nanoTime()));
  }
  /** System.identityHashCode: DiagDroid §5.2's queue identifier and DRAW §III's view id. */
  id(o: JavaObject): number {
    return Number(this.System.identityHashCode(o));
  }

  private report(s: HookSpec, status: HookStatus, detail: string, found: string[]) {
    this.emit({ type: "hook", hook: s.hook, group: s.group, status, detail, found });
  }

  /** Installs a hook on a class wrapper already in hand (e.g. from an app class loader) and reports it. */
  installIn(s: HookSpec, cls: JavaObject) {
    this.classOf.set(s, cls);
    this.install(s, true);
  }

  /** Installs one hook and reports it; never throws. */
  install(s: HookSpec, on: boolean) {
    if (!this.specs.includes(s)) this.specs.push(s);
    if (!on) {
      this.uninstall(s);
      this.report(s, "off", "turned off by config", []);
      return;
    }
    let found: string[] = [];
    try {
      const cls = this.classOf.get(s) ?? Java.use(s.cls);
      const dispatcher = cls[s.method] as Java.MethodDispatcher | undefined;
      const overloads: Java.Method[] = dispatcher?.overloads ?? [];
      found = overloads.map(signature);
      if (!overloads.length) return this.report(s, "missing", `${s.cls} has no method ${s.method}`, found);
      const i = s.pick(overloads.map(argTypes));
      const m = overloads[i];
      if (m === undefined) return this.report(s, "missing", `no overload ${s.want}`, found);
      m.implementation = s.impl(m);
      this.installed.set(s.hook, m);
      this.report(s, "ok", signature(m), found);
    } catch (e) {
      const msg = String((e as Error).message ?? e);
      const missing = /ClassNotFoundException|not found|no such class/i.test(msg);
      this.report(s, missing ? "missing" : "failed", missing ? `class ${s.cls} not found` : msg, found);
    }
  }

  private faulted = new Set<string>();
  /**
   * Runs a hook's recording so that its failure never reaches the app's call: the method itself still runs,
   * and the first failure of each hook is reported as a `failed` hook line.
   */
  guard(hook: string, record: () => void) {
    try {
      record();
    } catch (e) {
      if (this.faulted.has(hook)) return;
      this.faulted.add(hook);
      const group = this.specs.find((s) => s.hook === hook)?.group ?? "threads";
      try {
        const detail = `at run time: ${String((e as Error).message ?? e)}`;
        this.emit({ type: "hook", hook, group, status: "failed", detail, found: [] });
      } catch {
        // logging itself failed: nothing more can be said
      }
    }
  }

  uninstall(s: HookSpec) {
    const m = this.installed.get(s.hook);
    if (!m) return;
    m.implementation = null;
    this.installed.delete(s.hook);
  }
}

/** Picks the overload whose argument types are exactly `types`. */
export function exactly(...types: string[]): (o: readonly string[][]) => number {
  return (o) => o.findIndex((a) => a.length === types.length && a.every((t, i) => t === types[i]));
}
/** Picks the overload whose arguments start with `types` (later levels append parameters). */
export function startingWith(...types: string[]): (o: readonly string[][]) => number {
  return (o) => {
    const fits = o.map((a, i) => [a, i] as const).filter(([a]) => types.every((t, i) => a[i] === t));
    fits.sort((x, y) => x[0].length - y[0].length);
    return fits[0]?.[1] ?? -1;
  };
}

const PRIMITIVE_CODES: Record<string, string> = {
  Z: "boolean",
  B: "byte",
  C: "char",
  S: "short",
  I: "int",
  J: "long",
  F: "float",
  D: "double",
};
/** An argument type as Java source spells it: frida-java-bridge names arrays by JNI descriptor, `[Ljava.lang.Object;`. */
function javaSourceName(type: string): string {
  const dims = type.length - type.replace(/^\[+/, "").length;
  if (dims === 0) return type;
  const element = type.slice(dims);
  const name = element.startsWith("L") ? element.slice(1, -1) : (PRIMITIVE_CODES[element] ?? element);
  return name + "[]".repeat(dims);
}

/** The hook `Class.method` (the class's simple name) on the overload taking exactly `args`, as the bridge names them. */
export function exactHook(
  group: Group,
  cls: string,
  method: string,
  args: readonly string[],
  impl: HookSpec["impl"],
): HookSpec {
  const hook = `${cls.slice(cls.lastIndexOf(".") + 1)}.${method}`;
  const want = `${method}(${args.map(javaSourceName).join(",")})`;
  return { hook, group, cls, method, want, pick: exactly(...args), impl };
}

/** An exactHook that records each call first (guarded: a failure never reaches the app), then runs the method. */
export function recordingHook(
  a: Agent,
  group: Group,
  cls: string,
  method: string,
  args: readonly string[],
  record: (self: JavaObject, ...values: any[]) => void,
): HookSpec {
  const spec = exactHook(
    group,
    cls,
    method,
    args,
    (original) =>
      function (this: JavaObject, ...values: any[]) {
        a.guard(spec.hook, () => record(this, ...values));
        return original.call(this, ...values);
      },
  );
  return spec;
}
