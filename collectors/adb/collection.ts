// What every phase of one device's collection shares: the device shell, the warnings and sources that go
// into the manifest, and whether the device can still be used. A command that fails means either that the
// device went away (disconnected, or frozen: listed by adb but answering nothing) or only that this command
// failed; in the first case every later command is skipped at once instead of waiting for its deadline.
import type { SourceRecord } from "../../bundle/manifest";
import { CommandTimeout, type DeviceShell } from "./shell";

/** Commands in a row that time out before the device is probed and, if the probe times out, given up. */
const TIMEOUTS_BEFORE_PROBE = 3;
const PROBE_MS = 2000;

export type DeviceLoss = "disconnected" | "unresponsive";

export class Collection {
  readonly warnings: string[] = [];
  readonly sources: SourceRecord[] = [];
  complete = true;
  /** why the device can no longer be used; null while it answers */
  lost: DeviceLoss | null = null;
  private readonly t0 = Date.now();
  private timeoutsInARow = 0;

  constructor(readonly shell: DeviceShell) {}

  elapsed(): number {
    return Date.now() - this.t0;
  }

  /** "12.3 s" since the collection began, for warnings */
  at(): string {
    return `${(this.elapsed() / 1000).toFixed(1)} s`;
  }

  warn(w: string, incomplete = true) {
    this.warnings.push(w);
    if (incomplete) this.complete = false;
  }

  /** Runs a command; null (with a warning, or the device marked lost) if it failed. */
  async run(cmd: string, what: string, ms?: number): Promise<string | null> {
    if (this.lost) return null;
    try {
      const out = await this.shell.run(cmd, ms);
      this.timeoutsInARow = 0;
      return out;
    } catch (e) {
      if (await this.checkLost(what, e)) return null;
      if (e instanceof CommandTimeout) this.warn(`${what}: ${e.message}; skipped`);
      else this.warn(`${what}: "${cmd}" failed: ${(e as Error).message}`);
      return null;
    }
  }

  /** After a failure: whether the device is gone (and then says so once). */
  async checkLost(during: string, error?: unknown): Promise<boolean> {
    if (this.lost) return true;
    if (!(await this.shell.online())) {
      this.markLost(
        "disconnected",
        `device ${this.shell.serial} disconnected at ${this.at()} (during ${during})`,
      );
      return true;
    }
    if (!(error instanceof CommandTimeout) || ++this.timeoutsInARow < TIMEOUTS_BEFORE_PROBE) return false;
    // adb lists a frozen device as online; a trivial command that also times out tells it from a slow one.
    try {
      await this.shell.run("echo jankbook-probe", PROBE_MS);
      this.timeoutsInARow = 0;
      return false;
    } catch {
      if (this.lost) return true;
      this.markLost(
        "unresponsive",
        `device ${this.shell.serial} stopped answering at ${this.at()} (${this.timeoutsInARow} commands in a row timed out, the last during ${during}, and so did a probe; adb still lists it)`,
      );
      return true;
    }
  }

  markLost(why: DeviceLoss, message: string) {
    if (this.lost) return;
    this.lost = why;
    this.warn(`${message}; kept what was collected before`);
  }
}
