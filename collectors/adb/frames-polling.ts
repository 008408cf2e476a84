// Frames over adb (docs/framestats-gfxinfo.md): `dumpsys gfxinfo <pkg> reset`, then
// `dumpsys gfxinfo <pkg> framestats` at every poll. The device keeps only the last 120 frames, so polls are
// de-duplicated (FrameDeduper), and the app's own "Total frames rendered" since the reset (JankTracker.cpp)
// tells when the ring moved past frames no poll saw.
import { FrameDeduper } from "../bundle-tables";
import type { FrameRecord } from "../sources/framestats";
import { parseFramestats } from "../sources/framestats";
import { parseGfxinfo } from "../sources/gfxinfo";
import type { Collection } from "./collection";

export class FramesPolling {
  private readonly dedupe = new FrameDeduper();
  private failedDumps = 0;
  private rendered: { total: number; collected: number; label: string } | null = null;

  constructor(
    private readonly c: Collection,
    private readonly pkg: string,
  ) {}

  async reset() {
    await this.c.run(`dumpsys gfxinfo ${this.pkg} reset`, "framestats reset");
  }

  get size() {
    return this.dedupe.size;
  }

  async poll(label: string) {
    const what = `framestats poll ${label}`;
    const out = await this.c.run(`dumpsys gfxinfo ${this.pkg} framestats`, what);
    if (out === null) return;
    const r = parseFramestats(out, what);
    if (r.failure) {
      this.failedDumps++;
      if (this.failedDumps <= 3)
        this.c.warn(`${r.failure} (frames of this poll missing unless a later poll still had them)`);
      return;
    }
    for (const w of r.warnings.slice(0, 3)) this.c.warn(w, false);
    this.dedupe.add(
      r.sections.flatMap((s) => s.frames),
      what,
    );
    const total = parseGfxinfo(out, what).summaries.find((x) => x.scope === "process")?.total_frames;
    if (total != null) this.rendered = { total, collected: this.dedupe.size, label };
  }

  /** Every frame seen, once; what was lost on the way goes to the collection's warnings. */
  finish(): FrameRecord[] {
    for (const w of this.dedupe.warnings) this.c.warn(w);
    if (this.failedDumps > 3) this.c.warn(`framestats: ${this.failedDumps} polls failed in all`);
    const r = this.rendered;
    if (r && r.total > r.collected)
      this.c.warn(
        `framestats: ${r.total - r.collected} of the ${r.total} frames the app rendered since the reset were never seen (poll ${r.label}'s "Total frames rendered"); polls came too far apart or failed`,
      );
    this.c.sources.push({
      kind: "framestats",
      origin: `adb shell dumpsys gfxinfo ${this.pkg} framestats`,
      tables: ["frames"],
    });
    return this.dedupe.frames();
  }
}
