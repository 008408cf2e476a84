// State you can trust (no wrong or stale answers), in Chromium against the built workspace served as
// Vite serves it (unknown paths get index.html: test/support/spa-server.ts). Each case failed before the fix:
// Open notebook kept the previous notebook's runs; added runs re-ran nothing and were lost on reload; Run all and
// a cell's run button did nothing to unedited cells; failed runs counted as loaded, with a JSON parse error for a
// missing bundle; ?notebook=nosuch.md rendered index.html and ?notebook=nosuch said nothing; "No frames loaded."
// while runs were loading.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite } from "../support/browser-suite";
import { serveWithSpaFallback } from "../support/spa-server";
import { notebookSettled, openWorkspace } from "../support/workspace-page";

const ROOT = join(import.meta.dirname, "../..");
const FRAMES_OVERVIEW = readFileSync(join(ROOT, "notebooks/examples/frames-overview.md"), "utf8");
const rowsOf = (run: string) =>
  (
    JSON.parse(readFileSync(join(ROOT, `workspace/public/samples/${run}/manifest.json`), "utf8")) as {
      tables: { frames: { rows: number } };
    }
  ).tables.frames.rows;
// From the manifests: 1800 frames in the synthetic run, 216 in the K-9 one (none flagged suspect).
const FEED_FRAMES = rowsOf("synthetic-feed-scroll");
const K9_FRAMES = rowsOf("k9-pixel-4a-android11-r1");

const status = (page: Page) => page.locator("header .status").innerText();

/** The run ids in a named SQL cell's result (its value, as the runtime holds it). */
function runIds(page: Page, cell: string): Promise<string[]> {
  return page.evaluate(async (name) => {
    const nb = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook") as unknown as {
      runtime: { value(n: string): Promise<{ toArray(): { run_id: string }[] }> };
    };
    return (await nb.runtime.value(name))
      .toArray()
      .map((r) => String(r.run_id))
      .sort();
  }, cell);
}

/** How many times each cell has run, by its name or what it defines. */
function cellRuns(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => {
    const nb = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook") as unknown as {
      runtime: { states(): { name?: string; defines: string[]; id: string; runs: number }[] };
    };
    return Object.fromEntries(
      nb.runtime.states().map((s) => [s.name ?? (s.defines.join(",") || s.id), s.runs]),
    );
  });
}

/** The text of the first markdown output containing `text` (outputs render in shadow roots: locators pierce). */
const mdOutput = (page: Page, text: string) =>
  page.locator("jb-notebook jb-output .md", { hasText: text }).first().innerText();
const slowShare = (page: Page) => mdOutput(page, "frames took longer than");

/** The K-9 run was added to frames-overview's: it is counted, and the cells reading tables ran again on both. */
async function bothRunsShown(page: Page) {
  await expect.poll(() => status(page), { timeout: 60_000 }).toMatch(/^2 runs loaded/);
  await expect
    .poll(() => runIds(page, "runs_loaded"), { timeout: 60_000 })
    .toEqual(["k9-pixel-4a-android11-r1", "synthetic-feed-scroll"]);
  await notebookSettled(page);
  expect(await slowShare(page)).toMatch(new RegExp(`of ${FEED_FRAMES + K9_FRAMES} frames took`));
}

