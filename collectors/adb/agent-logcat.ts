// The agent's lines and UI events from `logcat -v monotonic` (collectors/agent/protocol.ts), streamed for the
// whole run. When the stream ends while the device is still there (logd restarted), it is reopened on the
// last RESTART_TAIL lines; the agent's sequence numbers drop what was read twice.
import { hookWarnings } from "../sources/agent-hook-warnings";
import type { Duplex } from "node:stream";
import { AGENT_TAG } from "../agent/protocol";
import { AgentLineReader, type AgentData } from "../sources/agent-lines";
import { parseLogLine } from "../sources/logcat";
import type { Collection } from "./collection";

const RESTART_TAIL = 5000;

export class AgentLogcat {
  readonly reader = new AgentLineReader();
  private stream: Duplex | null = null;
  private line = 0;
  private firstMono: bigint | null = null;
  private stopping = false;
  private restarts = 0;

  constructor(private readonly c: Collection) {}

  async start() {
    await this.open(1);
    this.c.sources.push({
      kind: "logcat",
      origin: "adb shell logcat -v monotonic",
      tables: ["tasks", "contexts", "render_ops", "ui_events"],
    });
  }

  private async open(tail: number) {
    if (this.c.lost) return;
    let s: Duplex;
    try {
      s = await this.c.shell.open(`logcat -v monotonic -T ${tail}`);
    } catch (e) {
      this.c.warn(`logcat: ${(e as Error).message}; no agent lines`);
      return;
    }
    this.stream = s;
    let rest = "";
    s.on("data", (chunk: Buffer) => {
      const lines = (rest + chunk.toString("utf8")).split("\n");
      rest = lines.pop() ?? "";
      for (const raw of lines) this.feed(raw.replace(/\r$/, ""));
    });
    s.on("error", () => {});
    s.on("end", () => {
      if (this.stopping || this.stream !== s) return;
      void this.reopen();
    });
  }

  private feed(raw: string) {
    this.line++;
    const p = parseLogLine(raw);
    if (!p) return;
    const mono = p.line.mono_ns;
    if (this.firstMono === null && mono !== null) this.firstMono = mono;
    if (mono !== null && this.firstMono !== null && mono < this.firstMono) return; // from before this collection
    if (p.line.tag === AGENT_TAG) this.reader.feed(p.line.message, p.line.pid, `logcat line ${this.line}`);
  }

  private async reopen() {
    if (await this.c.checkLost("logcat, whose stream ended")) return;
    this.restarts++;
    this.c.warn(
      `logcat stream ended at ${this.c.at()} (logd restarted?); restarted it and re-read the last ${RESTART_TAIL} lines`,
      false,
    );
    await this.open(RESTART_TAIL);
  }

  get tasks() {
    return this.reader.data.tasks.length;
  }
  get events() {
    return this.reader.data.uiEvents.length;
  }

  stop() {
    this.stopping = true;
    this.stream?.destroy();
  }

  /** The agent's rows; its warnings go to the collection (a lost line makes the bundle incomplete). */
  finish(): AgentData {
    const agent = this.reader.finish();
    for (const w of agent.warnings) this.c.warn(w, /lost/.test(w));
    // A hook the agent could not install on this device leaves its table empty: say which (docs/agent.md).
    for (const w of hookWarnings(agent)) this.c.warn(w, false);
    if (this.restarts)
      this.c.sources.push({
        kind: "logcat",
        origin: `restarted ${this.restarts}x; lines de-duplicated by agent sequence number`,
      });
    return agent;
  }
}
