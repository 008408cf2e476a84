// Run in a child process by parse-linear-time.test.ts (so a quadratic parser can be killed by a hard timeout):
// times parseFramestats and parseGfxinfo on inputs holding one long token of n and of 4n characters, in every
// place a line can hold one, and prints the medians as JSON.
import { parseFramestats } from "../../../collectors/sources/framestats";
import { parseGfxinfo } from "../../../collectors/sources/gfxinfo";

const HEADER = "Flags,IntendedVsync,Vsync,FrameCompleted,";

/** Inputs whose one long line is `token` (n characters of a/a/a/... or digits), in each place the parsers look. */
function inputs(n: number): string[] {
  const slashes = "a/".repeat(n >> 1);
  const digits = "1".repeat(n);
  return [
    `Profile data in ms:\n\t${slashes}\n`, // a window line
    `Profile data in ms:\n\t${slashes} (visibility=x\n`, // almost a window line
    `Profile data in ms:\n\t${slashes}/ (visibility=0)\n`,
    `---PROFILEDATA---\n${HEADER}\n0,${slashes},1,2,\n---PROFILEDATA---\n`, // a row field
    `---PROFILEDATA---\n${HEADER}\n0,${digits},1,2,\n---PROFILEDATA---\n`, // an overlong number
    `---PROFILEDATA---\n${slashes},IntendedVsync\n---PROFILEDATA---\n`, // a header
    `** Graphics info for pid 1 [${slashes}] **\nStats since: ${digits}ns\nJanky frames: ${digits} (${digits}%)\n`,
    `Stats since: 1ns\nHISTOGRAM: ${"5ms=1 ".repeat(n / 6)}\nNumber ${slashes}: 1\n`,
    `Profile data in ms:\n\tp/A\n\tDraw\tPrepare\tProcess\tExecute\n${"\t1.0".repeat(n / 4)}\n`,
    `Total frames rendered: 1\n50th percentile: ${digits}ms\nJanky frames: 1 (${"1,".repeat(n >> 1)}%)\n`,
  ];
}

function time(texts: string[]): number {
  const runs: number[] = [];
  for (let k = 0; k < 5; k++) {
    const t0 = performance.now();
    for (const t of texts) {
      parseFramestats(t, "f");
      parseGfxinfo(t, "g");
    }
    runs.push(performance.now() - t0);
  }
  return runs.sort((a, b) => a - b)[2]!;
}

const n = Number(process.argv[2] ?? 75_000);
time(inputs(n / 10)); // warm up the JIT
process.stdout.write(JSON.stringify({ n, t1: time(inputs(n)), t4: time(inputs(4 * n)) }) + "\n");
