// parseMeminfo on `dumpsys meminfo <pkg>` as each Android release prints it (AOSP ActivityThread
// dumpMemInfoTable): a real excerpt from Perfetto's documentation, and one dump per layout written out in
// the test with its figures read off by hand; bad and cut input; a property test that whatever is fed in
// ends in a result, and that figures written in any of the layouts come back.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseMeminfo } from "../../../collectors/sources/meminfo";
import { formatMeminfo, type SimMemory } from "../../../collectors/simulator/meminfo-model";

const FIXTURES = join(import.meta.dirname, "../../fixtures/meminfo");
const KB = 1024;
const kb = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v * KB]));
const values = (text: string) => Object.fromEntries(parseMeminfo(text).samples[0]!.values);

// Android 6.0: "Swapped Dirty", no Rss, App Summary ends "TOTAL: ... TOTAL SWAP (KB):".
const ANDROID_6 = `Applications Memory Usage (in Kilobytes):
Uptime: 86412345 Realtime: 99412345

** MEMINFO in pid 3021 [com.example.feed] **
                   Pss  Private  Private  Swapped     Heap     Heap     Heap
                 Total    Dirty    Clean    Dirty     Size    Alloc     Free
                ------   ------   ------   ------   ------   ------   ------
  Native Heap     9120     9076        0        0    16384    11021     5362
  Dalvik Heap    21034    20980        0        0    41012    35522     5490
 Dalvik Other     2210     2210        0        0
        Stack      612      612        0        0
      Unknown      380      380        0        0
        TOTAL    48213    41003     3120        0    57396    46543    10852
 
 App Summary
                       Pss(KB)
                        ------
           Java Heap:    22104
         Native Heap:     9076
                Code:     4310
               Stack:      612
            Graphics:     3411
       Private Other:     4610
              System:     4090
 
               TOTAL:    48213      TOTAL SWAP (KB):        0
 
 Objects
               Views:       88         ViewRootImpl:        1
`;

// Android 9: "SwapPss Dirty", App Summary "TOTAL: ... TOTAL SWAP PSS:".
const ANDROID_9 = ANDROID_6.replace("Swapped", "SwapPss").replace(
  "TOTAL SWAP (KB):        0",
  "TOTAL SWAP PSS:       17",
);

// Android 14, `dumpsys meminfo -a`: eleven columns; the heap columns are found by name, not position.
const ANDROID_14_ALL = `Applications Memory Usage (in Kilobytes):
Uptime: 5100200 Realtime: 5100200

** MEMINFO in pid 8812 [org.example.maps] **
                   Pss      Pss   Shared  Private   Shared  Private     Swap      Rss     Heap     Heap     Heap
                 Total    Clean    Dirty    Dirty    Clean    Clean    Dirty    Total     Size    Alloc     Free
                ------   ------   ------   ------   ------   ------   ------   ------   ------   ------   ------
  Native Heap    30112        0     1840    30044        0        0        0    31884    49152    33210    12004
  Dalvik Heap     8840        0     3016     8612        0        0        0    11628    24576     9044    15532
 Dalvik Other     3150        0      900     3100        0        0        0     4050
      Gfx dev     7200        0        0     7200        0        0        0     7200
        TOTAL    95210     4100    12044    70112    24010     1200        0   131366    73728    42254    27536
 
 App Summary
                       Pss(KB)                        Rss(KB)
                        ------                         ------
           Java Heap:    11628                          23040
         Native Heap:    30044                          31884
                Code:    15200                          60210
               Stack:      904                            912
            Graphics:    13300                          13300
       Private Other:     4036
              System:    20098
             Unknown:                                    2020
 
           TOTAL PSS:    95210            TOTAL RSS:   131366       TOTAL SWAP PSS:        0
`;

