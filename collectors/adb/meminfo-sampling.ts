// Heap over the run (AndroScope's heap view; docs/tables.md, heap_samples): `dumpsys meminfo <pkg>` every
// interval, parsed by collectors/sources/meminfo.ts into heap_samples, each sample at the dump's own
// "Uptime:" (CLOCK_MONOTONIC, the run's clock). A dump runs inside the app's process (ActivityThread), so
// sampling stays sparse (default 5 s) to keep it out of the frames being measured.
import type { Table } from "apache-arrow";
import { makeBundleTable } from "../../bundle/table-builder";
import { parseMeminfo } from "../sources/meminfo";
import type { Collection } from "./collection";

export class MeminfoSampling {
  private readonly ts: bigint[] = [];
  private readonly kind: string[] = [];
  private readonly value: bigint[] = [];
  private samples = 0;
  private failed = 0;
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly c: Collection,
    private readonly pkg: string,
    private readonly intervalMs: number,
  ) {}

  /** Takes a sample now and then every interval until stop(). */
  start() {
    const tick = () => {
      if (this.stopped || this.c.lost) return;
      this.inFlight = this.sample().finally(() => {
        this.inFlight = null;
        if (!this.stopped) this.timer = setTimeout(tick, this.intervalMs);
      });
    };
    tick();
  }

  private async sample() {
    const n = this.samples + this.failed + 1;
    const what = `meminfo sample ${n}`;
    const out = await this.c.run(`dumpsys meminfo ${this.pkg}`, what);
    if (out === null) {
      this.failed++;
      return;
    }
    const r = parseMeminfo(out, what);
    const s = r.samples.find((x) => x.process === this.pkg) ?? r.samples[0];
    if (r.failure || !s || s.uptime_ns === null) {
      this.failed++;
      if (this.failed <= 3)
        this.c.warn(`${r.failure ?? r.warnings[0] ?? `${what}: no Uptime: line`}; no heap sample`, false);
      return;
    }
    for (const w of r.warnings.slice(0, 3)) this.c.warn(w, false);
    this.samples++;
    for (const [kind, bytes] of s.values) {
      this.ts.push(s.uptime_ns);
      this.kind.push(kind);
      this.value.push(BigInt(bytes));
    }
  }

  /** Stops sampling, waiting for a dump under way (it has its own deadline). */
  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.inFlight;
    if (this.failed > 3) this.c.warn(`meminfo: ${this.failed} samples failed in all`, false);
    if (this.samples)
      this.c.sources.push({
        kind: "meminfo",
        origin: `adb shell dumpsys meminfo ${this.pkg} every ${this.intervalMs} ms`,
        tables: ["heap_samples"],
      });
  }

  get count() {
    return this.samples;
  }

  table(runId: string): Table | null {
    if (!this.ts.length) return null;
    return makeBundleTable(
      "heap_samples",
      runId,
      { ts: this.ts, kind: this.kind, value: this.value },
      this.ts.length,
    );
  }
}
