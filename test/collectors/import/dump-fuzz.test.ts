// Fuzz (fast-check, bounded runs) of the framestats and gfxinfo importers on real and hand-written dumps: random
// cuts, character flips and inserted lines. Every input ends in a result whose warnings name the file; a cut that
// loses any of the dump never reads as complete; no frame with an impossible duration goes unflagged.
import { readFileSync } from "node:fs";
import type { Table } from "apache-arrow";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectFramestats, importFramestats, type TextImport } from "../../../collectors/import/framestats";
import { detectGfxinfo, importGfxinfo } from "../../../collectors/import/gfxinfo";
import { farTimestamps, MAX_PLAUSIBLE_FRAME_NS } from "../../../collectors/sources/framestats";

const FILES = [
  "jankbook_android14_two-windows_framestats.txt",
  "droid-monitor_api28_chrome_gfxinfo.txt",
  "droid-monitor_api24_settings_gfxinfo.txt",
  "droid-monitor_api23_chrome_gfxinfo.txt",
].map((f) => readFileSync(`test/fixtures/gfxinfo/${f}`, "utf8"));
const NAME = "fuzz.txt";

/** What `jankbook import` does with a text: the first importer that recognises it, or null (refused). */
function importText(text: string): TextImport | null {
  if (detectFramestats(text)) return importFramestats(text, NAME, "run");
  if (detectGfxinfo(text)) return importGfxinfo(text, NAME, "run");
  return null;
}

function checkResult(r: TextImport | null) {
  if (!r) return;
  for (const w of r.warnings) expect(w.includes(NAME), w).toBe(true);
  const f: Table | undefined = r.tables.frames;
  if (!f) return;
  const dur = f.getChild("duration")!.toArray() as BigInt64Array;
  const iv = f.getChild("intended_vsync")!.toArray() as BigInt64Array;
  const suspect = f.getChild("suspect")!;
  const far = r.warnings.find((w) => w.includes("from their frame's IntendedVsync")) ?? "";
  for (let i = 0; i < f.numRows; i++) {
    const impossible = dur[i]! < 0n || dur[i]! > MAX_PLAUSIBLE_FRAME_NS || iv[i]! <= 0n;
    if (impossible) expect(suspect.get(i), `row ${i}: duration ${dur[i]}`).not.toBeNull();
    if (suspect.get(i) !== null) continue;
    // any other timestamp far from the frame is named (column and count) in the warnings
    const row = f.get(i)!.toJSON() as Record<string, unknown>;
    const values = Object.fromEntries(
      Object.entries(row).filter((e): e is [string, bigint] => typeof e[1] === "bigint"),
    );
    for (const c of farTimestamps(values).filter((c) => !["duration", "deadline"].includes(c)))
      expect(far, `row ${i}: ${c} ${values[c]}`).toContain(`${c} in `);
  }
}

/** Where the dump's last "Total ViewRootImpl" line ends: cutting before it loses part of the dump. */
const wholeUntil = (text: string) => text.indexOf("\n", text.lastIndexOf("Total ViewRootImpl"));

const TRICKY = [
  "---PROFILEDATA---",
  "Flags,IntendedVsync,Vsync,FrameCompleted,",
  "0,-5,1,99999999999999999999999,",
  "0,100,100,50,",
  "\tx/y/android.view.ViewRootImpl@1 (visibility=0)",
  "Applications Graphics Acceleration Info:",
  "** Graphics info for pid 7 [a.b] **",
  "Stats since: 12ns",
  "Janky frames: 9 (nan%)",
  "HISTOGRAM: 5ms=x",
  "Window: w",
  "Failure while dumping the app: ProcessRecord{1}",
  "",
];

describe("framestats and gfxinfo importers under fuzz", () => {
  it("a cut anywhere: a result or a refusal, never complete when part of the dump is lost", () => {
    fc.assert(
      fc.property(fc.constantFrom(...FILES), fc.double({ min: 0, max: 1, noNaN: true }), (text, at) => {
        const cut = Math.floor(at * text.length);
        const r = importText(text.slice(0, cut));
        checkResult(r);
        if (cut < wholeUntil(text) && r) expect(r.complete, `cut at ${cut} of ${text.length}`).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  it("a cut inside a line, even past the totals the tables hold, is never complete", () => {
    // found by the fuzz bench: api23 cut inside "Total DisplayList:  31.36 kB", its last line, read as complete
    const api23 = FILES[3]!;
    const r = importText(api23.slice(0, api23.length - 5))!;
    expect(r.complete).toBe(false);
    expect(r.warnings).toContain(
      `${NAME} line ${api23.split("\n").length - 1}: no newline at the end: the file was cut inside this line`,
    );
    // and the Android 14 framestats dump cut inside its "Total RenderNode ... (used)" line
    const fs14 = FILES[0]!;
    const r14 = importText(fs14.slice(0, 4851))!;
    expect(r14.complete).toBe(false);
    expect(r14.tables.frames!.numRows).toBe(importText(fs14)!.tables.frames!.numRows); // every frame kept
    fc.assert(
      fc.property(fc.constantFrom(...FILES), fc.double({ min: 0, max: 1, noNaN: true }), (text, at) => {
        const cut = Math.floor(at * text.length);
        const end = text.indexOf("\n", cut);
        const rest = text.slice(cut, end < 0 ? undefined : end);
        const r = importText(text.slice(0, cut));
        if (r && cut > 0 && text[cut - 1] !== "\n" && rest.trim() !== "")
          expect(r.complete, `cut at ${cut} of ${text.length}`).toBe(false);
      }),
      { numRuns: 400, seed: 15 },
    );
  });

  it("characters flipped: a result whose impossible frames are flagged", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FILES),
        fc.array(
          fc.tuple(
            fc.double({ min: 0, max: 1, noNaN: true }),
            fc.constantFrom(..."0123456789-,\n \t/ax\u0000"),
          ),
          { minLength: 1, maxLength: 8 },
        ),
        (text, flips) => {
          const chars = [...text];
          for (const [at, c] of flips) chars[Math.floor(at * (chars.length - 1))] = c;
          checkResult(importText(chars.join("")));
        },
      ),
      { numRuns: 400 },
    );
  });

  it("lines inserted: a result whose impossible frames are flagged", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FILES),
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(...TRICKY)), {
          minLength: 1,
          maxLength: 6,
        }),
        (text, inserts) => {
          const lines = text.split("\n");
          for (const [at, line] of inserts) lines.splice(Math.floor(at * lines.length), 0, line);
          checkResult(importText(lines.join("\n")));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("an overflowing or negative frame inserted into a real section is kept, flagged, never wrapped", () => {
    const text = FILES[0]!;
    const row = text.split("\n").find((l) => l.startsWith("0,2001,"))!;
    const f = row.split(",");
    const overflow = [...f];
    overflow[16] = "99999999999999999999"; // FrameCompleted beyond int64
    const negative = [...f];
    negative[16] = String(BigInt(f[2]!) - 1_000_000n);
    const r = importFramestats(
      text.replace(row, [row, overflow.join(","), negative.join(",")].join("\n")),
      NAME,
      "run",
    );
    const t = r.tables.frames!;
    expect(t.numRows).toBe(7);
    const suspects = (t.getChild("suspect")!.toArray() as (string | null)[]).filter((s) => s !== null);
    expect(suspects).toContain(
      "FrameCompleted overflows int64 (99999999999999999999); no FrameCompleted: duration measured to " +
        "swap_buffers_completed, a lower bound",
    );
    expect(suspects).toContain("negative duration: FrameCompleted is 1.000 ms before IntendedVsync");
    checkResult(r);
  });
});
