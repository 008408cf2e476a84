// Export -> import: a bundle's slices and counters written as a Perfetto trace come back through our own
// Perfetto importer unchanged (async slices' depth aside: it is a drawing lane, which each reader lays out).
import { readFileSync } from "node:fs";
import type { Table } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { readBundleFolder } from "../../bundle/node-io";
import { bundleToPerfetto } from "../../export/bundle-to-perfetto";
import { detectPerfetto, importPerfetto } from "../../collectors/import/perfetto";
import { importSystrace } from "../../collectors/import/systrace";
import { SAMPLES_DIR } from "../../workspace/node/headless";

const rows = (t: Table | undefined) =>
  t ? t.toArray().map((r: { toJSON(): Record<string, unknown> }) => r.toJSON()) : [];
const sliceKey = (s: Record<string, unknown>) =>
  [s.ts, s.dur, s.pid, s.tid, s.thread_name, s.name, s.tid === null ? "" : s.depth, s.track].join("|");

describe("Perfetto export round trip", () => {
  it.each([
    "catapult_decompressed_atrace_data.txt",
    "catapult_compressed_atrace_data.ctrace",
    "perfetto_bad_print.systrace",
  ])("systrace %s: the same slices and counters back", (f) => {
    const imp = importSystrace(new Uint8Array(readFileSync(`test/fixtures/systrace/${f}`)), f, "r");
    const trace = bundleToPerfetto(imp.tables).trace;
    expect(detectPerfetto(trace)).toBe(true);
    const back = importPerfetto(trace, "x.perfetto-trace", "r");
    expect(back.complete).toBe(true);
    expect(back.clock.offset_ns).toBe(0);
    expect(rows(back.tables.slices).map(sliceKey).sort()).toEqual(
      rows(imp.tables.slices).map(sliceKey).sort(),
    );
    const counter = (c: Record<string, unknown>) => [c.ts, c.pid, c.name, c.value].join("|");
    expect(rows(back.tables.counter_samples).map(counter).sort()).toEqual(
      rows(imp.tables.counter_samples).map(counter).sort(),
    );
  });

  it("the sample run: every frame, task, render op and input event comes back as a slice at its time", async () => {
    const b = await readBundleFolder(SAMPLES_DIR + "paper-cases-pixel-4a");
    const out = bundleToPerfetto(b.tables);
    const back = importPerfetto(out.trace, "x.perfetto-trace", "r");
    const slices = rows(back.tables.slices);
    const total = Object.values(out.written).reduce((a, n) => a + n, 0);
    expect(slices).toHaveLength(total);
    const actual = slices.filter(
      (s) => s.track === "Actual frames app" || String(s.track).startsWith("Actual frames"),
    );
    const frames = rows(b.tables.get("frames"));
    expect(actual.map((s) => `${s.ts}|${s.dur}`).sort()).toEqual(
      frames.map((f) => `${f.intended_vsync}|${f.duration}`).sort(),
    );
    expect(actual.filter((s) => s.name === "Janky frame")).toHaveLength(frames.filter((f) => f.jank).length);
  });
});
