// `jankbook import`: kind detection across all importers and the bundle written for a method trace.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readBundleFolder } from "../../../bundle/node-io";
import { importFile, importFiles } from "../../../cli/commands/import";
import { readMethodTrace } from "../../../collectors/sources/method-trace";
import { detectMethodTrace } from "../../../collectors/import/method-trace";
import { readFileSync } from "node:fs";

const tmp = () => mkdtempSync(join(tmpdir(), "jb-import-"));

describe("jankbook import", () => {
  it("writes a bundle with methods, threads, method_events and calls for an ART streaming trace", async () => {
    const out = tmp();
    const r = await importFile(
      "test/fixtures/dmtrace/firefox-profiler_art-trace-streaming.trace",
      out,
      "art-stream",
    );
    expect(r.kind).toBe("method-trace");
    expect(r.dir).toBe(join(out, "art-stream"));
    const b = await readBundleFolder(r.dir);
    expect(b.errors).toEqual([]);
    expect(b.manifest.run_id).toBe("art-stream");
    expect(b.manifest.complete).toBe(true);
    expect(b.manifest.sources).toEqual([
      {
        kind: "method-trace",
        origin: "firefox-profiler_art-trace-streaming.trace",
        tables: ["methods", "threads", "method_events", "calls"],
      },
    ]);
    const ev = b.tables.get("method_events")!;
    const calls = b.tables.get("calls")!;
    expect(ev.numRows).toBe(39377);
    // One call per entry record here: the trace has no exits without entries.
    expect(calls.numRows).toBe(19885);
    expect(calls.getChild("run_id")!.get(0)).toBe("art-stream");
    expect(ev.getChild("run_id")!.get(ev.numRows - 1)).toBe("art-stream");
    // The key's tables make the ids readable: every thread a record names is defined, and so is every method
    // but those of the 38 records the reader warns about (this real trace names methods it never defines).
    const methodIds = new Set(b.tables.get("methods")!.getChild("method_id")!.toArray() as Iterable<number>);
    const threadNames = new Map<number, string>();
    const threads = b.tables.get("threads")!;
    for (let i = 0; i < threads.numRows; i++)
      threadNames.set(threads.getChild("thread_id")!.get(i), threads.getChild("name")!.get(i));
    const eventMethods = ev.getChild("method_id")!.toArray() as Iterable<number>;
    const usedThreads = new Set(ev.getChild("thread_id")!.toArray() as Iterable<number>);
    expect([...eventMethods].filter((id) => !methodIds.has(id)).length).toBe(38);
    expect(b.manifest.warnings.join("\n")).toMatch(/38 records name a method id not in the method list/);
    expect([...usedThreads].filter((id) => !threadNames.has(id))).toEqual([]);
    expect(threadNames.get(ev.getChild("thread_id")!.get(0))).toMatch(/\S/);
  });

  it("names the run after the file by default and marks a truncated trace incomplete", async () => {
    const out = tmp();
    const bytes = readFileSync("test/fixtures/dmtrace/aosp-perflib_basic.trace");
    const file = join(out, "cut.trace");
    writeFileSync(file, bytes.subarray(0, bytes.length - 3));
    const r = await importFile(file, out);
    expect(r.dir).toBe(join(out, "import-cut"));
    const b = await readBundleFolder(r.dir);
    expect(b.manifest.complete).toBe(false);
    expect(b.manifest.warnings.join("\n")).toMatch(/cut\.trace: data cut short at byte \d+/);
    expect(b.tables.get("method_events")!.numRows).toBe(8);
  });

  it("detects the other importers' kinds from content", async () => {
    const r = await importFile("test/fixtures/logcat/loghub_Android_2k_threadtime.log", tmp(), "lc");
    expect(r.kind).toBe("logcat");
    expect(detectMethodTrace(new TextEncoder().encode("03-17 16:13:38.811  1702  2395 D Wm: x"))).toBe(false);
  });

  it("rejects files that no importer knows, and the header-only trace, saying what they look like", async () => {
    const out = tmp();
    const file = join(out, "x.bin");
    writeFileSync(file, new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0]));
    await expect(importFile(file, out)).rejects.toThrow(
      /not a kind jankbook imports \(gzip-compressed: gunzip it first\); it starts with "\\x1f\\x8b\\x08/,
    );
    await expect(importFile("test/fixtures/dmtrace/aosp-perflib_header.trace", out)).rejects.toThrow(
      /data header at byte 557/,
    );
  });
});

describe("jankbook import of two method traces", () => {
  it("a big one beside a small one: neither is streamed, method_events holds both", async () => {
    const out = tmp();
    // The regular trace is past the 64 KiB that would stream it alone.
    const r = await importFiles(
      [
        "test/fixtures/dmtrace/firefox-profiler_art-trace-regular.trace",
        "test/fixtures/dmtrace/aosp-perflib_basic.trace",
      ],
      out,
      { runId: "two" },
    );
    const b = await readBundleFolder(r[0]!.dir);
    expect(b.errors).toEqual([]);
    const one = (f: string) =>
      readMethodTrace(new Uint8Array(readFileSync(`test/fixtures/dmtrace/${f}`))).events.numRows;
    expect(b.tables.get("method_events")!.numRows).toBe(
      one("firefox-profiler_art-trace-regular.trace") + one("aosp-perflib_basic.trace"),
    );
    expect(b.manifest.tables.method_events!.rows).toBe(b.tables.get("method_events")!.numRows);
  });
});
