// The on-phone agent: a Frida (17+) script that hooks the framework methods DiagDroid §5.2 names (the five
// kinds of asynchronous task, with the queue each waits on and its capacity) and DRAW §III's View
// measure/layout/draw and input events, and prints protocol v2 lines to logcat under one tag
// (docs/agent-protocol.md). Build it with `npm run build:agent`, run it with your own Frida:
// `frida -U -l collectors/agent/dist/agent.js -f <pkg>` (docs/agent.md).
import { Agent, GROUPS, Java, type Group } from "./hooks/hook-kit";
import { inputHooks } from "./hooks/input-hooks";
import { executorHooks } from "./hooks/executor-hooks";
import { scheduledHooks } from "./hooks/scheduled-hooks";
import { coroutineHooks } from "./hooks/coroutine-hooks";
import { TaskTracker } from "./hooks/task-tracker";
import { threadHooks } from "./hooks/thread-hooks";
import { viewHooks } from "./hooks/view-hooks";

export const AGENT_VERSION = "3.0.0";

/** The agent's parameters (docs/agent.md): groups of hooks on or off, and how deep scheduling stacks go. */
export interface AgentConfig {
  groups?: Partial<Record<Group, boolean>>;
  maxStack?: number;
}

const DEFAULT_STACK = 24;
const agent = new Agent();
const state = { groups: new Map<Group, boolean>(GROUPS.map((g) => [g, true])), maxStack: DEFAULT_STACK };

/** Merges parameters into the state, all or nothing: a typo (unknown group, bad maxStack) is an error, never a silent default. */
function apply(p: AgentConfig | null | undefined): Group[] {
  const given = Object.entries(p?.groups ?? {});
  for (const [g] of given)
    if (!state.groups.has(g as Group))
      throw new Error(`jankbook agent: unknown hook group "${g}" (groups: ${GROUPS.join(", ")})`);
  const stack = p?.maxStack === undefined ? state.maxStack : Math.floor(Number(p.maxStack));
  if (!Number.isFinite(stack) || stack < 0)
    throw new Error(`jankbook agent: maxStack must be a number >= 0, got ${String(p?.maxStack)}`);
  state.maxStack = stack;
  const changed: Group[] = [];
  for (const [g, on] of given) {
    if (state.groups.get(g as Group) !== Boolean(on)) changed.push(g as Group);
    state.groups.set(g as Group, Boolean(on));
  }
  return changed;
}

// Parameters given before the script runs (a prelude through frida-node or Python's create_script).
apply((globalThis as { jankbookConfig?: AgentConfig }).jankbookConfig);

Java.perform(() => {
  agent.attach();
  let apiLevel: number | null = null;
  try {
    apiLevel = Number(Java.use("android.os.Build$VERSION").SDK_INT.value);
  } catch {
    apiLevel = null;
  }
  let pkg = "unknown";
  try {
    pkg = String(Java.use("android.app.ActivityThread").currentPackageName());
  } catch {
    // a process that is not an app (frida-server attached to a system daemon)
  }
  agent.emit({
    type: "hello",
    agent_version: AGENT_VERSION,
    pid: Process.id,
    package: pkg,
    api_level: apiLevel,
  });
  const options = {
    get maxStack() {
      return state.maxStack;
    },
  };
  const tasks = new TaskTracker(agent, options);
  const specs = [
    ...threadHooks(tasks),
    ...executorHooks(tasks),
    ...scheduledHooks(tasks),
    ...coroutineHooks(tasks),
    ...viewHooks(agent),
    ...inputHooks(agent),
  ];
  for (const s of specs) agent.install(s, state.groups.get(s.group) !== false);
});

/** Re-applies parameters at run time: groups switched off are unhooked, switched on are hooked again. */
function configure(p: AgentConfig | null | undefined) {
  const changed = apply(p);
  if (!changed.length) return;
  Java.perform(() => {
    for (const s of [...agent.specs])
      if (changed.includes(s.group)) agent.install(s, state.groups.get(s.group)!);
  });
}

// `frida -P '{...}'` and frida-gadget's "parameters" reach init(stage, parameters); configure() is for RPC.
rpc.exports = {
  init(_stage: string, parameters: AgentConfig) {
    configure(parameters);
  },
  configure,
};
