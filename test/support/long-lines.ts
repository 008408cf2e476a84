// Inputs holding one very long line, in every place a text parser looks: the hostile shapes that once made
// parsers take minutes (a 300 KB `a/a/...` token, runs of spaces, colons or parentheses after a log header).
// test/collectors/sources/parse-linear-time.test.ts reads them at a size no quadratic parser can finish;
// bench/linear-time.bench.ts times them at n and 4n (docs/testing.md: speed goes in benchmarks).
import fc from "fast-check";
import { importSimpleperfStat } from "../../collectors/import/simpleperf";
import { parseBattery, parseGetprop, parseWmSize } from "../../collectors/sources/device-props";
import { parseFramestats } from "../../collectors/sources/framestats";
import { parseGfxinfo } from "../../collectors/sources/gfxinfo";
import { parseLogcat } from "../../collectors/sources/logcat";
import { parseMeminfo } from "../../collectors/sources/meminfo";

/** One parse of `make(n)`: returns a small summary of what was read, so that the result is checked, not only the end. */
export interface LongLineCase {
  name: string;
  run(n: number): unknown;
}

const logcatCase = (name: string, make: (n: number) => string): LongLineCase => ({
  name: `logcat: ${name}`,
  run: (n) => {
    const r = parseLogcat(make(n));
    // one line of text: it is either a record or counted as not a log line
    return { read: r.lines.length + r.unread, cut: r.cut?.lineNo ?? null };
  },
});

const LOGCAT: [string, (n: number) => string][] = [
  ["spaces after a threadtime header", (n) => `03-17 16:13:38.811  1  2 I ${" ".repeat(n)}x`],
  ["colons without spaces", (n) => `03-17 16:13:38.811  1  2 I ${"a:".repeat(n / 2)}`],
  ["brief with parentheses", (n) => `I/${"(".repeat(n)}`],
  ["brief with ')' and ':'", (n) => `I/${"(1):".repeat(n / 4)}`],
  ["digits", (n) => "1".repeat(n)],
  ["monotonic digits", (n) => ` ${"1".repeat(n)}.123 1 2 I t: m`],
  ["process parentheses", (n) => `I( 1) ${"  (".repeat(n / 3)}`],
  ["studio tokens", (n) => `2024-03-17 16:13:38.811  1-2  ${"a ".repeat(n / 2)}`],
  ["long header", (n) => `[ 03-17 16:13:38.811 ${"1 ".repeat(n / 2)}]`],
];

const HEADER = "Flags,IntendedVsync,Vsync,FrameCompleted,";

/** framestats and gfxinfo text whose one long line is n characters of a/a/a/... or digits, in each place the parsers look. */
function framestatsInputs(n: number): [string, string][] {
  const slashes = "a/".repeat(n >> 1);
  const digits = "1".repeat(n);
  return [
    ["a window line", `Profile data in ms:\n\t${slashes}\n`],
    ["almost a window line", `Profile data in ms:\n\t${slashes} (visibility=x\n`],
    ["a window line with visibility", `Profile data in ms:\n\t${slashes}/ (visibility=0)\n`],
    ["a row field", `---PROFILEDATA---\n${HEADER}\n0,${slashes},1,2,\n---PROFILEDATA---\n`],
    ["an overlong number", `---PROFILEDATA---\n${HEADER}\n0,${digits},1,2,\n---PROFILEDATA---\n`],
    ["a header", `---PROFILEDATA---\n${slashes},IntendedVsync\n---PROFILEDATA---\n`],
    [
      "a gfxinfo process line",
      `** Graphics info for pid 1 [${slashes}] **\nStats since: ${digits}ns\nJanky frames: ${digits} (${digits}%)\n`,
    ],
    ["a histogram", `Stats since: 1ns\nHISTOGRAM: ${"5ms=1 ".repeat(n / 6)}\nNumber ${slashes}: 1\n`],
    [
      "profile columns",
      `Profile data in ms:\n\tp/A\n\tDraw\tPrepare\tProcess\tExecute\n${"\t1.0".repeat(n / 4)}\n`,
    ],
    [
      "percentiles",
      `Total frames rendered: 1\n50th percentile: ${digits}ms\nJanky frames: 1 (${"1,".repeat(n >> 1)}%)\n`,
    ],
  ];
}

/** Each parser on each hostile line; `n` is the long line's length in characters. */
export function longLineCases(): LongLineCase[] {
  const framestats = framestatsInputs(8).map(([name], k): LongLineCase => ({
    name: `framestats and gfxinfo: ${name}`,
    run: (n) => {
      const text = framestatsInputs(n)[k]![1];
      const f = parseFramestats(text, "f");
      const g = parseGfxinfo(text, "g");
      return { sections: f.sections.length, warnings: f.warnings.length > 0, processes: g.processes.length };
    },
  }));
  return [
    ...LOGCAT.map(([name, make]) => logcatCase(name, make)),
    ...logcatProperty(25),
    ...framestats,
    {
      name: "meminfo: a TOTAL line of n/2 labels and figures",
      run: (n) => {
        const r = parseMeminfo(
          `** MEMINFO in pid 1 [a.b] **\nTOTAL ${"A ".repeat(n >> 2)}:${" 1".repeat(n >> 2)}\n`,
        );
        return r.samples.map((s) => [s.pid, s.process, Object.keys(s.values).length]);
      },
    },
    {
      name: "getprop, wm size and battery: long values",
      run: (n) => ({
        getprop: Object.keys(parseGetprop(`[a]: [${"x".repeat(n)}]\n[${"]".repeat(n)}\n`).props).length,
        wm: parseWmSize(`Physical size: ${"1".repeat(n)}`),
        battery: Object.keys(parseBattery(`  ${"a ".repeat(n >> 1)}`).fields).length,
      }),
    },
    {
      name: "simpleperf stat: a long comment and a long row",
      run: (n) => {
        const text = `Performance counter statistics:\n\n  1,234  cpu-cycles   # ${"a/".repeat(n >> 3)}\n${"  9  x ".repeat(n >> 3)}\n`;
        return importSimpleperfStat(text, "x.txt", "r").complete;
      },
    },
  ];
}

/** Any short unit repeated after any logcat header (fixed seed: the same lines in the test and the bench). */
function logcatProperty(count: number): LongLineCase[] {
  const header = fc.constantFrom(
    "",
    "03-17 16:13:38.811  1  2 I ",
    "03-17 16:13:38.811  1  2 I tag: ",
    "I/",
    "I( 1) ",
    "2024-03-17 16:13:38.811  1-2  ",
    "[ 03-17 16:13:38.811 ",
    "  5287.811  1  2 W ",
  );
  const unit = fc.string({
    minLength: 1,
    maxLength: 4,
    unit: fc.constantFrom(" ", ":", "(", ")", "1", "a", "/", "-", "[", "]", "."),
  });
  return fc
    .sample(fc.tuple(header, unit), { numRuns: count, seed: 15 })
    .map(([h, u]) =>
      logcatCase(
        `${JSON.stringify(h)} then ${JSON.stringify(u)} repeated`,
        (n) => h + u.repeat(Math.ceil(n / u.length)),
      ),
    );
}
