// The fuzz bench's judge (bench/fuzz-child.ts): our refusals are told from crashes by where the error
// came from, not by "any Error"; whole and cut real files get the outcome read off them by hand.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { judge, ourError } from "../../bench/fuzz-child";
import { cutInside } from "../../bench/fuzz-cut";
import { ImportError } from "../../collectors/import/importers";
import { parseMeminfo } from "../../collectors/sources/meminfo";
import { readMethodTrace } from "../../collectors/sources/method-trace";

const fixture = (f: string) => new Uint8Array(readFileSync(`test/fixtures/${f}`));
const job = (name: string, bytes: Uint8Array, cutInside = false) => ({
  id: 1,
  name,
  bytes,
  cutInside,
  baseline: [],
});

describe("ourError", () => {
  const caught = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e as Error;
    }
    throw new Error("did not throw");
  };
  it("a plain Error our parser throws, wrapped naming the file, is ours", () => {
    const e = caught(() => readMethodTrace(fixture("dmtrace/aosp-perflib_basic.trace").subarray(0, 100)));
    expect(e.constructor).toBe(Error);
    expect(ourError(new ImportError(`t.trace: ${e.message}`, { cause: e }), "t.trace")).toBe(true);
  });
  it("a TypeError from our code, an error not naming the file, or one raised outside our tree is not", () => {
    const type = caught(() => parseMeminfo(null as never));
    expect(type).toBeInstanceOf(TypeError);
    expect(ourError(new ImportError("m.txt: x", { cause: type }), "m.txt")).toBe(false);
    expect(ourError(new ImportError("other.txt: x", { cause: new Error("y") }), "m.txt")).toBe(false);
    const foreign = new Error("z");
    foreign.stack = "Error: z\n    at f (/work/main/node_modules/apache-arrow/x.js:1:2)";
    expect(ourError(new ImportError("m.txt: z", { cause: foreign }), "m.txt")).toBe(false);
    expect(ourError(new TypeError("m.txt: z"), "m.txt")).toBe(false);
  });
});

describe("judge", () => {
  it("files not importable by design are refused, naming the file", async () => {
    const v = await judge(job("SOURCES.md", fixture("SOURCES.md")));
    expect(v.outcome).toBe("refused");
    expect(v.detail).toMatch(/^SOURCES\.md: not a kind jankbook imports/);
  });
  it("a Macrobenchmark file (one run per iteration) is parsed; cut, it is refused", async () => {
    const f = "macrobenchmark/measure-sh_startup-08-07-2024-msr-enabled-benchmarkData.json";
    const bytes = fixture(f);
    expect((await judge(job("b.json", bytes))).outcome).toBe("parsed");
    const cut = await judge(job("b.json", bytes.subarray(0, 1000), true));
    expect(cut.outcome).toBe("refused");
    expect(cut.detail).toMatch(/^b\.json at line \d+ column \d+: not valid JSON/);
  });
  it("logcat cut mid-line is partial, not wrong; a meminfo figure that lost digits is caught", async () => {
    const log = fixture("logcat/loghub_Android_2k_threadtime.log");
    expect((await judge(job("l.log", log.subarray(0, 146354), true))).outcome).toBe("flagged");
    // meminfo cut inside its TOTAL figure ("TOTAL   1459" of 145991): read as 1,459 KB unwarned, it was wrong
    const original = fixture("meminfo/droid-monitor_api23_meminfo.txt");
    const at = new TextDecoder().decode(original).indexOf("TOTAL") + "TOTAL   1459".length;
    const v = await judge({
      ...job("m.txt", original.subarray(0, at)),
      meminfo: { original, truncated: true },
    });
    expect(v.outcome).toBe("flagged");
  });
});

describe("cutInside: where a prefix of the original is known to be cut inside a record", () => {
  it("Perfetto: only off the original's packet boundaries (read by hand with od: 31, 61, 76, 107, 138)", () => {
    const f = "perfetto/difftest_track_event_with_atrace.pftrace";
    const b = fixture(f);
    // Packets: 0a 1d (29 bytes) at 0, 0a 1c at 31, 0a 0d at 61, 0a 1d at 76, 0a 1d at 107, 0a 14 at 138, ...
    const boundaries = [31, 61, 76, 107, 138];
    for (let at = 1; at < 160; at++) expect(cutInside(f, b, at), `at ${at}`).toBe(!boundaries.includes(at));
  });
  it("Perfetto: a prefix ending at a packet boundary is judged by its rows, one cut inside a packet is not complete", async () => {
    const b = fixture("perfetto/difftest_track_event_with_atrace.pftrace");
    const at138 = await judge(job("t.pftrace", b.subarray(0, 138), false));
    expect(["parsed", "flagged"]).toContain(at138.outcome);
    const at137 = await judge(job("t.pftrace", b.subarray(0, 137), true));
    expect(["flagged", "refused"]).toContain(at137.outcome);
  });
  it("atrace -z: inside the zlib stream (ends at byte 7599, read off with python3 zlib), not in what follows", () => {
    const f = "systrace/catapult_compressed_atrace_data.ctrace";
    const b = fixture(f);
    expect([8, 2000, 7598].map((at) => cutInside(f, b, at))).toEqual([true, true, true]);
    expect([7599, 10014, 19203].map((at) => cutInside(f, b, at))).toEqual([false, false, false]);
  });
  it("text: after anything but a newline, unless only blanks and full stops are lost; other binary: anywhere", () => {
    const t = new TextEncoder().encode("ab cd\nsecond line.\n");
    expect([1, 3, 6, 7, 13, 17, 18].map((at) => cutInside("x.txt", t, at))).toEqual([
      true,
      true,
      false,
      true,
      true,
      false,
      false,
    ]);
    const dm = fixture("dmtrace/aosp-perflib_basic.trace");
    expect(cutInside("dmtrace/aosp-perflib_basic.trace", dm, 100)).toBe(true);
  });
});
