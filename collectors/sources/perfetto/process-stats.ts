// Process memory from ProcessStats (TracePacket field 9, protos/perfetto/trace/ps/process_stats.proto) as counters,
// named and scaled as trace processor's process tracker does (src/trace_processor/importers/proto/system_probes_parser.cc:
// kB to bytes, "mem.rss.anon", "mem.swap", ..., and oom_score_adj as it is).
import type { CounterRow } from "./rows";
import type { ProtoReader } from "./proto-reader";

// Process field number to counter name; the kB ones are multiplied by 1024.
const KB_FIELDS: Record<number, string> = {
  2: "mem.virt",
  3: "mem.rss",
  4: "mem.rss.anon",
  5: "mem.rss.file",
  6: "mem.rss.shmem",
  7: "mem.swap",
  8: "mem.locked",
  9: "mem.rss.watermark",
  16: "mem.smaps.rss",
  17: "mem.smaps.pss",
  18: "mem.smaps.pss.anon",
  19: "mem.smaps.pss.file",
  20: "mem.smaps.pss.smem",
  23: "mem.smaps.swap.pss",
  24: "mem.dmabuf_rss",
};

/** One ProcessStats at boot time `ts`: a counter row per value a process reports. */
export function readProcessStats(r: ProtoReader, ts: number, out: CounterRow[]): void {
  while (r.more()) {
    const t = r.tag();
    if (t !== 10) {
      r.skip(t & 7);
      continue;
    }
    const m = r.message();
    let pid: number | null = null;
    const first = out.length;
    while (m.more()) {
      const mt = m.tag();
      const f = mt >>> 3;
      if (mt === 8) pid = m.int64();
      else if ((mt & 7) === 0 && KB_FIELDS[f])
        out.push({ ts, pid: null, name: KB_FIELDS[f], value: m.varint() * 1024 });
      else if (mt === 80) out.push({ ts, pid: null, name: "oom_score_adj", value: m.int64() });
      // CPU time in user and kernel mode, ns as read.
      else if (mt === 168 || mt === 176)
        out.push({
          ts,
          pid: null,
          name: mt === 168 ? "runtime.user_ns" : "runtime.kernel_ns",
          value: m.varint(),
        });
      else m.skip(mt & 7);
    }
    for (let i = first; i < out.length; i++) out[i]!.pid = pid;
  }
}
