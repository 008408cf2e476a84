// `jankbook import` on a systrace file: detected by content, written as a bundle that reads back, the clock said.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readBundleFolder } from "../../../bundle/node-io";
import { importFile } from "../../../cli/commands/import";

const out = mkdtempSync(join(tmpdir(), "systrace-cli-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("jankbook import <systrace>", () => {
  it("a .ctrace becomes a bundle with slices, counters, threads and processes, and says its clock", async () => {
    const r = await importFile(
      "test/fixtures/systrace/catapult_compressed_atrace_data.ctrace",
      out,
      "ctrace",
    );
    expect(r.kind).toBe("systrace-ctrace");
    const b = await readBundleFolder(r.dir);
    expect(b.errors).toEqual([]);
    expect(b.tables.get("slices")!.numRows).toBe(480);
    expect(b.tables.get("counter_samples")!.numRows).toBe(88);
    expect(b.manifest.clock.domain).toBe("ftrace trace_clock");
    expect(b.manifest.clock.note).toMatch(/CLOCK_BOOTTIME/);
    expect(b.manifest.sources).toEqual([
      {
        kind: "systrace-ctrace",
        origin: "catapult_compressed_atrace_data.ctrace",
        tables: ["slices", "counter_samples", "processes", "threads"],
      },
    ]);
  });
});
