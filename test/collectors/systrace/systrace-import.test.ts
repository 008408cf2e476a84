// Legacy systrace / atrace import on real files (catapult and Perfetto test data, test/fixtures/SOURCES.md),
// each flavour against an independent line-by-line reading of the same ftrace text.
import { readFileSync } from "node:fs";
import { deflateSync } from "node:zlib";
import type { Table } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { detectSystrace, importSystrace } from "../../../collectors/import/systrace";
import { canonical, referenceRead, type RefCounter, type RefSlice } from "./systrace-reference";

const dir = "test/fixtures/systrace/";
const bytes = (f: string) => new Uint8Array(readFileSync(dir + f));
const text = (f: string) => readFileSync(dir + f, "utf8");

function rows(t: Table | undefined): Record<string, unknown>[] {
  return t ? t.toArray().map((r: { toJSON(): Record<string, unknown> }) => r.toJSON()) : [];
}
function slicesOf(t: Table | undefined): RefSlice[] {
  return canonical(
    rows(t).map((r) => ({
      ts: r.ts as bigint,
      dur: (r.dur ?? null) as bigint | null,
      tid: (r.tid ?? null) as number | null,
      pid: r.pid as number,
      name: r.name as string,
      depth: r.tid === null ? null : (r.depth as number),
    })),
  );
}
function countersOf(t: Table | undefined): RefCounter[] {
  return canonical(
    rows(t).map((r) => ({
      ts: r.ts as bigint,
      pid: r.pid as number,
      name: r.name as string,
      value: r.value as number,
    })),
  );
}

const decompressed = text("catapult_decompressed_atrace_data.txt");
const reference = referenceRead(decompressed);

