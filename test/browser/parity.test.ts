// Triage and frames-overview give the same values in Chromium and headless (test/support/browser-parity.ts says
// how they are compared); every other notebook is compared in parity-all.full.test.ts (`npm run test:full`).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { snapshotNotebook } from "../../workspace/notebook/snapshot";
import {
  ALL_PARITY,
  calledBy,
  DEFAULT_PARITY,
  PARITY_TOLERANCE,
  parityTests,
  ROOT,
} from "../support/browser-parity";
import { NOTEBOOKS } from "../support/notebook-paths";
import { differences } from "../support/snapshot-diff";
import { cellDefining, notebookSettled, notebookSnapshot } from "../support/workspace-page";

describe("notebooks give the same values in Chromium and headless", () => {
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
    expect(differences({ p: 0.1 + 0.2 }, { p: 0.3 }, "", [], 20, undefined, PARITY_TOLERANCE)).toEqual([]);
    expect(differences({ p: 0.3001 }, { p: 0.3 }, "", [], 20, undefined, PARITY_TOLERANCE)).toEqual([
      ".p: 0.3001 vs 0.3",
    ]);
  });

  it("between them, the default and the full run draw every jb function any notebook calls", () => {
    expect(ALL_PARITY).toEqual(expect.arrayContaining(DEFAULT_PARITY));
    expect([...calledBy(ALL_PARITY.map((p) => join(ROOT, p)))].sort()).toEqual(
      [...calledBy(NOTEBOOKS)].sort(),
    );
  });

  const open = parityTests(DEFAULT_PARITY);

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
    expect(differences(inBrowser, inNode, "", [], 20, undefined, PARITY_TOLERANCE)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
