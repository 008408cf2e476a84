// Binder transactions from ftrace (protos/perfetto/trace/ftrace/binder.proto): binder_transaction (FtraceEvent 50)
// and binder_transaction_received (51), paired as trace processor's BinderTracker pairs them
// (src/trace_processor/importers/ftrace/binder_tracker.cc): a call is received by the thread that serves it, that
// thread's next reply (binder_transaction with reply set) answers the innermost call it is serving, and the reply's
// receipt on the calling thread ends the call. One-way calls (flags & FLAG_ONEWAY 1) get no reply.
import type { ProtoReader } from "./proto-reader";

export const F_BINDER_TRANSACTION = 50;
export const F_BINDER_RECEIVED = 51;

export interface BinderRow {
  /** boot ns until finish() converts them */
  ts: number;
  /** until the caller received the reply; null for one-way calls and calls whose reply the trace lacks */
  dur: number | null;
  client_tid: number;
  server_tid: number | null;
  /** to_proc as the kernel wrote it */
  server_pid: number | null;
  /** when the serving thread received the call */
  server_ts: number | null;
  /** from receipt to the serving thread's reply */
  server_dur: number | null;
  one_way: boolean;
  code: number;
  flags: number;
  transaction_id: number;
  dest_node: number;
}

interface Pending {
  ts: number;
  tid: number;
  id: number;
  reply: boolean;
  row: BinderRow | null;
}

export class BinderTransactions {
  /** events as read: per CPU, so not in time order across CPUs until finish() sorts them */
  private events: {
    ts: number;
    tid: number;
    received: boolean;
    id: number;
    row: BinderRow | null;
    reply: boolean;
  }[] = [];

  event(kind: number, r: ProtoReader, ts: number, tid: number): void {
    let id = 0;
    let node = 0;
    let proc = 0;
    let reply = 0;
    let code = 0;
    let flags = 0;
    while (r.more()) {
      const t = r.tag();
      if (t === 8) id = r.int64();
      else if (t === 16) node = r.int64();
      else if (t === 24) proc = r.int64();
      else if (t === 40) reply = r.int64();
      else if (t === 48) code = r.varint();
      else if (t === 56) flags = r.varint();
      else r.skip(t & 7);
    }
    if (kind === F_BINDER_RECEIVED) {
      this.events.push({ ts, tid, received: true, id, row: null, reply: false });
      return;
    }
    const row: BinderRow | null = reply
      ? null
      : {
          ts,
          dur: null,
          client_tid: tid,
          server_tid: null,
          server_pid: proc || null,
          server_ts: null,
          server_dur: null,
          one_way: (flags & 1) === 1,
          code,
          flags,
          transaction_id: id,
          dest_node: node,
        };
    this.events.push({ ts, tid, received: false, id, row, reply: reply !== 0 });
  }

  /** The calls in time order, paired with their receipt and reply; times mapped by `convert`. */
  finish(convert: (boot: number) => number): BinderRow[] {
    const events = this.events.sort((a, b) => a.ts - b.ts);
    const outstanding = new Map<number, Pending>();
    // Calls each thread is serving, innermost last.
    const serving = new Map<number, BinderRow[]>();
    const rows: BinderRow[] = [];
    for (const e of events) {
      if (!e.received) {
        if (e.row) rows.push(e.row);
        else {
          // A reply answers the innermost call its thread is serving.
          const row = serving.get(e.tid)?.pop() ?? null;
          if (row?.server_ts != null) row.server_dur = e.ts - row.server_ts;
          outstanding.set(e.id, { ts: e.ts, tid: e.tid, id: e.id, reply: true, row });
          continue;
        }
        outstanding.set(e.id, { ts: e.ts, tid: e.tid, id: e.id, reply: false, row: e.row });
        continue;
      }
      const p = outstanding.get(e.id);
      if (!p) continue;
      outstanding.delete(e.id);
      if (p.reply) {
        if (p.row && p.row.client_tid === e.tid) p.row.dur = e.ts - p.row.ts;
        continue;
      }
      const row = p.row!;
      row.server_tid = e.tid;
      row.server_ts = e.ts;
      if (!row.one_way) {
        let stack = serving.get(e.tid);
        if (!stack) serving.set(e.tid, (stack = []));
        stack.push(row);
      }
    }
    for (const r of rows) {
      const end = r.dur === null ? null : r.ts + r.dur;
      const serverEnd = r.server_dur === null || r.server_ts === null ? null : r.server_ts + r.server_dur;
      r.ts = convert(r.ts);
      if (end !== null) r.dur = convert(end) - r.ts;
      if (r.server_ts !== null) {
        r.server_ts = convert(r.server_ts);
        if (serverEnd !== null) r.server_dur = convert(serverEnd) - r.server_ts;
      }
    }
    return rows;
  }
}
