// Builds the agent exactly as `npm run build:agent` does, with frida-java-bridge swapped for a global the
// test fills with the fake bridge, and runs it in a fresh Node vm context as Frida would run the script.
import { build } from "esbuild";
import { createContext, runInContext } from "node:vm";
import { agentBuildOptions, bridgeFromGlobal } from "../../../collectors/agent/build";
import { AGENT_TAG } from "../../../collectors/agent/protocol";
import { AgentLineReader, type AgentData } from "../../../collectors/sources/agent-lines";
import type { FakeVm } from "./fake-java";

const BRIDGE = "__jankbookFakeJava";
let bundled: Promise<string> | null = null;

export function agentBundle(): Promise<string> {
  bundled ??= build({ ...agentBuildOptions(), plugins: [bridgeFromGlobal(BRIDGE)], write: false }).then(
    (r) => r.outputFiles![0]!.text,
  );
  return bundled;
}

export interface LoadedAgent {
  exports: { init(stage: string, p: unknown): void; configure(p: unknown): void };
}

export async function loadAgent(vm: FakeVm, config?: unknown): Promise<LoadedAgent> {
  const code = await agentBundle();
  const rpc = { exports: {} as LoadedAgent["exports"] };
  const ctx = createContext({ [BRIDGE]: vm.bridge(), Process: { id: vm.pid }, rpc, jankbookConfig: config });
  runInContext(code, ctx, { filename: "agent.js" });
  return { exports: rpc.exports };
}

/** The agent's logcat lines so far, read by the collector's own parser. */
export function readLines(vm: FakeVm): AgentData {
  const r = new AgentLineReader();
  vm.log.forEach((l, i) => {
    if (l.tag === AGENT_TAG) r.feed(l.message, vm.pid, `logcat line ${i + 1}`);
  });
  return r.finish();
}
