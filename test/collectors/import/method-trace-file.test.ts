// importMethodTraceFile (a method trace streamed into the bundle) writes the tables importMethodTrace makes
// from the whole buffer: every value of methods, threads, method_events, calls and heap_samples, the
// warnings and completeness, for real traces, AndroScope extended ones, a cut one and one with no records.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tableFromIPC, type Table } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { importMethodTrace } from "../../../collectors/import/method-trace";
import { importMethodTraceFile } from "../../../collectors/import/method-trace-file";
import { findKeyEnd } from "../../../collectors/sources/method-trace-key";
import { writeMethodTrace } from "../../../collectors/sources/method-trace-writer";

const DIR = "test/fixtures/dmtrace/";

function values(t: Table): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const f of t.schema.fields) out[`${f.name}:${f.type}`] = [...t.getChild(f.name)!].map(String);
  return out;
}

function extendedTrace(compact: boolean): Uint8Array {
  const records = Array.from({ length: 300 }, (_, i) => ({
    threadId: 1 + (i % 2),
    methodId: 4 * (1 + ((i >> 2) % 3)),
    action: (i >> 1) % 2,
    threadCpuUs: i * 3,
    wallUs: i * 5,
    cpu: i % 4,
    heap: [1 << 20, 1000 + (i >> 4) * 64, i >> 3] as const,
    counters: [i * 1000, i * 700],
  }));
  return writeMethodTrace({
    dataVersion: 3,
    clock: "dual",
    threads: [
      { id: 1, name: "main" },
      { id: 2, name: "RenderThread" },
    ],
    methods: [1, 2, 3].map((m) => ({ id: 4 * m, className: "a.B", methodName: `m${m}`, signature: "()V" })),
    records,
    extended: { heap: true, counters: ["cpu-cycles", "instructions"], compact },
  });
}

describe("importMethodTraceFile", () => {
  const regular = readFileSync(DIR + "firefox-profiler_art-trace-regular.trace");
  const basic = readFileSync(DIR + "aosp-perflib_basic.trace");
  // The key ends with "*end\n", then a data header whose bytes 6-7 give its length (trace.cc).
  const dataStart = (b: Uint8Array) => {
    const at = findKeyEnd(b) + 5;
    return at + (b[at + 6]! | (b[at + 7]! << 8));
  };
  const cases: [string, Uint8Array][] = [
    ["ART streaming", readFileSync(DIR + "firefox-profiler_art-trace-streaming.trace")],
    ["ART regular", regular],
    ["legacy", readFileSync(DIR + "Grigory-Rylov-android-methods-profiler_legacy.trace")],
    ["AOSP exception (unwinds)", readFileSync(DIR + "aosp-perflib_exception.trace")],
    ["cut mid-record", regular.subarray(0, dataStart(regular) + 1000 * 14 + 3)],
    ["extended fixed", extendedTrace(false)],
    ["extended compact", extendedTrace(true)],
    ["no records", basic.subarray(0, dataStart(basic))],
  ];

  it.each(cases)("%s: the same tables, warnings and completeness as importMethodTrace", (_, bytes) => {
    const dir = mkdtempSync(join(tmpdir(), "jb-mtrace-"));
    const path = join(dir, "x.trace");
    writeFileSync(path, bytes);
    const whole = importMethodTrace(new Uint8Array(bytes), "x.trace", "run");
    const streamed = importMethodTraceFile(path, "x.trace", "run", join(dir, "run"));
    expect(streamed.warnings).toEqual(whole.warnings);
    expect(streamed.complete).toBe(whole.complete);
    expect(streamed.context).toEqual(whole.context);
    expect(streamed.order).toEqual(Object.keys(whole.tables));
    for (const [name, table] of Object.entries(whole.tables)) {
      const got = streamed.tables[name as keyof typeof streamed.tables];
      const read = got ?? tableFromIPC(readFileSync(join(dir, "run", `${name}.arrows`)));
      expect(read.numRows, name).toBe(table!.numRows);
      expect(values(read), name).toEqual(values(table!));
      if (!got) expect(streamed.written[name as "calls"]!.rows).toBe(table!.numRows);
    }
  });

  it("a file that fails to read throws readMethodTrace's message and leaves no run folder behind", () => {
    const dir = mkdtempSync(join(tmpdir(), "jb-mtrace-"));
    const bad = join(dir, "bad.trace");
    // A key section that never ends, longer than the 64 KiB import reads to detect the kind.
    writeFileSync(bad, "*version\n3\n" + "x=y\n".repeat(40_000));
    const out = join(dir, "run");
    expect(() => importMethodTraceFile(bad, "bad.trace", "run", out)).toThrow(
      /key section has no \*end line \(file ends at byte 160011\)/,
    );
    expect(existsSync(out)).toBe(false);
    // A data section past the header that is cut: the files are written, the import is incomplete.
    const cut = join(dir, "cut.trace");
    writeFileSync(cut, regular.subarray(0, dataStart(regular) + 7));
    const r = importMethodTraceFile(cut, "cut.trace", "run", out);
    expect(r.complete).toBe(false);
    expect(r.written.method_events!.rows).toBe(0);
    expect(existsSync(join(out, "calls.arrows"))).toBe(true);
  });
});
