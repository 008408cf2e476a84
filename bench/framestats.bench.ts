// framestats and gfxinfo import, in-process: a 1 MB dump of many windows (built from the hand-written Android 14
// fixture, each copy a new window with shifted times) and one line holding a 300 KB token (it once stalled
// the old parser for minutes). Whole-process import timings are the CLI's bench.
import { readFileSync } from "node:fs";
import { importFramestats } from "../collectors/import/framestats";
import { parseFramestats } from "../collectors/sources/framestats";
import { timeMs, type Benchmark } from "./harness";

const FIXTURE = readFileSync(
  new URL("../test/fixtures/gfxinfo/jankbook_android14_two-windows_framestats.txt", import.meta.url),
  "utf8",
);

/** About `bytes` of one process's dump: the fixture's sections again and again, each a new window, 1 s later. */
export function bigDump(bytes: number): string {
  const head = FIXTURE.slice(0, FIXTURE.indexOf("\tcom.example.feed/"));
  const body = FIXTURE.slice(head.length, FIXTURE.indexOf("View hierarchy:"));
  const parts = [head];
  let size = head.length;
  for (let k = 0; size < bytes; k++) {
    const shifted = body
      .replaceAll("ViewRootImpl@", `ViewRootImpl@${k}x`)
      .replaceAll("PopupWindow:1a2b3c", `PopupWindow:${k}`)
      .replace(/\b(258\d{11})\b/g, (m) => String(BigInt(m) + BigInt(k) * 1_000_000_000n));
    parts.push(shifted);
    size += shifted.length;
  }
  parts.push("View hierarchy:\n\nTotal ViewRootImpl: 0\n");
  return parts.join("");
}

let big = "";
const longLine = `Profile data in ms:\n\t${"a/".repeat(150_000)}\n---PROFILEDATA---\nFlags,IntendedVsync,FrameCompleted,\n0,${"a/".repeat(150_000)},1,\n---PROFILEDATA---\n`;

export const benchmarks: Benchmark[] = [
  {
    name: "framestats/import 1 MB dump (frames + summaries, in-process)",
    unit: "ms",
    budget: 1000,
    setup() {
      big = bigDump(1_000_000);
    },
    measure: () => timeMs(() => importFramestats(big, "big.txt", "bench")),
  },
  {
    name: "framestats/parse a 300 KB token line",
    unit: "ms",
    budget: 100,
    measure: () => timeMs(() => parseFramestats(longLine, "long.txt")),
  },
];
