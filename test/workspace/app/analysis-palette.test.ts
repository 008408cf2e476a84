// Every palette entry, inserted into an empty notebook, runs without a failing cell on the sample runs
// that have its tables, and displays something.
import { readFileSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { newManifest } from "../../../bundle/manifest";
import { writeBundleFolder } from "../../../bundle/node-io";
import { importGfxinfo } from "../../../collectors/import/gfxinfo";
import { ANALYSES } from "../../../workspace/app/analysis-palette";
import { insertCell, parseNotebook, serializeNotebook } from "../../../workspace/notebook/format";
import { SAMPLES_DIR, runNotebookFile } from "../../../workspace/node/headless";

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

describe("ANALYSES palette", () => {
  it.each(ANALYSES.map((a) => [a.label, a] as const))("%s runs on the samples", async (_label, entry) => {
    let nb = parseNotebook("# palette\n");
    for (const c of entry.cells) nb = insertCell(nb, nb.blocks.length, c.kind, c.source, c.name);
    const dir = await mkdtemp(join(tmpdir(), "jb-palette-"));
    const path = join(dir, "palette.md");
    await writeFile(path, serializeNotebook(nb));
    const runs = CANDIDATES.filter((run) => entry.needs.every((t) => tablesOf(run).has(t)));
    const dirs = entry.needs.includes("gfxinfo_summaries")
      ? await gfxinfoRuns()
      : runs.map((run) => join(SAMPLES_DIR, run));
    expect(dirs, `no sample run has ${entry.needs.join(", ")}`).not.toEqual([]);
    const result = await runNotebookFile(path, { runs: dirs });
    const failed = result.states.filter((s) => s.status === "rejected").map((s) => `${s.id}: ${s.error}`);
    expect(failed).toEqual([]);
    expect(result.states.some((s) => s.displays.length > 0)).toBe(true);
  });
  it("the DiagDroid entry's report follows τ set from outside (jankbook run --set tau=300)", async () => {
    const entry = ANALYSES.find((a) => a.label.startsWith("DiagDroid: anomalous task groups"))!;
    let nb = parseNotebook("# palette\n");
    for (const c of entry.cells) nb = insertCell(nb, nb.blocks.length, c.kind, c.source, c.name);
    const dir = await mkdtemp(join(tmpdir(), "jb-palette-tau-"));
    const path = join(dir, "palette.md");
    await writeFile(path, serializeNotebook(nb));
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
  });
});