describe("importSystrace: every flavour gives the slices of a line-by-line reading", () => {
  it("plain ftrace text with TGIDs (catapult decompressed_atrace_data): 463 B + 17 S slices, 88 counters", () => {
    const r = importSystrace(bytes("catapult_decompressed_atrace_data.txt"), "d.txt", "r");
    // Counts by grep: 463 `tracing_mark_write: B|`, 17 `S|`, 88 `C|` lines.
    expect(reference.slices).toHaveLength(480);
    expect(reference.counters).toHaveLength(88);
    expect(r.source.kind).toBe("systrace-text");
    expect(slicesOf(r.tables.slices)).toEqual(canonical(reference.slices));
    expect(countersOf(r.tables.counter_samples)).toEqual(canonical(reference.counters));
    expect(r.complete).toBe(true);
  });

  it(".ctrace (TRACE: + zlib, catapult compressed_atrace_data) equals its decompressed text", () => {
    const r = importSystrace(bytes("catapult_compressed_atrace_data.ctrace"), "c.ctrace", "r");
    expect(r.source.kind).toBe("systrace-ctrace");
    expect(slicesOf(r.tables.slices)).toEqual(canonical(reference.slices));
    expect(countersOf(r.tables.counter_samples)).toEqual(canonical(reference.counters));
  });

  it("new systrace HTML: trace-data blocks read, the JSON block skipped with a warning", () => {
    // catapult output_generator.py writes one block per agent between BEGIN/END TRACE; the real text wrapped so.
    const html =
      "<!DOCTYPE html>\n<html><head><title>Android System Trace</title></head><body>\n<!-- BEGIN TRACE -->\n" +
      '  <script class="trace-data" type="application/text">\n' +
      decompressed +
      "  </script>\n" +
      '  <script class="trace-data" type="application/text">\n{"traceEvents": [], "metadata": {}}  </script>\n' +
      "<!-- END TRACE -->\n</body></html>\n";
    const r = importSystrace(new TextEncoder().encode(html), "new.html", "r");
    expect(r.source.kind).toBe("systrace-html");
    expect(slicesOf(r.tables.slices)).toEqual(canonical(reference.slices));
    expect(r.warnings.some((w) => /block 2 is JSON.*skipped/.test(w))).toBe(true);
  });

  it.each([
    ["third_party/catapult_trivial_systrace.html", 4],
    ["third_party/catapult_counter_tracks.html", 1611],
  ])("old systrace HTML (var linuxPerfData) %s: %i counters of the `0:` event", (f, n) => {
    const r = importSystrace(bytes(f), f, "r");
    expect(r.source.kind).toBe("systrace-html-legacy");
    // The reference reads the JS string by JSON.parse: same escapes, a different decoder.
    const js = text(f);
    const start = js.indexOf('"', js.indexOf("var linuxPerfData"));
    const literal = js.slice(start, js.indexOf('";', start) + 1).replace(/\\\n/g, "");
    const ref = referenceRead(JSON.parse(literal) as string);
    expect(ref.counters).toHaveLength(n);
    expect(countersOf(r.tables.counter_samples)).toEqual(canonical(ref.counters));
  });

  it("trivial_systrace.html by hand: VSYNC 1 then 0 for pid 124, StatusBar 1, iq 1 for pid 360", () => {
    const r = importSystrace(bytes("third_party/catapult_trivial_systrace.html"), "t.html", "r");
    expect(rows(r.tables.counter_samples).map((c) => [c.ts, c.pid, c.name, c.value])).toEqual([
      [50260929925000n, 124, "VSYNC", 1],
      [50260935656000n, 124, "StatusBar", 1],
      [50260946573000n, 124, "VSYNC", 0],
      [50262538578000n, 360, "iq", 1],
    ]);
  });

  it("JS-escaped text (catapult android_systrace.txt) reads as its unescaped self", () => {
    const raw = text("catapult_android_systrace_js-escaped.txt");
    const r = importSystrace(bytes("catapult_android_systrace_js-escaped.txt"), "a.txt", "r");
    expect(r.source.kind).toBe("systrace-js-escaped");
    const plain = raw.replace(/\\n\\\n/g, "\n");
    const again = importSystrace(new TextEncoder().encode(plain), "plain.txt", "r");
    expect(rows(r.tables.thread_states)).toEqual(rows(again.tables.thread_states));
    // 58 sched_switch lines, none from or to idle on both sides: every switch-in starts a running row.
    const switchIns = plain.split("\n").filter((l) => /sched_switch: .* next_pid=[1-9]/.test(l)).length;
    expect(rows(r.tables.thread_states).filter((s) => s.state === "running")).toHaveLength(switchIns);
  });

  it("a .ctrace cut inside its zlib stream keeps what inflates, is partial and names the byte", () => {
    const b = bytes("catapult_compressed_atrace_data.ctrace");
    for (const at of [2000, 5000, 7598]) {
      const r = importSystrace(b.subarray(0, at), "cut.ctrace", "r");
      expect(r.complete).toBe(false);
      expect(r.warnings).toContainEqual(
        expect.stringMatching(
          new RegExp(`^cut\\.ctrace byte ${at}: zlib stream \\(from byte 7\\) ends before its end marker`),
        ),
      );
      // Every slice kept is one the whole file has (the cut loses the tail, never invents).
      const whole = new Set(
        slicesOf(importSystrace(b, "w.ctrace", "r").tables.slices).map((s) => `${s.ts} ${s.name}`),
      );
      const kept = slicesOf(r.tables.slices);
      expect(kept.every((s) => whole.has(`${s.ts} ${s.name}`))).toBe(true);
      if (at > 4000) expect(kept.length).toBeGreaterThan(0);
    }
    // The stream ends at byte 7599 (read off with python3 zlib.decompressobj: 7592 bytes taken after `TRACE:\n`);
    // the 17599 bytes after it are no zlib stream: said, not read, and the trace itself is whole.
    for (const at of [b.length, 7599, 19203]) {
      const r = importSystrace(b.subarray(0, at), "w.ctrace", "r");
      expect(r.complete).toBe(true);
      if (at > 7599)
        expect(r.warnings).toContain(
          `w.ctrace byte 7599: ${at - 7599} byte(s) after the zlib stream's end, not part of the trace, not read`,
        );
    }
  });

  it("text, JS-escaped and HTML cut before their end (mid-line, before </html>) are partial, naming where", () => {
    const cases: [string, number, RegExp][] = [
      ["catapult_decompressed_atrace_data.txt", 12527, /^t line \d+ \(byte \d+\): no newline at the end/],
      ["catapult_android_systrace_js-escaped.txt", 8072, /^t line \d+ \(byte \d+\): no newline at the end/],
      ["third_party/catapult_trivial_systrace.html", 1007, /^t byte 1007: no closing <\/html>/],
      [
        "third_party/catapult_counter_tracks.html",
        bytes("third_party/catapult_counter_tracks.html").length - 3,
        /^t byte \d+: no closing <\/html>/,
      ],
    ];
    for (const [f, at, why] of cases) {
      const b = bytes(f);
      expect(importSystrace(b, "t", "r").complete).toBe(true);
      const r = importSystrace(b.subarray(0, at), "t", "r");
      expect(r.complete, f).toBe(false);
      expect(r.warnings).toContainEqual(expect.stringMatching(why));
    }
    // The line named is the cut one: the text has 12527 bytes' worth of whole lines before it, counted here.
    const t = bytes("catapult_decompressed_atrace_data.txt").subarray(0, 12527);
    const head = new TextDecoder().decode(t);
    const line = head.split("\n").length;
    const byte = head.lastIndexOf("\n") + 1;
    expect(importSystrace(t, "t", "r").warnings).toContain(
      `t line ${line} (byte ${byte}): no newline at the end: the file may be cut inside this line; import partial`,
    );
  });

  it("a .ctrace whose zlib stream went through a pty (\\n -> \\r\\n) is repaired with a warning", () => {
    const z = deflateSync(Buffer.from(decompressed));
    const crlf: number[] = [];
    for (const x of z) x === 0x0a ? crlf.push(0x0d, 0x0a) : crlf.push(x);
    const file = new Uint8Array([...new TextEncoder().encode("TRACE:\n"), ...crlf]);
    const r = importSystrace(file, "pty.ctrace", "r");
    expect(slicesOf(r.tables.slices)).toEqual(canonical(reference.slices));
    expect(r.warnings.some((w) => /\\r\\n in the zlib stream undone/.test(w))).toBe(true);
  });
});

