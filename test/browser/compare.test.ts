// Comparing runs in the workspace (docs/compare.md, "In the workspace"), in Chromium against the built workspace:
// two runs marked in the runs table open in notebooks/compare.md as its two sides (the reverse of the notebook's
// own default, so the sides can only come from the marks), the marks survive in the URL, the differential flame
// graph draws, a click anywhere on a row of the ranked list draws that row's chart, and the assumed run-to-run
// variation is a live input that moves the list's intervals. `DOCS_SCREENSHOTS=1` also
// saves the pictures of docs/compare.md (docs/img/compare-*.png) at each of those steps.
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite } from "../support/browser-suite";
import { serveStatic } from "../../workspace/node/static-server";
import { cellDefining, notebookSettled, openWorkspace } from "../support/workspace-page";

const OLD = "feed-methods-pixel-4a-2.3.0";
const NEW = "feed-methods-pixel-4a";
const K9 = "k9-pixel-4a-android11-r1";
const RUNS = `notebooks/runs/${OLD}/,samples/${NEW}/,samples/${K9}/`;

/** A notebook variable's value as the page's runtime holds it (JSON-safe). */
function value<T>(page: Page, name: string): Promise<T> {
  return page.evaluate(async (n) => {
    const nb = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook") as unknown as {
      runtime: { value(v: string): Promise<unknown> };
    };
    return JSON.parse(JSON.stringify(await nb.runtime.value(n))) as unknown;
  }, name) as Promise<T>;
}

/** A picture for docs/compare.md, when asked for. */
async function shoot(locator: Locator, name: string) {
  if (process.env.DOCS_SCREENSHOTS) await locator.screenshot({ path: `docs/img/compare-${name}.png` });
}

const openNotebook = (page: Page) => page.evaluate(() => new URL(location.href).searchParams.get("notebook"));