describe("parseMeminfo: each layout, figures read off by hand", () => {
  it("Perfetto's documentation excerpt (Android 10+ layout, cut after two rows): the heaps are read, the cut is said", () => {
    const text = readFileSync(join(FIXTURES, "perfetto-docs_systemui_excerpt.txt"), "utf8");
    const r = parseMeminfo(text, "perfetto-docs_systemui_excerpt.txt");
    expect(r.failure).toBeNull();
    expect(r.samples.length).toBe(1);
    const s = r.samples[0]!;
    expect([s.pid, s.process, s.uptime_ns, s.line]).toEqual([
      1974,
      "com.android.systemui",
      2_030_149_000_000n,
      5,
    ]);
    expect(Object.fromEntries(s.values)).toEqual(
      kb({ native_heap_size: 34024, native_heap_alloc: 25037, java_heap_size: 36444, java_heap_alloc: 9111 }),
    );
    expect(r.warnings).toEqual([
      "perfetto-docs_systemui_excerpt.txt line 5: pid 1974 has no TOTAL (the dump is cut short?); kept 4 figures",
    ]);
  });

  it("real dumps from Android 4.3, 4.4 and 6.0 (droid-monitor's tests): the heaps, totals and summary", () => {
    const read = (api: number) => {
      const file = `droid-monitor_api${api}_meminfo.txt`;
      const r = parseMeminfo(readFileSync(join(FIXTURES, file), "utf8"), file);
      expect(r.warnings).toEqual([]);
      expect(r.samples.length).toBe(1);
      return r.samples[0]!;
    };
    const api18 = read(18);
    expect([api18.pid, api18.process, api18.uptime_ns]).toEqual([
      29607,
      "com.sample.package",
      69_627_589_000_000n,
    ]);
    // "Native 24 8 24 11296 7927 408" under "Pss, Shared Dirty, Private Dirty, Heap Size, Heap Alloc, Heap Free"
    expect(Object.fromEntries(api18.values)).toEqual(
      kb({
        native_heap_size: 11296,
        native_heap_alloc: 7927,
        java_heap_size: 13388,
        java_heap_alloc: 7454,
        pss_total: 28929,
      }),
    );
    const api19 = read(19);
    expect(api19.uptime_ns).toBe(76_485_937_000_000n);
    expect(Object.fromEntries(api19.values)).toEqual(
      kb({
        native_heap_size: 8948,
        native_heap_alloc: 8520,
        java_heap_size: 31772,
        java_heap_alloc: 29998,
        pss_total: 44563,
      }),
    );
    const api23 = read(23);
    expect([api23.pid, api23.uptime_ns]).toEqual([22861, 166_891_747_000_000n]);
    expect(Object.fromEntries(api23.values)).toEqual(
      kb({
        native_heap_size: 60416,
        native_heap_alloc: 56957,
        java_heap_size: 34525,
        java_heap_alloc: 31331,
        pss_total: 145991,
        java_heap: 17976,
        native_heap: 24240,
        code: 33748,
        stack: 1316,
        graphics: 40829,
        private_other: 17932,
        system: 9950,
        swap_total: 22236,
      }),
    );
  });

  it("Android 6.0", () => {
    const r = parseMeminfo(ANDROID_6);
    expect(r.warnings).toEqual([]);
    expect(r.samples[0]!.uptime_ns).toBe(86_412_345_000_000n);
    expect(values(ANDROID_6)).toEqual(
      kb({
        native_heap_size: 16384,
        native_heap_alloc: 11021,
        java_heap_size: 41012,
        java_heap_alloc: 35522,
        pss_total: 48213,
        java_heap: 22104,
        native_heap: 9076,
        code: 4310,
        stack: 612,
        graphics: 3411,
        private_other: 4610,
        system: 4090,
        swap_total: 0,
      }),
    );
  });

  it("Android 9: the same figures, swap PSS from its own label", () => {
    expect(values(ANDROID_9)).toEqual({ ...values(ANDROID_6), swap_total: 17 * KB });
  });

  it("Android 14 -a: eleven columns, an Rss column in the summary, Unknown only in Rss", () => {
    expect(values(ANDROID_14_ALL)).toEqual(
      kb({
        native_heap_size: 49152,
        native_heap_alloc: 33210,
        java_heap_size: 24576,
        java_heap_alloc: 9044,
        pss_total: 95210,
        rss_total: 131366,
        java_heap: 11628,
        java_heap_rss: 23040,
        native_heap: 30044,
        native_heap_rss: 31884,
        code: 15200,
        code_rss: 60210,
        stack: 904,
        stack_rss: 912,
        graphics: 13300,
        graphics_rss: 13300,
        private_other: 4036,
        system: 20098,
        unknown_rss: 2020,
        swap_total: 0,
      }),
    );
  });

  it("CRLF line ends and a byte-order mark read the same", () => {
    const crlf = "\uFEFF" + ANDROID_14_ALL.replace(/\n/g, "\r\n");
    expect(values(crlf)).toEqual(values(ANDROID_14_ALL));
  });
});

