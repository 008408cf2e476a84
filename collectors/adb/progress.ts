// The live progress line of `jankbook collect`: one segment per device, rewritten in place on a terminal
// and printed every few seconds otherwise (a CI log).
import type { Progress } from "./collect-device";

/** "0:07" under an hour, "1:02:05" above. */
export function formatElapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  const two = (n: number) => String(n).padStart(2, "0");
  const h = Math.floor(s / 3600);
  return h ? `${h}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}` : `${Math.floor(s / 60)}:${two(s % 60)}`;
}

function segment(p: Progress): string {
  const phase = p.phase === "collecting" ? "" : ` (${p.phase})`;
  const warn = p.warnings === 1 ? "1 warning" : `${p.warnings} warnings`;
  return `${p.serial} ${formatElapsed(p.elapsedMs)} frames ${p.frames} tasks ${p.tasks} events ${p.events} ${warn}${phase}`;
}

/** The line for all devices, cut to `width` characters (a terminal's columns) with an ellipsis. */
export function formatProgress(devices: readonly Progress[], width = Infinity): string {
  const line = devices.map(segment).join(" | ");
  return line.length <= width ? line : line.slice(0, Math.max(0, width - 1)) + "…";
}

/** Decides when to draw: a terminal every update, a log at the first update and then every `logEveryMs`. */
export class ProgressPrinter {
  private progress = new Map<string, Progress>();
  private lastAt = -Infinity;
  constructor(
    private readonly out: { write(s: string): unknown; isTTY?: boolean; columns?: number },
    private readonly logEveryMs = 5000,
    private readonly now = () => Date.now(),
  ) {}

  update(p: Progress) {
    this.progress.set(p.serial, p);
    const t = this.now();
    if (!this.out.isTTY && t - this.lastAt < this.logEveryMs) return;
    this.lastAt = t;
    const all = [...this.progress.values()];
    if (this.out.isTTY) this.out.write(`\r${formatProgress(all, (this.out.columns ?? 200) - 1)}\x1b[K`);
    else this.out.write(formatProgress(all) + "\n");
  }

  /** Ends the rewritten line on a terminal so what follows starts on its own line. */
  done() {
    if (this.out.isTTY && this.progress.size) this.out.write("\n");
  }
}
