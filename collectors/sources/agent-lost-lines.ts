// Lost agent lines by type (docs/agent-protocol.md, "Lost lines"): the agent's `count` records say how many
// lines of each type it printed; what the reader did not receive of them was dropped by logd (its rate limit
// or a full buffer). Each type is named with the table it feeds and the analyses that then undercount.

/** What each line type feeds (docs/agent.md lists the analyses). */
export const LINE_EFFECTS: Record<string, string> = {
  task: "tasks (DiagDroid: queuing time, anomalous task groups, culprits)",
  begin: "tasks (DiagDroid: tasks left without a start look queued until the end)",
  end: "tasks (DiagDroid: tasks left without an end look still running)",
  drop: "tasks (DiagDroid: removed messages look never started)",
  ctx: "contexts (DiagDroid: context grouping; tasks keep an empty stack)",
  op: "render_ops (DRAW: overdraw per frame, rendering cost, invisible views, root causes)",
  same: "render_ops (DRAW: replayed views missing from their frames' overdraw and coverage)",
  input: "ui_events (DRAW: user interactions; frames matched to inputs)",
  hook: "hook reports (warnings about missing hooks)",
  hello: "the agent's version and API level",
};

export interface CountSnapshot {
  seq: number;
  /** lines of each type the agent printed before `seq` */
  printed: Map<string, number>;
  /** lines of each type received before it */
  received: Map<string, number>;
}

/** Lines lost per type between two `count` records (the first one, or nothing when seq 0 was read, as baseline). */
export function lostByType(first: CountSnapshot | null, last: CountSnapshot): Map<string, number> {
  const out = new Map<string, number>();
  for (const [type, n] of last.printed) {
    const printed = n - (first?.printed.get(type) ?? 0);
    const received = (last.received.get(type) ?? 0) - (first?.received.get(type) ?? 0);
    if (printed > received) out.set(type, printed - received);
  }
  return out;
}

/** "30 op lines: render_ops (DRAW: ...); 12 task lines: tasks (...)" */
export function describeLost(lost: Map<string, number>, unknown: number): string {
  const parts = [...lost].map(([t, n]) => `${n} ${t} lines: ${LINE_EFFECTS[t] ?? "no table"}`);
  if (unknown > 0) parts.push(`${unknown} printed after the agent's last count record, of unknown type`);
  return parts.join("; ");
}

/** Per process: lines received by type, and the first and last `count` records with what had arrived by then. */
export class LostLineCounter {
  private got = new Map<number, Map<string, number>>();
  private counts = new Map<number, { first: CountSnapshot; last: CountSnapshot }>();

  received(pid: number, type: string) {
    let got = this.got.get(pid);
    if (!got) this.got.set(pid, (got = new Map()));
    got.set(type, (got.get(type) ?? 0) + 1);
  }

  /** Lines arrive in sequence order within a process (logd keeps each writer's order), so what arrived so far is
   * what came before this record (itself excepted). */
  counted(pid: number, seq: number, counts: [string, number][]) {
    const snap: CountSnapshot = { seq, printed: new Map(counts), received: new Map(this.got.get(pid)) };
    snap.received.set("count", (snap.received.get("count") ?? 1) - 1);
    const c = this.counts.get(pid);
    if (!c || seq < c.first.seq)
      this.counts.set(pid, { first: snap, last: c && c.last.seq > seq ? c.last : snap });
    else if (seq > c.last.seq) c.last = snap;
  }

  /** ": 30 op lines: ...", adding `pid`'s `lost` lines by type into `into`; "" when the agent printed no count. */
  explain(pid: number, min: number, lost: number, into: Record<string, number>): string {
    const c = this.counts.get(pid);
    if (!c) return "";
    // From seq 0 everything counts; a collection that started later counts from its first count record.
    const byType = lostByType(min === 0 ? null : c.first, c.last);
    let known = 0;
    for (const [t, n] of byType) ((into[t] = (into[t] ?? 0) + n), (known += n));
    const unknown = Math.max(0, lost - known);
    if (unknown) into.unknown = (into.unknown ?? 0) + unknown;
    return `: ${describeLost(byType, unknown)}`;
  }
}