describe("parseMeminfo: failures and bad input", () => {
  it('"No process found for": the dump failed, no sample', () => {
    const r = parseMeminfo("No process found for: com.example.gone\n", "meminfo sample 3");
    expect(r).toEqual({
      samples: [],
      warnings: [],
      failure: "meminfo sample 3 line 1: No process found for: com.example.gone",
    });
  });

  it("a row that does not fit its table is named by line; the rest is kept", () => {
    const bad = ANDROID_6.replace("  Dalvik Heap    21034    20980", "  Dalvik Heap    21034    2O980");
    const r = parseMeminfo(bad, "m.txt");
    expect(r.warnings).toEqual(['m.txt line 9: row "Dalvik Heap" does not fit the table\'s 7 columns']);
    expect(r.samples[0]!.values.get("java_heap_alloc")).toBeUndefined();
    expect(r.samples[0]!.values.get("native_heap_alloc")).toBe(11021 * KB);
    expect(r.samples[0]!.values.get("pss_total")).toBe(48213 * KB);
  });

  it("a summary figure that is not a number is named by line; the figures before it are kept", () => {
    const bad = ANDROID_14_ALL.replace(
      "Java Heap:    11628                          23040",
      "Java Heap:    11628                          23O40",
    );
    const r = parseMeminfo(bad, "m.txt");
    expect(r.warnings).toEqual(['m.txt line 17: Java Heap is not a number ("23O40")']);
    expect(r.samples[0]!.values.get("java_heap")).toBe(11628 * KB);
    expect(r.samples[0]!.values.get("java_heap_rss")).toBeUndefined();
    expect(r.samples[0]!.values.get("native_heap_rss")).toBe(31884 * KB);
  });

  it("cut inside the summary: what was read is kept, the missing TOTAL said", () => {
    const cut = ANDROID_6.slice(0, ANDROID_6.indexOf("                Code:"));
    const r = parseMeminfo(cut, "cut.txt");
    // the table's TOTAL row was read before the cut, so the sample has its PSS total
    expect(r.samples[0]!.values.get("pss_total")).toBe(48213 * KB);
    expect(r.samples[0]!.values.get("native_heap")).toBe(9076 * KB);
    expect(r.samples[0]!.values.has("code")).toBe(false);
    const early = parseMeminfo(ANDROID_6.slice(0, ANDROID_6.indexOf(" Dalvik Other")), "early.txt");
    expect(early.warnings).toEqual([
      "early.txt line 4: pid 3021 has no TOTAL (the dump is cut short?); kept 4 figures",
    ]);
  });

  it("cut inside a figure (no newline at the end): the short number is not read, the cut is said", () => {
    const file = "droid-monitor_api23_meminfo.txt";
    const text = readFileSync(join(FIXTURES, file), "utf8");
    // line 24 reads "        TOTAL   145991   101701 ...": cut after "1459", the PSS total would read 1,459 KB
    const cut = text.slice(0, text.indexOf("TOTAL") + "TOTAL   1459".length);
    const r = parseMeminfo(cut, file);
    expect(r.samples[0]!.values.has("pss_total")).toBe(false);
    expect(r.samples[0]!.values.get("native_heap_size")).toBe(
      parseMeminfo(text).samples[0]!.values.get("native_heap_size"),
    );
    expect(r.warnings[0]).toBe(
      `${file} line 24: no newline at the end: the dump is cut inside this line; its figures are left out`,
    );
    // the whole line without its newline is left out too: nothing says its last figure is whole
    expect(parseMeminfo(text.slice(0, -1), file).warnings).toHaveLength(1);
  });

  it("not meminfo at all: says what was expected", () => {
    expect(parseMeminfo("Current Battery Service state:\n  level: 58\n", "x")).toEqual({
      samples: [],
      warnings: ['x: no "** MEMINFO in pid" section (not dumpsys meminfo <package> output?)'],
      failure: null,
    });
  });

  it("any text ends in a result, never a throw", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.nat(ANDROID_14_ALL.length), (junk, at) => {
        const text = ANDROID_14_ALL.slice(0, at) + junk + ANDROID_14_ALL.slice(at);
        const r = parseMeminfo(text);
        for (const s of r.samples)
          for (const v of s.values.values()) expect(Number.isSafeInteger(v)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("one very long line is read in linear time (a quadratic reading of it would take minutes)", () => {
    const n = 200_000;
    const t0 = performance.now();
    const r = parseMeminfo(`** MEMINFO in pid 1 [a.b] **\nTOTAL ${"A ".repeat(n)}:${" 1".repeat(n)}\n`);
    // ~n² = 4e10 steps for a backtracking pattern; a linear reading takes milliseconds, so 10 s is a
    // bound no load on a shared machine reaches (speed itself is measured in benchmarks, not here)
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect(r.samples.map((s) => [s.pid, s.process, Object.keys(s.values).length])).toEqual([[1, "a.b", 0]]);
  });
});

describe("parseMeminfo: figures written in every layout come back", () => {
  it("Android 6, 9 and 10+ layouts (the simulated phone's writer) round-trip any figures", () => {
    const figure = fc.integer({ min: 0, max: 9_999_999 });
    fc.assert(
      fc.property(
        fc
          .record({
            javaHeapAlloc: figure,
            javaHeapPss: figure,
            nativeHeapAlloc: figure,
            nativeHeapPss: figure,
            code: figure,
            stack: figure,
            graphics: figure,
            privateOther: figure,
            system: figure,
            spare: fc.tuple(figure, figure, fc.integer({ min: 2000, max: 9_999_999 })),
          })
          // as a phone prints them: sizes at least their allocations, totals at least their parts
          .map(({ spare: [a, b, c], ...m }): SimMemory => {
            const pssTotal =
              m.javaHeapPss + m.nativeHeapPss + m.code + m.stack + m.graphics + m.privateOther + m.system + c;
            return {
              ...m,
              javaHeapSize: m.javaHeapAlloc + a,
              nativeHeapSize: m.nativeHeapAlloc + b,
              pssTotal,
              rssTotal: pssTotal + a,
            };
          }),
        fc.constantFrom(23, 28, 31, 34),
        fc.integer({ min: 0, max: 2 ** 40 }),
        (m: SimMemory, api, uptime) => {
          const r = parseMeminfo(formatMeminfo(m, api, 77, "a.b", uptime));
          expect(r.warnings).toEqual([]);
          const v = r.samples[0]!.values;
          expect(r.samples[0]!.uptime_ns).toBe(BigInt(uptime) * 1_000_000n);
          expect([
            v.get("java_heap_alloc"),
            v.get("native_heap_size"),
            v.get("java_heap"),
            v.get("graphics"),
            v.get("pss_total"),
            v.get("rss_total"),
          ]).toEqual([
            m.javaHeapAlloc * KB,
            m.nativeHeapSize * KB,
            m.javaHeapPss * KB,
            m.graphics * KB,
            m.pssTotal * KB,
            api >= 29 ? m.rssTotal * KB : undefined,
          ]);
        },
      ),
      { numRuns: 200 },
    );
  });
});
