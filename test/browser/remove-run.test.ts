// Removing a run (runs could once be added, never removed), in Chromium against the built workspace:
// the run's remove button takes it out of the overview, the cells that read tables re-run without it, the URL's
// runs= stops naming it (a reload keeps it removed), and Undo brings a run that came from a URL back.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite } from "../support/browser-suite";
import { serveWithSpaFallback } from "../support/spa-server";
import { notebookSettled, openWorkspace } from "../support/workspace-page";

const KEPT = "k9-pixel-4a-android11-r1";
const GONE = "k9-pixel-2-android9-r1";
// test/fixtures/notebooks/state-two-runs.md names both; `loaded_runs` is `SELECT run_id FROM runs`
const TWO_RUNS = "?notebook=fixtures/state-two-runs.md";
// frames-overview's own run, and one that is not served
const WITH_A_FAILED_RUN = `?notebook=frames-overview&runs=${["synthetic-feed-scroll", "nosuch"].map((r) => `samples/${r}/`).join(",")}`;

const status = (page: Page) => page.locator("header .status").innerText();
const overviewRuns = (page: Page) =>
  page.locator("jb-run-overview tr.run").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-run")));
const runsInUrl = (page: Page) => new URL(page.url()).searchParams.get("runs");

/** The run ids `loaded_runs` gave, and how many times it ran. */
function loadedRuns(page: Page): Promise<{ ids: string[]; runs: number }> {
  return page.evaluate(async () => {
    const nb = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook") as unknown as {
      runtime: {
        value(n: string): Promise<{ toArray(): { run_id: string }[] }>;
        states(): { name?: string; runs: number }[];
      };
    };
    const ids = (await nb.runtime.value("loaded_runs"))
      .toArray()
      .map((r) => String(r.run_id))
      .sort();
    return { ids, runs: nb.runtime.states().find((s) => s.name === "loaded_runs")!.runs };
  });
}

async function onlyKeptShown(page: Page) {
  await expect.poll(() => status(page), { timeout: 60_000 }).toMatch(/^1 run loaded/);
  await expect.poll(async () => (await loadedRuns(page)).ids, { timeout: 60_000 }).toEqual([KEPT]);
  await notebookSettled(page);
  expect(await overviewRuns(page)).toEqual([KEPT]);
}

describe("removing a run", () => {
  const suite = browserSuite(() => serveWithSpaFallback("dist", { "/fixtures/": "test/fixtures/notebooks" }));

  it("remove re-runs the cells, leaves the URL, survives a reload, and Undo brings a URL run back", async () => {
    const { page, errors } = await openWorkspace(suite.browser, suite.url, TWO_RUNS);
    const before = await loadedRuns(page);
    expect(before.ids).toEqual([GONE, KEPT]);
    expect((await overviewRuns(page)).sort()).toEqual([GONE, KEPT]);
    expect(runsInUrl(page)).toBeNull(); // the notebook's own runs: not listed

    await page.getByRole("button", { name: `remove samples/${GONE}`, exact: true }).click();
    await onlyKeptShown(page);
    expect((await loadedRuns(page)).runs).toBeGreaterThan(before.runs);
    expect(runsInUrl(page)).toBe(`samples/${KEPT}`);
    const toast = page.locator("jb-app .toast");
    expect(await toast.innerText()).toMatch(new RegExp(`removed ${GONE}`));

    await toast.getByRole("button", { name: "Undo" }).click();
    await expect.poll(() => status(page), { timeout: 60_000 }).toMatch(/^2 runs loaded/);
    await expect.poll(async () => (await loadedRuns(page)).ids, { timeout: 60_000 }).toEqual([GONE, KEPT]);
    expect((await overviewRuns(page)).sort()).toEqual([GONE, KEPT]);
    expect(runsInUrl(page)).toBeNull(); // the notebook's own two again
    expect(await toast.count()).toBe(0);

    await page.getByRole("button", { name: `remove samples/${GONE}`, exact: true }).click();
    await onlyKeptShown(page);
    await page.reload();
    await page.locator("jb-notebook .block.cell").first().waitFor({ timeout: 120_000 });
    await notebookSettled(page);
    await onlyKeptShown(page);
    expect(runsInUrl(page)).toBe(`samples/${KEPT}`);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("a run that failed to load can be removed; the status stops counting it as failed", async () => {
    const { page, errors } = await openWorkspace(suite.browser, suite.url, WITH_A_FAILED_RUN);
    expect(await status(page)).toMatch(/1 failed: samples\/nosuch/);
    await page.getByRole("button", { name: "remove samples/nosuch", exact: true }).click();
    await expect.poll(() => status(page), { timeout: 60_000 }).not.toMatch(/failed/);
    expect(await status(page)).toMatch(/^1 run loaded/);
    expect(await overviewRuns(page)).toEqual(["synthetic-feed-scroll"]);
    expect(runsInUrl(page)).toBeNull(); // what is left is the notebook's own run
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("a dropped run goes too, and its toast says it cannot be re-read instead of offering Undo", async () => {
    const { page, errors } = await openWorkspace(suite.browser, suite.url, "?notebook=frames-overview");
    // the run's files, as a folder drop hands them over (named by its manifest's tables)
    await page.evaluate(async (run) => {
      const get = async (name: string) =>
        new File([await (await fetch(`samples/${run}/${name}`)).blob()], name);
      const manifest = (await (await fetch(`samples/${run}/manifest.json`)).json()) as {
        tables: Record<string, { file: string }>;
      };
      const files = [await get("manifest.json")];
      for (const { file } of Object.values(manifest.tables)) files.push(await get(file));
      const dt = new DataTransfer();
      for (const f of files) dt.items.add(f);
      document
        .querySelector("jb-app")!
        .dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true }));
    }, GONE);
    await expect.poll(() => status(page), { timeout: 60_000 }).toMatch(/^2 runs loaded/);
    expect(await page.locator("#overview [role=note]").count()).toBe(1);
    await page.getByRole("button", { name: "remove dropped files", exact: true }).click();
    await expect.poll(() => status(page), { timeout: 60_000 }).toMatch(/^1 run loaded/);
    expect(await overviewRuns(page)).toEqual(["synthetic-feed-scroll"]);
    const toast = page.locator("jb-app .toast");
    expect(await toast.innerText()).toMatch(
      new RegExp(`removed ${GONE}: it was dropped from disk and cannot be re-read`),
    );
    expect(await toast.getByRole("button", { name: "Undo" }).count()).toBe(0);
    // no dropped run left: the note that a reload loses it goes
    expect(await page.locator("#overview [role=note]").count()).toBe(0);
    expect(new URL(page.url()).search).toBe("?notebook=frames-overview");
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
