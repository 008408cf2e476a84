// Every palette entry, inserted into an empty notebook, runs without a failing cell on the sample runs
// that have its tables, and displays something; entries with inputs follow values set from outside.
import { readFileSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { newManifest } from "../../../bundle/manifest";
import { readBundleFolder, writeBundleFolder } from "../../../bundle/node-io";
import type { Table } from "apache-arrow";
import type { CounterInterval } from "../../../cells/androscope/counter-series";
import type { ProfileRow } from "../../../cells/androscope/method-profile";
import { importGfxinfo } from "../../../collectors/import/gfxinfo";
import { ANALYSES, type PaletteEntry } from "../../../workspace/app/analysis-palette";
import { insertCell, parseNotebook, serializeNotebook } from "../../../workspace/notebook/format";
import { SAMPLES_DIR } from "../../../workspace/node/headless";
import { sharedHeadless } from "../../support/shared-headless";

/** Sample runs to try entries on; an entry runs on those that have every table it needs. */
const CANDIDATES = ["paper-cases-pixel-4a", "k9-pixel-4a-android11-r1", "feed-methods-pixel-4a"];
const tablesOf = (run: string) =>
  new Set([
    "runs",
    ...Object.keys(JSON.parse(readFileSync(join(SAMPLES_DIR, run, "manifest.json"), "utf8")).tables),
  ]);

/** No sample run has gfxinfo summaries: real gfxinfo dumps imported into runs stand in for them. */
async function gfxinfoRuns(): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), "jb-palette-gfx-"));
  const files = [
    "droid-monitor_api23_chrome_gfxinfo.txt",
    "droid-monitor_api24_settings_gfxinfo.txt",
    "droid-monitor_api28_chrome_gfxinfo.txt",
  ];
  for (const [i, f] of files.entries()) {
    const imp = importGfxinfo(readFileSync(join("test/fixtures/gfxinfo", f), "utf8"), f, `gfx-${i}`);
    await writeBundleFolder(join(dir, `gfx-${i}`), newManifest(`gfx-${i}`, imp.context), imp.tables);
  }
  return files.map((_, i) => join(dir, `gfx-${i}`));
}

/** The entry's cells inserted into an empty notebook, written to a fresh folder: the file's path. */
async function entryNotebook(entry: PaletteEntry, prefix: string): Promise<string> {
  let nb = parseNotebook("# palette\n");
  for (const c of entry.cells) nb = insertCell(nb, nb.blocks.length, c.kind, c.source, c.name);
  const path = join(await mkdtemp(join(tmpdir(), prefix)), "palette.md");
  await writeFile(path, serializeNotebook(nb));
  return path;
}

/** Samples whose interval (from the previous sample, or as long as the next one for the first) meets w. */
function intervalsOverlapping(ends: number[], w: readonly [number, number]): number {
  ends.sort((a, b) => a - b);
  return ends.filter((end, k) => {
    const start = k > 0 ? ends[k - 1]! : end - (ends[1]! - ends[0]!);
    return end > w[0] && start < w[1];
  }).length;
}

/** Per kind, by time: the heap samples in w and the one on either side of it (the step line crosses w's edges). */
function heapAround(samples: { kind: string; ts: number }[], w: readonly [number, number]): string[] {
  const kinds = [...new Set(samples.map((s) => s.kind))].sort();
  return kinds.flatMap((k) => {
    const ts = samples
      .filter((s) => s.kind === k)
      .map((s) => s.ts)
      .sort((a, b) => a - b);
    const before = ts.filter((t) => t < w[0]).slice(-1);
    const after = ts.filter((t) => t > w[1]).slice(0, 1);
    return [...before, ...ts.filter((t) => t >= w[0] && t <= w[1]), ...after].map((t) => `${k}@${t}`);
  });
}

/** Per method, brute force: calls meeting w, and the time in w of those with no caller of the same method. */
function bruteProfile(
  calls: Table,
  w: readonly [number, number],
): Map<number, { calls: number; inclusive: number }> {
  const col = (name: string) =>
    Array.from(calls.getChild(name)!.toArray() as ArrayLike<number | bigint>, Number);
  const [method, parent, enter, exit] = ["method_id", "parent", "enter", "exit"].map(col) as number[][];
  const isParent = calls.getChild("parent")!;
  const out = new Map<number, { calls: number; inclusive: number }>();
  for (let i = 0; i < calls.numRows; i++) {
    const [a, b] = [enter![i]!, exit![i]!];
    if (!(a < w[1] && (b > w[0] || (a === b && a >= w[0])))) continue;
    let outermost = true;
    for (let p = i; isParent.isValid(p);) {
      p = parent![p]!;
      if (method![p] === method![i]) outermost = false;
    }
    const m = out.get(method![i]!) ?? { calls: 0, inclusive: 0 };
    m.calls += 1;
    if (outermost) m.inclusive += Math.min(b, w[1]) - Math.max(a, w[0]);
    out.set(method![i]!, m);
  }
  return out;
}

