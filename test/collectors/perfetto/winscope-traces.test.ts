// Perfetto traces recorded on Android devices (AOSP Winscope's test fixtures, test/fixtures/SOURCES.md). They hold
// none of the data jankbook reads, so what they check is the reading itself: every packet found, every kind we skip
// counted, the clock offset taken from the right snapshot, all against an independent walk of the same bytes.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { detectPerfetto } from "../../../collectors/import/perfetto";
import { decodePerfetto } from "../../../collectors/sources/perfetto/trace-decoder";
import { walk } from "./pb";

// TracePacket fields that describe the packet (trace_packet.proto), and the data fields the decoder reads.
const METADATA = new Set([3, 8, 10, 12, 13, 36, 41, 42, 58, 59, 79, 87]);
const READ = new Set([1, 2, 6, 9, 11, 39, 45, 47, 50, 60, 76, 133]);

describe("Winscope's device traces", () => {
  it.each([
    "no_winscope_traces",
    "input-events",
    "shell_transitions_trace",
    "protolog",
    "transactions_trace",
  ])("%s: packets, skipped kinds and the clock offset match an independent walk", (name) => {
    const bytes = new Uint8Array(readFileSync(`test/fixtures/perfetto/winscope_${name}.perfetto-trace`));
    const packets = walk(bytes).filter((x) => x.f === 1 && x.b);
    let skipped = 0;
    let offset: bigint | null = null;
    for (const p of packets)
      for (const x of walk(p.b!)) {
        if (!METADATA.has(x.f) && !READ.has(x.f)) skipped++;
        if (x.f === 6 && offset === null) {
          const clocks = new Map(
            walk(x.b!)
              .filter((c) => c.f === 1)
              .map((c) => {
                const fields = walk(c.b!);
                return [fields.find((k) => k.f === 1)?.n, fields.find((k) => k.f === 2)?.n ?? 0n];
              }),
          );
          offset = clocks.get(3n)! - clocks.get(6n)!;
        }
      }

    expect(detectPerfetto(bytes)).toBe(true);
    const d = decodePerfetto(bytes);
    expect(d.complete).toBe(true);
    expect(d.packets).toBe(packets.length);
    const kinds = d.warnings.find((w) => w.startsWith("packet kinds not read, skipped: "));
    const counted = [...(kinds ?? "").matchAll(/ (\d+)(,|$)/g)].reduce((a, m) => a + Number(m[1]), 0);
    expect(counted).toBe(skipped);
    expect(skipped).toBeGreaterThan(0);
    expect(d.clock.converted).toBe(true);
    expect(BigInt(d.clock.offsetNs)).toBe(offset);
    // Real snapshots differ by a few hundred ns (the clocks are read in turn): no suspend is reported.
    expect(d.warnings.some((w) => /suspended/.test(w))).toBe(false);
  });
});
