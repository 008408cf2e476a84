// Browser parity (docs/architecture.md, "Cells are pure"): a notebook gives the same cell values in Chromium (the
// built workspace, DuckDB-WASM's browser build, the real @observablehq/inputs) as headless in Node (headless.ts,
// DuckDB-WASM's Node build, the input stand-ins), compared as value snapshots (snapshot.ts: what
// jb-notebook.snapshot() and headlessSnapshot() return). Used by test/browser/parity*.test.ts.
//
// Tolerance: numbers agree to 9 significant digits, everything else exactly. Both hosts run the same DuckDB-WASM
// build single-threaded and the same cell code, but Chromium's V8 and Node's differ in the last bits of Math.exp,
// log and pow; a Student t p-value with fractional degrees of freedom (Welch–Satterthwaite) goes through a
// continued fraction that carries them to the 10th digit (measured: 0.004900863465712889 vs ...465130354).
// Anything more is reported with its path.
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { cells, parseNotebook } from "../../workspace/notebook/format";
import { runNotebookFile, type HeadlessResult } from "../../workspace/node/headless";
import { snapshotNotebook } from "../../workspace/notebook/snapshot";
import { serveStatic, type StaticServer } from "../../workspace/node/static-server";
import { launchChromium } from "./chromium";
import { NOTEBOOKS, unfinishedCells } from "./notebook-paths";
import { differences } from "./snapshot-diff";
import { notebookSnapshot, openWorkspace } from "./workspace-page";

export const PARITY_TOLERANCE = 1e-9;
export const ROOT = join(import.meta.dirname, "../..");

const jbCalls = (path: string) => new Set(readFileSync(path, "utf8").match(/\bjb\.[\w.]+/g) ?? []);
export const calledBy = (paths: string[]) => new Set(paths.flatMap((p) => [...jbCalls(p)]));

/** Drawn in Chromium on every `npm test`: triage (most of the jb functions) and the runs' first screen. */
export const DEFAULT_PARITY = ["notebooks/triage.md", "notebooks/examples/frames-overview.md"];

// The examples, then each case notebook that calls a jb function none before it calls: every analysis a notebook
// uses is drawn in Chromium, while every notebook's values are compared across the two engines headless
// (test/workspace/db/native-parity.test.ts). A page per notebook is what costs most in the suite.
export const ALL_PARITY = (() => {
  const isCase = (p: string) => relative(ROOT, p).startsWith("notebooks/cases/");
  const picked = NOTEBOOKS.filter((p) => !isCase(p));
  const seen = calledBy(picked);
  for (const p of NOTEBOOKS.filter(isCase)) {
    const calls = [...jbCalls(p)];
    if (calls.every((c) => seen.has(c))) continue;
    picked.push(p);
    for (const c of calls) seen.add(c);
  }
  return picked.map((p) => relative(ROOT, p));
})();

export interface OpenParity {
  page: Page;
  errors: string[];
  headless: HeadlessResult;
}

/**
 * Inside a describe(): one Chromium and server for it, and a test per notebook (paths relative to the repository)
 * comparing every cell's value, display and check in both hosts. The returned map keeps each notebook's page and
 * headless run open until the describe ends, for tests that go on to move inputs.
 */
export function parityTests(paths: string[]): Map<string, OpenParity> {
  const open = new Map<string, OpenParity>();
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
  it.each(paths)("%s: every cell's value, display and check", async (relativePath) => {
    const path = join(ROOT, relativePath);
    const cellCount = cells(parseNotebook(readFileSync(path, "utf8"))).length;
    const name = path.replace(/^.*\//, "").replace(/\.md$/, ""); // the workspace bundles notebooks by file name
    // Both hosts at once (2 cores). Headless gets its own engine, as the page has: a shared one would hold other
    // notebooks' runs too.
    const [{ page, errors }, headless] = await Promise.all([
      openWorkspace(browser, server.url, `?notebook=${name}`),
      runNotebookFile(path),
    ]);
    open.set(relativePath, { page, errors, headless });
    const inBrowser = await notebookSnapshot(page);
    const inNode = await snapshotNotebook(headless.runtime);
    // a real comparison: every cell ran, in both hosts, and has values to compare
    for (const s of [inBrowser, inNode]) {
      expect(s.cells).toHaveLength(cellCount);
      expect(unfinishedCells(s)).toEqual([]);
    }
    expect(differences(inBrowser, inNode, "", [], 20, undefined, PARITY_TOLERANCE)).toEqual([]);
    expect(errors).toEqual([]);
  });
  return open;
}
