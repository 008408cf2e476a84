// Parity (docs/architecture.md, "Cells are pure"): every notebook in notebooks/ gives the same cell values in
// Chromium (the built workspace, DuckDB-WASM's browser build, the real @observablehq/inputs) as headless in
// Node (headless.ts, DuckDB-WASM's Node build, the input stand-ins), compared as value snapshots
// (snapshot.ts: what jb-notebook.snapshot() and headlessSnapshot() return).
//
// Tolerance: numbers agree to 9 significant digits, everything else exactly. Both hosts run the same DuckDB-WASM
// build single-threaded and the same cell code, but Chromium's V8 and Node's differ in the last bits of Math.exp,
// log and pow; a Student t p-value with fractional degrees of freedom (Welch–Satterthwaite) goes through a
// continued fraction that carries them to the 10th digit (measured: 0.004900863465712889 vs ...465130354).
// Anything more is reported with its path.
const TOLERANCE = 1e-9;
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cells, parseNotebook } from "../../workspace/notebook/format";
import { runNotebookFile, type HeadlessResult } from "../../workspace/node/headless";
import { snapshotNotebook } from "../../workspace/notebook/snapshot";
import { serveStatic, type StaticServer } from "../../workspace/node/static-server";
import { launchChromium } from "../support/chromium";
import { differences } from "../support/snapshot-diff";
import { NOTEBOOKS, unfinishedCells } from "../support/notebook-paths";
import { cellDefining, notebookSettled, notebookSnapshot, openWorkspace } from "../support/workspace-page";

const ROOT = join(import.meta.dirname, "../..");

// The examples and triage, then each case notebook that calls a jb function none of those before it calls: every
// analysis a notebook uses is drawn in Chromium, while every notebook's values are compared across the two engines
// headless (test/workspace/db/native-parity.test.ts). A page per notebook is what costs most in the suite.
const jbCalls = (path: string) => new Set(readFileSync(path, "utf8").match(/\bjb\.[\w.]+/g) ?? []);
const BROWSER_PARITY = (() => {
  const isCase = (p: string) => relative(ROOT, p).startsWith("notebooks/cases/");
  const picked = NOTEBOOKS.filter((p) => !isCase(p));
  const seen = new Set(picked.flatMap((p) => [...jbCalls(p)]));
  for (const p of NOTEBOOKS.filter(isCase)) {
    const calls = [...jbCalls(p)];
    if (calls.every((c) => seen.has(c))) continue;
    picked.push(p);
    for (const c of calls) seen.add(c);
  }
  return picked;
})();

describe("notebooks give the same values in Chromium and headless", () => {
  let browser: Browser;
  let server: StaticServer;

  beforeAll(async () => {
    server = await serveStatic("dist", 0);
    browser = await launchChromium();
  });
  afterAll(async () => {
    for (const o of open.values()) await o.headless.close();
    await browser?.close();
    await server?.close();
  });

  it("the comparison names the paths that differ", () => {
    expect(differences({ a: [1, 2, { b: 0.1 + 0.2 }] }, { a: [1, 2, { b: 0.3 }] })).toEqual([
      ".a[2].b: 0.30000000000000004 vs 0.3",
    ]);
    expect(differences({ a: 1, c: null }, { a: 1, d: "x" })).toEqual([
      ".c: only in the browser snapshot",
      ".d: only in the headless snapshot",
    ]);
    expect(differences([1, 2], [1])).toEqual([": length 2 vs 1"]);
    // within the tolerance a last-bits difference is none; past it, named
    expect(differences({ p: 0.1 + 0.2 }, { p: 0.3 }, "", [], 20, undefined, TOLERANCE)).toEqual([]);
    expect(differences({ p: 0.3001 }, { p: 0.3 }, "", [], 20, undefined, TOLERANCE)).toEqual([
      ".p: 0.3001 vs 0.3",
    ]);
  });

  it("finds the notebooks: the examples, triage, and cases that call every jb function any notebook calls", () => {
    expect(BROWSER_PARITY.map((p) => relative(ROOT, p))).toEqual(
      expect.arrayContaining(["notebooks/triage.md", "notebooks/examples/frames-overview.md"]),
    );
    const called = (paths: string[]) => new Set(paths.flatMap((p) => [...jbCalls(p)]));
    expect([...called(BROWSER_PARITY)].sort()).toEqual([...called(NOTEBOOKS)].sort());
  });

  /** Kept open for the τ test: the triage page and its headless run. */
  const open = new Map<string, { page: Page; errors: string[]; headless: HeadlessResult }>();

  it.each(BROWSER_PARITY.map((p) => [relative(ROOT, p), p]))(
    "%s: every cell's value, display and check",
    async (_name, path) => {
      const cellCount = cells(parseNotebook(readFileSync(path, "utf8"))).length;
      const name = path.replace(/^.*\//, "").replace(/\.md$/, ""); // the workspace bundles notebooks by file name
      // Both hosts at once (2 cores). Headless gets its own engine, as the page has: a shared one would hold other
      // notebooks' runs too.
      const [{ page, errors }, headless] = await Promise.all([
        openWorkspace(browser, server.url, `?notebook=${name}`),
        runNotebookFile(path),
      ]);
      open.set(relative(ROOT, path), { page, errors, headless });
      const inBrowser = await notebookSnapshot(page);
      const inNode = await snapshotNotebook(headless.runtime);
      // a real comparison: every cell ran, in both hosts, and has values to compare
      for (const s of [inBrowser, inNode]) {
        expect(s.cells).toHaveLength(cellCount);
        expect(unfinishedCells(s)).toEqual([]);
      }
      expect(differences(inBrowser, inNode, "", [], 20, undefined, TOLERANCE)).toEqual([]);
      expect(errors).toEqual([]);
    },
  );

  it("triage.md: moving τ to the slider's maximum in the browser and setting tauMs = 2000 headless give the same values", async () => {
    const { page, errors, headless } = open.get("notebooks/triage.md")!;
    const before = await notebookSnapshot(page);
    const slider = cellDefining(page, "tauMs").locator("input[type=range]");
    await slider.focus();
    await page.keyboard.press("End");
    await expect.poll(() => slider.inputValue()).toBe("2000");
    await notebookSettled(page);
    headless.runtime.setInput("tauMs", "2000"); // as `jankbook run --set tauMs=2000` passes it
    await headless.runtime.settled(60_000);
    const [inBrowser, inNode] = [await notebookSnapshot(page), await snapshotNotebook(headless.runtime)];
    expect(inBrowser.inputs.find((i) => i.name === "tauMs")!.value).toBe(2000);
    // the slider changed values downstream: this is not a comparison of two default runs
    expect(differences(before, inBrowser).length).toBeGreaterThan(0);
    expect(differences(inBrowser, inNode, "", [], 20, undefined, TOLERANCE)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
