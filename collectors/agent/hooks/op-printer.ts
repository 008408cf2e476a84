// Prints op records under logd's limits (docs/agent-protocol.md, "Frames"): a view replayed exactly as its
// last draw line says (same rectangle, parent, flags, window) is only named, in a `same` line with the
// replayed views around it; the reader repeats its last row with the new frame and start.
import { encodeRecord, type AgentRecord } from "../protocol";
import type { Agent } from "./hook-kit";

type Op = Extract<AgentRecord, { type: "op" }>;
/** views per `same` line: a view id is at most 11 characters, so 200 stay well under MAX_LINE */
const SAME_PER_LINE = 200;

export class OpPrinter {
  /** each view's last draw line, without frame, start and dur */
  private lastLine = new Map<number, string>();
  private same: number[] = [];
  private sameFrame = 0;
  private sameStart = 0n;
  constructor(private readonly a: Agent) {}

  /** Prints the replayed views named so far, in order. */
  flush() {
    for (let i = 0; i < this.same.length; i += SAME_PER_LINE)
      this.a.emit({
        type: "same",
        frame: this.sameFrame,
        start: this.sameStart,
        ids: this.same.slice(i, i + SAME_PER_LINE),
      });
    this.same = [];
  }

  print(r: Op) {
    if (r.op !== "draw") {
      this.flush();
      this.a.emit(r);
      return;
    }
    const key = encodeRecord(0, { ...r, frame: 0, start: 0n, dur: 0n, replayed: true });
    if (r.replayed && this.lastLine.get(r.view_id) === key) {
      if (this.same.length && (this.sameStart !== r.start || this.sameFrame !== r.frame)) this.flush();
      if (!this.same.length) ((this.sameStart = r.start), (this.sameFrame = r.frame));
      this.same.push(r.view_id);
      return;
    }
    this.flush();
    this.lastLine.set(r.view_id, key);
    this.a.emit(r);
  }
}