describe("compare two runs from the runs table", () => {
  const suite = browserSuite(() => serveStatic("dist", 0));

  it("marks open the compare notebook with those sides; its flame graph draws; a chosen row draws its chart", async () => {
    // Both runs loaded under another notebook, as a user who opened them by URL has them.
    const { page, errors } = await openWorkspace(
      suite.browser,
      suite.url,
      `?notebook=frames-overview&runs=${RUNS}`,
    );
    const row = (run: string) => page.locator(`jb-run-overview tr.run[data-run="${run}"]`);
    const open = page.locator("jb-run-overview button.open-compare");
    await expect.poll(() => open.isDisabled()).toBe(true);
    await row(NEW).locator("button.mark.baseline").click();
    await row(K9).locator("button.mark.candidate").click();
    await row(OLD).locator("button.mark.candidate").click();
    await expect.poll(() => new URL(page.url()).searchParams.get("candidate")).toBe(`${K9},${OLD}`);
    // a removed run is on no side any more
    await row(K9).locator("button.remove").click();
    await expect.poll(() => row(K9).count()).toBe(0);
    await expect.poll(() => new URL(page.url()).searchParams.get("candidate")).toBe(OLD);
    await expect
      .poll(() => row(NEW).locator("button.mark.baseline").getAttribute("aria-pressed"))
      .toBe("true");
    expect(await row(OLD).locator("button.mark.candidate").getAttribute("aria-pressed")).toBe("true");
    expect(await page.locator("jb-run-overview .compare span").innerText()).toBe("1 baseline, 1 candidate");
    const params = new URL(page.url()).searchParams;
    expect([params.get("baseline"), params.get("candidate")]).toEqual([NEW, OLD]);
    await shoot(page.locator("jb-run-overview"), "marks");

    await open.click();
    await expect.poll(() => openNotebook(page)).toBe("compare");
    await cellDefining(page, "runIds", "baseline").waitFor({ timeout: 120_000 });
    await notebookSettled(page);
    expect(await value(page, "baseline")).toEqual([NEW]);
    expect(await value(page, "candidate")).toEqual([OLD]);
    // the run ids the notebook's run_list holds: exactly the marked runs
    expect(await value<string[]>(page, "runIds")).toEqual([OLD, NEW]);
    const url = new URL(page.url()).searchParams;
    expect([url.get("baseline"), url.get("candidate")]).toEqual([NEW, OLD]);

    // The differential flame graph: one rect per call path, under the 2.3.0 candidate the decodes moved to the worker.
    const flame = page
      .locator("jb-notebook .block.cell")
      .filter({ hasText: "jb.compare.differentialFlamePlot(flameProfile)" });
    await expect.poll(() => flame.locator("svg [aria-label='rect'] rect").count()).toBeGreaterThan(10);
    const titles = await flame
      .locator("svg [aria-label='rect'] rect title")
      .evaluateAll((ts) => ts.map((t) => t.textContent ?? ""));
    expect(titles.some((t) => t.startsWith("android.graphics.BitmapFactory.decodeStream"))).toBe(true);
    await shoot(flame.locator("jb-output"), "flame");

    // The ranked list: a click on a method's row (on its subject, not on its button) chooses it; the chart under
    // it is that method's.
    const changes = await value<
      { key: string; subject: string; analysis: string; measure: string; unit: string }[]
    >(page, "changes");
    const pick = changes.findIndex((r) => r.analysis === "methods");
    expect(pick).toBeGreaterThanOrEqual(0);
    const table = cellDefining(page, "number", "clipped", "rankedTable", "chosen").locator("form table");
    const picked = table.locator("tbody tr").nth(pick);
    // a long subject shows its end (the method's name) and the whole of it on hover
    const subject = changes[pick]!.subject;
    expect(subject.length).toBeGreaterThan(36);
    const shown = picked.locator("td").nth(3).locator("span");
    expect(await shown.getAttribute("title")).toBe(subject);
    const text = await shown.innerText();
    expect(text.startsWith("…") && subject.endsWith(text.slice(1))).toBe(true);
    expect(text.length).toBeLessThanOrEqual(43);
    expect(text).toContain(subject.slice(subject.lastIndexOf(".") + 1));
    const edges = await table.evaluate((t) => {
      const left = t.closest("form")!.getBoundingClientRect().left;
      return {
        width: t.closest("form")!.clientWidth,
        right: Object.fromEntries(
          [...t.querySelectorAll("thead th")].map((th) => [
            th.textContent,
            th.getBoundingClientRect().right - left,
          ]),
        ),
      };
    });
    // a 950 px column shows every number up to the adjusted p without scrolling sideways
    expect(edges.width).toBeLessThan(1000);
    expect(edges.right["adjusted p"]).toBeLessThanOrEqual(edges.width);
    await picked.locator("td").nth(3).click();
    expect(await picked.locator("input[type=radio]").isChecked()).toBe(true);
    await expect
      .poll(() => value<{ key: string } | null>(page, "chosen"))
      .toMatchObject({ key: changes[pick]!.key });
    // whatChangedPlot's title names the row's subject and measure; one dot per run or UI-event bucket a side
    const chart = cellDefining(page, "row", "metric");
    await expect
      .poll(() => chart.locator("figure h2").first().innerText(), { timeout: 60_000 })
      .toBe(`${changes[pick]!.subject}: ${changes[pick]!.measure} (${changes[pick]!.unit})`);
    expect(await chart.locator("svg [aria-label='dot'] circle").count()).toBeGreaterThan(1);
    await shoot(
      cellDefining(page, "number", "clipped", "rankedTable", "chosen").locator("jb-output"),
      "ranked",
    );
    await shoot(chart.locator("jb-output"), "row-chart");
    const frames = page.locator("jb-notebook .block.cell").filter({ hasText: "Plot.ruleY([0])" });
    await shoot(frames.locator("jb-output"), "frames");

    // The assumed run-to-run variation is a live input: a time's CV moved from 0.4 to 1 widens the interval of a
    // time compared one run against one (its bootstrap interval widened in quadrature by ln(1 + cv²) per run)
    type Row = { key: string; method: string; scale: string; a: number; b: number; ci: [number, number] };
    const time = changes
      .map((r) => r as unknown as Row)
      .find((r) => r.method === "blocks" && r.scale === "ratio" && r.a > 0 && r.b > 0)!;
    expect(time).toBeDefined();
    await cellDefining(page, "runCv").locator("input[type=number]").fill("1");
    await expect
      .poll(async () => (await value<Row[]>(page, "changes")).find((r) => r.key === time.key)!.ci[1], {
        timeout: 60_000,
      })
      .toBeGreaterThan(time.ci[1]);
    expect(errors).toEqual([]);
  });
});