describe("ANALYSES palette", () => {
  // one DuckDB for the file, emptied before each notebook (an engine costs seconds to start)
  const runNotebookFile = sharedHeadless();
  it.each(ANALYSES.map((a) => [a.label, a] as const))("%s runs on the samples", async (_label, entry) => {
    const path = await entryNotebook(entry, "jb-palette-");
    const runs = CANDIDATES.filter((run) => entry.needs.every((t) => tablesOf(run).has(t)));
    const dirs = entry.needs.includes("gfxinfo_summaries")
      ? await gfxinfoRuns()
      : runs.map((run) => join(SAMPLES_DIR, run));
    expect(dirs, `no sample run has ${entry.needs.join(", ")}`).not.toEqual([]);
    const result = await runNotebookFile(path, { runs: dirs });
    try {
      const failed = result.states.filter((s) => s.status === "rejected").map((s) => `${s.id}: ${s.error}`);
      expect(failed).toEqual([]);
      expect(result.states.some((s) => s.displays.length > 0)).toBe(true);
    } finally {
      await result.close();
    }
  });
  it("the DiagDroid entry's report follows τ set from outside (jankbook run --set tau=300)", async () => {
    const entry = ANALYSES.find((a) => a.label.startsWith("DiagDroid: anomalous task groups"))!;
    const path = await entryNotebook(entry, "jb-palette-tau-");
    const result = await runNotebookFile(path, {
      runs: [join(SAMPLES_DIR, "paper-cases-pixel-4a")],
      set: { tau: "300" },
    });
    expect(result.states.filter((s) => s.status === "rejected")).toEqual([]);
    const shown = JSON.stringify(
      result.states.flatMap((s) => s.displays),
      (_key, v: unknown) => (typeof v === "bigint" ? String(v) : v),
    );
    expect(shown).toContain("≥ 300ms");
    expect(shown).not.toContain("≥ 500ms");
    await result.close();
  });
  it("the counters, heap and profile entry follows the timeline's window set from outside", async () => {
    const entry = ANALYSES.find((a) => a.label.startsWith("AndroScope: counters and heap"))!;
    const run = join(SAMPLES_DIR, "feed-methods-pixel-4a");
    const path = await entryNotebook(entry, "jb-palette-hw-");
    const { tables } = await readBundleFolder(run);
    const calls = tables.get("calls")!;
    const hpc = [...tables.get("hpc_samples")!];
    const ends = (counter: string) => hpc.filter((r) => r.counter === counter).map((r) => Number(r.ts));
    const heap = [...tables.get("heap_samples")!].map((r) => ({ kind: String(r.kind), ts: Number(r.ts) }));
    async function shown(window: readonly [number, number]) {
      const r = await runNotebookFile(path, { runs: [run], set: { hwWindow: window } });
      try {
        expect(r.states.filter((s) => s.status === "rejected").map((s) => `${s.id}: ${s.error}`)).toEqual([]);
        expect(await r.runtime.value("hwWindow")).toEqual(window);
        const series = (await r.runtime.value("hwSeries")) as CounterInterval[];
        const profile = (await r.runtime.value("hwProfile")) as ProfileRow[];
        const heap = r.states
          .flatMap((s) => s.displays as { origin?: string; data?: { kind: string; ts: number }[] }[])
          .find((d) => d.origin === "heapSeriesPlot")!.data!;
        const count = (counter: string) => series.filter((s) => s.counter === counter).length;
        return { cycles: count("cpu-cycles"), ipc: count("IPC"), heap, profile };
      } finally {
        await r.close();
      }
    }
    // The sample's calls meeting each window: 1-3 s, 1,399 calls of 24 methods; 1.6-1.7 s, 78 calls of 21.
    const wide = [1.0e9, 3.0e9] as const;
    const narrow = [1.6e9, 1.7e9] as const;
    const a = await shown(wide);
    const b = await shown(narrow);
    for (const [w, got] of [
      [wide, a],
      [narrow, b],
    ] as const) {
      expect(got.cycles).toBe(intervalsOverlapping(ends("cpu-cycles"), w));
      // IPC: one interval per instructions interval whose cycles sample at the same time counts some cycles
      const ipcEnds = new Set(
        hpc.filter((r) => r.counter === "cpu-cycles" && r.value > 0).map((r) => Number(r.ts)),
      );
      expect(got.ipc).toBe(
        intervalsOverlapping(
          ends("instructions").filter((t) => ipcEnds.has(t)),
          w,
        ),
      );
      expect(got.heap.map((p) => `${p.kind}@${p.ts}`)).toEqual(heapAround(heap, w));
      const rows = new Map(got.profile.map((p) => [p.methodId!, { calls: p.calls, inclusive: p.inclusive }]));
      expect(rows.size).toBeGreaterThan(20);
      expect(rows).toEqual(bruteProfile(calls, w));
    }
    expect(b.profile[0]!.inclusive).toBeLessThan(a.profile[0]!.inclusive);
  });
});