describe("importSystrace: thread states from sched events", () => {
  it("catapult atrace_data: running time per thread equals a per-CPU scan of sched_switch", () => {
    const raw = text("catapult_atrace_data.txt");
    const r = importSystrace(bytes("catapult_atrace_data.txt"), "a.txt", "r");
    // Per CPU, the thread switched in runs until the next switch on that CPU.
    const last = new Map<string, { tid: number; ts: bigint }>();
    const want = new Map<number, bigint>();
    for (const l of raw.split("\n")) {
      const m = / \[(\d+)\] .* (\d+)\.(\d+): sched_switch: .*next_pid=(\d+)/.exec(l);
      if (!m) continue;
      const ts = BigInt(m[2]!) * 1_000_000_000n + BigInt(m[3]!.padEnd(9, "0"));
      const prev = last.get(m[1]!);
      if (prev && prev.tid !== 0) want.set(prev.tid, (want.get(prev.tid) ?? 0n) + ts - prev.ts);
      last.set(m[1]!, { tid: Number(m[4]), ts });
    }
    const got = new Map<number, bigint>();
    for (const s of rows(r.tables.thread_states))
      if (s.state === "running" && s.dur !== null)
        got.set(s.tid as number, (got.get(s.tid as number) ?? 0n) + (s.dur as bigint));
    expect(got).toEqual(want);
    // Each thread's rows follow one another without gaps.
    const byTid = new Map<number, Record<string, unknown>[]>();
    for (const s of rows(r.tables.thread_states))
      byTid.set(s.tid as number, [...(byTid.get(s.tid as number) ?? []), s]);
    for (const list of byTid.values())
      for (let i = 1; i < list.length; i++)
        expect((list[i - 1]!.ts as bigint) + (list[i - 1]!.dur as bigint)).toBe(list[i]!.ts);
  });

  it("Perfetto's sched_blocked_systrace: D states where trace_processor puts them (its diff test), with the caller", () => {
    const r = importSystrace(bytes("perfetto_sched_blocked.systrace"), "s.systrace", "r");
    const d = rows(r.tables.thread_states).filter((s) => s.state === "uninterruptible");
    // test/trace_processor/diff_tests/parser/parsing/tests.py, test_sched_blocked_systrace_sched_blocked_reason.
    expect(d.map((s) => [s.ts, s.tid])).toEqual([
      [20258854000n, 269],
      [21123838000n, 2172],
    ]);
    expect(d.map((s) => s.blocked_function)).toEqual([
      "worker_thread+0x534/0x820",
      "__filemap_fdatawait_range+0x134/0x150",
    ]);
  });
});