describe("state you can trust", () => {
  const suite = browserSuite(() => serveWithSpaFallback("dist", { "/fixtures/": "test/fixtures/notebooks" }));

  it("Open notebook loads exactly the runs its front matter names, drops the previous ones, and survives a reload", async () => {
    const { page, errors } = await openWorkspace(
      suite.browser,
      suite.url,
      "?notebook=fixtures/state-two-runs.md",
    );
    expect(await runIds(page, "loaded_runs")).toEqual(["k9-pixel-2-android9-r1", "k9-pixel-4a-android11-r1"]);
    expect(await status(page)).toMatch(/^2 runs loaded/);
    // The file picker answers with frames-overview.md, as if picked from notebooks/examples/.
    await page.evaluate((text) => {
      (window as unknown as { showOpenFilePicker: unknown }).showOpenFilePicker = async () => [
        { getFile: async () => new File([text], "frames-overview.md", { type: "text/markdown" }) },
      ];
    }, FRAMES_OVERVIEW);
    await page.getByRole("button", { name: "Open notebook" }).click();
    await expect.poll(() => status(page), { timeout: 90_000 }).toMatch(/^1 run loaded/);
    await page.locator("jb-notebook .block.cell").first().waitFor({ timeout: 120_000 });
    await notebookSettled(page);
    expect(await runIds(page, "runs_loaded")).toEqual(["synthetic-feed-scroll"]);
    expect(await slowShare(page)).toMatch(new RegExp(`of ${FEED_FRAMES} frames took longer than`));
    // `jankbook run notebooks/examples/frames-overview.md` gives this smooth ratio (the issue's 0.938 over 1,800)
    expect(await mdOutput(page, "Smooth ratio")).toMatch(/Smooth ratio 0\.938/);
    expect(new URL(page.url()).search).toBe("?notebook=frames-overview.md");
    await page.reload();
    await page.locator("jb-notebook .block.cell").first().waitFor({ timeout: 120_000 });
    await notebookSettled(page);
    expect(await runIds(page, "runs_loaded")).toEqual(["synthetic-feed-scroll"]);
    expect(await status(page)).toMatch(/^1 run loaded/);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("adding a run by URL re-runs the cells that read tables, writes it into the URL, and a reload keeps it", async () => {
    const { page, errors } = await openWorkspace(suite.browser, suite.url, "?notebook=frames-overview");
    expect(await runIds(page, "runs_loaded")).toEqual(["synthetic-feed-scroll"]);
    expect(await slowShare(page)).toMatch(new RegExp(`of ${FEED_FRAMES} frames took`));
    const before = await cellRuns(page);
    const added = `${suite.url}samples/k9-pixel-4a-android11-r1`;
    await page.locator("input[name=url]").fill(`${added}/`);
    await page.getByRole("button", { name: "Open", exact: true }).click();
    await bothRunsShown(page);
    const after = await cellRuns(page);
    expect(after.budgetMs).toBe(before.budgetMs); // reads no table: not re-run
    expect(after.frame_times).toBeGreaterThan(before.frame_times!);
    expect(after["metrics,lines"]).toBeGreaterThan(before["metrics,lines"]!);
    expect(new URL(page.url()).searchParams.get("runs")).toBe(`samples/synthetic-feed-scroll,${added}`);
    await page.reload();
    await page.locator("jb-notebook .block.cell").first().waitFor({ timeout: 120_000 });
    await notebookSettled(page);
    expect(await runIds(page, "runs_loaded")).toEqual(["k9-pixel-4a-android11-r1", "synthetic-feed-scroll"]);
    expect(await status(page)).toMatch(/^2 runs loaded/);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("dropping a run re-runs the cells that read tables, and the page says a reload will not keep it", async () => {
    const { page, errors } = await openWorkspace(suite.browser, suite.url, "?notebook=frames-overview");
    await page.evaluate(async () => {
      const dt = new DataTransfer();
      for (const name of [
        "manifest.json",
        "frames.arrows",
        "tasks.arrows",
        "contexts.arrows",
        "ui_events.arrows",
      ]) {
        const bytes = await (await fetch(`samples/k9-pixel-4a-android11-r1/${name}`)).arrayBuffer();
        dt.items.add(new File([bytes], name));
      }
      document
        .querySelector("jb-app")!
        .dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true }));
    });
    await bothRunsShown(page);
    expect(await page.locator("#overview [role=note]").innerText()).toMatch(
      /1 dropped run is not in the page's URL: a reload will not bring it back/,
    );
    // the URL still names the notebook's own runs only (none listed: they are its front matter's)
    expect(new URL(page.url()).search).toBe("?notebook=frames-overview");
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("Run all runs every cell, and a cell's run button re-runs it and its dependents, though nothing was edited", async () => {
    const { page, errors } = await openWorkspace(suite.browser, suite.url, "?notebook=frames-overview");
    const before = await cellRuns(page);
    await page.getByRole("button", { name: "Run all" }).click();
    await expect
      .poll(async () => {
        const now = await cellRuns(page);
        return Object.keys(before).filter((k) => !(now[k]! > before[k]!));
      })
      .toEqual([]);
    await notebookSettled(page);
    const all = await cellRuns(page);
    await page
      .locator('jb-notebook .block.cell[data-cell="jank_by_second"] .bar button', { hasText: "run" })
      .click();
    await expect.poll(async () => (await cellRuns(page)).jank_by_second).toBe(all.jank_by_second! + 1);
    await notebookSettled(page);
    const one = await cellRuns(page);
    // jank_by_second and the plot reading it re-ran; nothing else did
    const changed = Object.keys(one).filter((k) => one[k] !== all[k]);
    expect(changed).toHaveLength(2);
    expect(changed).toContain("jank_by_second");
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("a missing run is listed as failed with its URL, never counted as loaded, never a JSON parse error", async () => {
    const { page, errors } = await openWorkspace(
      suite.browser,
      suite.url,
      "?notebook=frames-overview&runs=samples/synthetic-feed-scroll/,samples/nosuch/",
    );
    const text = await status(page);
    expect(text).toMatch(
      /^1 run loaded \(streamed\); 1 failed: samples\/nosuch: .*no run bundle at http:\/\/127\.0\.0\.1:\d+\/samples\/nosuch\/ \(the server answered with an HTML page/,
    );
    expect(text).not.toMatch(/JSON|Unexpected token/);
    expect(await runIds(page, "runs_loaded")).toEqual(["synthetic-feed-scroll"]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("?notebook=nosuch.md and ?notebook=nosuch say that no such notebook exists and where they looked", async () => {
    const context = await suite.browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${suite.url}?notebook=nosuch.md`);
    const alert = page.locator("#notebook [role=alert]");
    await alert.waitFor({ timeout: 120_000 });
    expect(await alert.innerText()).toMatch(
      /^no notebook named nosuch\.md \(looked at http:\/\/127\.0\.0\.1:\d+\/nosuch\.md: the server answered with an HTML page/,
    );
    expect(await page.locator("jb-notebook").count()).toBe(0); // index.html is not rendered as a notebook
    await page.goto(`${suite.url}?notebook=nosuch`);
    await alert.waitFor({ timeout: 120_000 });
    expect(await alert.innerText()).toMatch(
      /^no notebook named nosuch \(looked among the bundled notebooks: .*frames-overview.*triage/,
    );
    expect(await page.locator("jb-notebook").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("while runs load the page says so, not 'No frames loaded.'", async () => {
    const context = await suite.browser.newContext();
    const page = await context.newPage();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await page.route("**/samples/synthetic-feed-scroll/manifest.json", async (route) => {
      await gate;
      await route.continue();
    });
    await page.goto(`${suite.url}?notebook=frames-overview`);
    const frames = page.locator("#frames");
    await expect.poll(() => frames.innerText(), { timeout: 60_000 }).toMatch(/loading 1 run…/);
    expect(await frames.innerText()).not.toMatch(/No frames loaded/);
    release();
    await page.locator("#frames jb-plot svg").first().waitFor({ timeout: 120_000 });
    await expect.poll(() => status(page), { timeout: 60_000 }).toMatch(/^1 run loaded/);
    await context.close();
  });
});
