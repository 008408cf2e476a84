import fc from "fast-check";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  bundledNotebookFolders,
  bundledNotebooks,
  runsForNotebook,
} from "../../../workspace/app/notebook-sources";
import { parseNotebook } from "../../../workspace/notebook/format";
import { resolveRunDirs } from "../../../workspace/node/headless";
import { findNotebookRuns } from "../../../workspace/node/notebook-runs-plugin";

const ROOT = join(import.meta.dirname, "../../..");
const nb = (runs: string) => `---\nruns: ${runs}\n---\n`;

describe("runsForNotebook", () => {
  const samples = ["synthetic-feed-scroll", "k9-a", "top-run"];
  const beside = [
    "data/run-17",
    "examples/gfxinfo-lab/lab-g1",
    "examples/gfxinfo-lab/lab-p1",
    "examples/runs/pixel-a",
    "examples/runs/pixel-a/nested",
    "examples/runs/pixel-b",
    "top-run",
  ];
  const local = { folder: "examples", runs: beside };

  it.each([
    [
      "a glob beside the notebook",
      "[gfxinfo-lab/*]",
      ["notebooks/examples/gfxinfo-lab/lab-g1/", "notebooks/examples/gfxinfo-lab/lab-p1/"],
      [],
    ],
    [
      "a glob matches one segment: not the run nested in a run",
      "[runs/pixel-?]",
      ["notebooks/examples/runs/pixel-a/", "notebooks/examples/runs/pixel-b/"],
      [],
    ],
    ["a nested run by its path", "[runs/pixel-a/nested]", ["notebooks/examples/runs/pixel-a/nested/"], []],
    ["up out of the notebook's folder", "[../data/run-17]", ["notebooks/data/run-17/"], []],
    [
      ". and .. inside the path",
      "[./runs/../gfxinfo-lab/lab-p1]",
      ["notebooks/examples/gfxinfo-lab/lab-p1/"],
      [],
    ],
    ["beside wins over a sample of the same name", "[../top-run]", ["notebooks/top-run/"], []],
    ["not beside (examples/top-run): the sample", "[top-run]", ["samples/top-run/"], []],
    ["climbing out of notebooks/: the samples only", "[../../top-run]", [], ["../../top-run"]],
    ["a glob over the samples", "[synthetic-*]", ["samples/synthetic-feed-scroll/"], []],
    ["a glob in a parent segment is literal (as headless)", "[*/lab-p1]", [], ["*/lab-p1"]],
    ["a folder of runs is not a run", "[gfxinfo-lab]", [], ["gfxinfo-lab"]],
    [
      "each run once, in the entries' order",
      "[gfxinfo-lab/lab-p1, gfxinfo-lab/*, nowhere]",
      ["notebooks/examples/gfxinfo-lab/lab-p1/", "notebooks/examples/gfxinfo-lab/lab-g1/"],
      ["nowhere"],
    ],
  ])("%s: %s", (_what, runs, urls, missing) => {
    expect(runsForNotebook(nb(runs), samples, local)).toEqual({ runs: urls, missing });
  });

  it("names no runs: every sample, none beside", () => {
    expect(runsForNotebook("# no front matter\n", samples, local)).toEqual({
      runs: ["samples/synthetic-feed-scroll/", "samples/k9-a/", "samples/top-run/"],
      missing: [],
    });
  });

  it("without the list of runs beside notebooks: the samples only", () => {
    expect(runsForNotebook(nb("[gfxinfo-lab/*, k9-a]"), samples)).toEqual({
      runs: ["samples/k9-a/"],
      missing: ["gfxinfo-lab/*"],
    });
  });

  it("from the notebooks' top folder", () => {
    expect(runsForNotebook(nb("[data/*, top-run]"), samples, { folder: "", runs: beside })).toEqual({
      runs: ["notebooks/data/run-17/", "notebooks/top-run/"],
      missing: [],
    });
  });

  it("the bundled gfxinfo-lab notebook finds its nine runs beside it", () => {
    const folder = bundledNotebookFolders()["gfxinfo-lab"];
    expect(folder).toBe("examples");
    expect(bundledNotebookFolders().triage).toBe("");
    const { runs, missing } = runsForNotebook(bundledNotebooks()["gfxinfo-lab"]!, [], {
      folder: folder!,
      runs: findNotebookRuns(join(ROOT, "notebooks")),
    });
    expect(missing).toEqual([]);
    // ls notebooks/examples/gfxinfo-lab: lab-g1 lab-g2 lab-p1 ... lab-p6 lab-t
    expect(runs).toEqual(
      ["g1", "g2", "p1", "p2", "p3", "p4", "p5", "p6", "t"].map(
        (r) => `notebooks/examples/gfxinfo-lab/lab-${r}/`,
      ),
    );
  });
});

// The browser's resolution (over notebook-runs.json and index.json) against headless.ts's (over the folders
// themselves), on random trees of run folders and random entries: the same runs in the same order, or both fail.
describe("runsForNotebook agrees with headless resolveRunDirs", () => {
  const tmp = mkdtempSync(join(tmpdir(), "jb-nbruns-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const NAMES = ["a", "b", "lab-1", "lab-2", "runs"];
  const segment = fc.constantFrom(...NAMES, "..", ".", "*", "lab-?", "l*", "?");
  const folderPath = fc.array(fc.constantFrom(...NAMES), { minLength: 0, maxLength: 3 });
  let trial = 0;

  it("on 200 random trees", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(folderPath, { minLength: 1, maxLength: 12, selector: (p) => p.join("/") }),
        folderPath,
        fc.array(fc.array(segment, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }),
        fc.subarray(NAMES),
        async (runFolders, nbFolder, refs, sampleNames) => {
          const base = join(tmp, `t${trial++}`);
          const [root, samplesDir] = [join(base, "notebooks"), join(base, "samples")];
          mkdirSync(join(root, ...nbFolder), { recursive: true });
          mkdirSync(samplesDir, { recursive: true });
          writeFileSync(join(samplesDir, "index.json"), JSON.stringify(sampleNames));
          for (const f of runFolders.filter((f) => f.length > 0)) {
            mkdirSync(join(root, ...f), { recursive: true });
            writeFileSync(join(root, ...f, "manifest.json"), "{}");
          }
          const text = nb(`[${refs.map((r) => JSON.stringify(r.join("/"))).join(", ")}]`);
          const browser = runsForNotebook(text, sampleNames, {
            folder: nbFolder.join("/"),
            runs: findNotebookRuns(root),
          });
          const headless = await resolveRunDirs(parseNotebook(text), join(root, ...nbFolder, "nb.md"), {
            samplesDir,
          }).then(
            (dirs) =>
              dirs.map((d) =>
                d.startsWith(samplesDir)
                  ? `samples/${relative(samplesDir, d)}/`
                  : `notebooks/${relative(root, d)}/`,
              ),
            () => undefined,
          );
          if (headless === undefined) expect(browser.missing.length).toBeGreaterThan(0);
          else expect(browser).toEqual({ runs: headless, missing: [] });
        },
      ),
      { numRuns: 200, seed: 20261124 },
    );
  });
});