describe("importSystrace: bad input", () => {
  it("Perfetto's bad_print: continuation lines named by line number, the marker slice kept, marked partial", () => {
    const r = importSystrace(bytes("perfetto_bad_print.systrace"), "bad.systrace", "r");
    expect(r.complete).toBe(false);
    expect(r.warnings[0]).toMatch(
      /bad\.systrace: 2 line\(s\) could not be read; first: bad\.systrace line 2: /,
    );
    expect(rows(r.tables.slices).map((s) => [s.ts, s.dur, s.tid, s.pid, s.name, s.thread_name])).toEqual([
      [10852771242000n, 3000n, 598, 598, "some event", "surfaceflinger"],
    ]);
  });

  it("a malformed marker and an unmatched end are reported, the rest kept", () => {
    const t = [
      "# tracer: nop",
      "  app-10 (10) [000] ...1 1.000000: tracing_mark_write: B|10|a",
      "  app-10 (10) [000] ...1 1.000001: tracing_mark_write: C|10|n|notanumber",
      "  app-10 (10) [000] ...1 1.000002: tracing_mark_write: E|10",
      "  app-10 (10) [000] ...1 1.000003: tracing_mark_write: E|10",
    ].join("\n");
    const r = importSystrace(new TextEncoder().encode(t), "m.txt", "r");
    expect(rows(r.tables.slices).map((s) => [s.name, s.dur])).toEqual([["a", 2000n]]);
    expect(r.warnings.join("\n")).toMatch(/m\.txt line 3: C needs pid, name and a numeric value/);
    expect(r.warnings.join("\n")).toMatch(/1 end marker\(s\) \(E, F, H\) without a matching begin/);
    expect(r.complete).toBe(false);
  });

  it("detects every flavour and nothing else", () => {
    for (const f of [
      "catapult_atrace_data.txt",
      "catapult_compressed_atrace_data.ctrace",
      "catapult_decompressed_atrace_data.txt",
      "catapult_android_systrace_js-escaped.txt",
      "third_party/catapult_counter_tracks.html",
      "third_party/catapult_trivial_systrace.html",
      "perfetto_bad_print.systrace",
      "perfetto_sched_blocked.systrace",
    ])
      expect(detectSystrace(bytes(f)), f).toBe(true);
    for (const f of [
      "test/fixtures/logcat/loghub_Android_2k_threadtime.log",
      "test/fixtures/gfxinfo/droid-monitor_api28_chrome_gfxinfo.txt",
      "test/fixtures/dmtrace/aosp-perflib_basic.trace",
      "test/fixtures/simpleperf/aosp-simpleperf-doc_stat_default_events.txt",
    ])
      expect(detectSystrace(new Uint8Array(readFileSync(f))), f).toBe(false);
    expect(detectSystrace(new TextEncoder().encode("<!DOCTYPE html><html>hello</html>"))).toBe(false);
  });
});

describe("UTF-16 systrace", () => {
  /** The UTF-8 fixture re-encoded as UTF-16LE or BE, with or without a byte order mark. */
  function utf16(t: string, be: boolean, bom: boolean): Uint8Array {
    const out = new Uint8Array((t.length + (bom ? 1 : 0)) * 2);
    const put = (i: number, c: number) => {
      out[2 * i + (be ? 1 : 0)] = c & 0xff;
      out[2 * i + (be ? 0 : 1)] = c >> 8;
    };
    if (bom) put(0, 0xfeff);
    for (let i = 0; i < t.length; i++) put(i + (bom ? 1 : 0), t.charCodeAt(i));
    return out;
  }

  it("is detected and read as the same slices as its UTF-8 text, with a warning naming the encoding", () => {
    const f = "catapult_decompressed_atrace_data.txt";
    const plain = importSystrace(bytes(f), f, "r");
    for (const [be, bom] of [
      [false, true],
      [true, true],
      [false, false],
    ] as const) {
      const b = utf16(text(f), be, bom);
      expect(detectSystrace(b), `be ${be} bom ${bom}`).toBe(true);
      const r = importSystrace(b, f, "r");
      expect(slicesOf(r.tables.slices)).toEqual(slicesOf(plain.tables.slices));
      expect(r.warnings[0]).toBe(
        `${f}: read as ${be ? "UTF-16BE" : "UTF-16LE"} (${bom ? "byte order mark" : "zero bytes between characters"})`,
      );
    }
  });
});
