// The scenario driver: `monkey -p <pkg> -s <seed> --throttle 300 -v <events>` or `am instrument -w <runner>`,
// left running while frames are polled; `manual` has none (the user drives the phone until Ctrl-C or
// --duration).
import type { Duplex } from "node:stream";
import type { Collection } from "./collection";

export type ScenarioKind = "monkey" | "instrument" | "manual";

export function splitScenario(s: string): [ScenarioKind, string] {
  if (s === "manual") return ["manual", ""];
  const m = /^(monkey|instrument):(.+)$/.exec(s);
  if (!m) throw new Error(`--scenario ${s}: expected monkey:<events>, instrument:<runner> or manual`);
  if (m[1] === "monkey" && !/^\d+$/.test(m[2]!))
    throw new Error(`--scenario ${s}: monkey needs a number of events`);
  return [m[1] as "monkey" | "instrument", m[2]!];
}

export class ScenarioDriver {
  readonly kind: ScenarioKind;
  private readonly arg: string;
  /** ms since the collection began when the driver ended; null while it runs (or for manual) */
  endedAt: number | null = null;
  output = "";
  private stream: Duplex | null = null;

  constructor(
    private readonly c: Collection,
    readonly scenario: string,
  ) {
    [this.kind, this.arg] = splitScenario(scenario);
  }

  get done(): boolean {
    return this.kind === "manual" || this.endedAt !== null;
  }

  async start(pkg: string, monkeySeed = 1) {
    if (this.kind === "manual") return;
    const cmd =
      this.kind === "monkey"
        ? `monkey -p ${pkg} -s ${monkeySeed} --throttle 300 -v ${this.arg}`
        : `am instrument -w ${this.arg}`;
    try {
      const s = await this.c.shell.open(cmd);
      this.stream = s;
      s.on("data", (chunk: Buffer) => (this.output += chunk.toString("utf8")));
      s.on("error", () => {});
      s.on("end", () => (this.endedAt ??= this.c.elapsed()));
      this.c.sources.push({
        kind: this.kind === "monkey" ? "monkey" : "instrumentation",
        origin: `adb shell ${cmd}`,
      });
    } catch (e) {
      this.c.warn(`scenario ${this.scenario}: could not start "${cmd}": ${(e as Error).message}`);
      this.endedAt = this.c.elapsed();
    }
  }

  /** A driver still running (Ctrl-C, --duration) is let go: its adb stream would keep the process alive. */
  stop() {
    if (!this.done) this.stream?.destroy();
  }
}
