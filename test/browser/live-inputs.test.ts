// A slider on the triage notebook in Chromium: a drag re-runs the cells that depend on it and re-renders no other
// block, the last value wins over the ones before it, moves within one step run nothing and a mouse drag ends on the
// value it was released at, CodeMirror editors exist only for code that was opened or scrolled near, behind one
// document "selectionchange" listener, and an input stays in view of the chart it drives. Which cells depend on an
// input is worked out here from the cells' own defines/references, transitively.
import type { Page } from "playwright-core";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveStatic, type StaticServer } from "../../workspace/node/static-server";
import { launchChromium } from "../support/chromium";
import { cellDefining, notebookSettled, openWorkspace } from "../support/workspace-page";

interface CellInfo {
  id: string;
  name?: string;
  defines: string[];
  references: string[];
  runs: number;
}

/** Every cell's id, names and run count, in notebook order. */
function cellInfo(page: Page): Promise<CellInfo[]> {
  return page.evaluate(() => {
    const nb = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook") as unknown as {
      runtime: { states(): CellInfo[] };
    };
    return nb.runtime
      .states()
      .map((s) => ({ id: s.id, name: s.name, defines: s.defines, references: s.references, runs: s.runs }));
  });
}

/** Ids of the cells that read `name`, directly or through a cell that does. */
function dependents(cells: CellInfo[], name: string): Set<string> {
  const names = new Set([name]);
  const out = new Set<string>();
  for (let grew = true; grew;) {
    grew = false;
    for (const c of cells)
      if (!out.has(c.id) && c.references.some((r) => names.has(r))) {
        out.add(c.id);
        for (const d of c.defines) names.add(d);
        grew = true;
      }
  }
  return out;
}

/** Sets the slider of input `name` to each of `values` in turn, one "input" event each, in one task. */
async function slide(page: Page, cellText: string, values: number[]) {
  await page
    .locator("jb-notebook .block.cell", { hasText: cellText })
    .locator("input[type=range]")
    .evaluate((input: HTMLInputElement, values) => {
      for (const v of values) {
        input.value = String(v);
        input.dispatchEvent(new Event("input", { bubbles: true }));
      }
    }, values);
}

describe("live inputs on the triage notebook", () => {
  let server: StaticServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    server = await serveStatic("dist");
    browser = await launchChromium();
    ({ page, errors } = await openWorkspace(browser, server.url, "?notebook=triage"));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("a moved τ re-runs exactly the cells that read it, and no other block's DOM changes", async () => {
    const before = await cellInfo(page);
    const reach = dependents(before, "tauMs");
    // groups, the anomalous-groups chart, the report and the checks read τ, at least
    expect(reach.size).toBeGreaterThanOrEqual(4);
    await page.evaluate(() => {
      const root = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook")!.shadowRoot!;
      const touched = new Set<string>();
      (window as unknown as { __touched: Set<string> }).__touched = touched;
      new MutationObserver((records) => {
        for (const r of records) {
          const node = r.target instanceof Element ? r.target : r.target.parentElement;
          const block = node?.closest(".block");
          touched.add(block ? (block.getAttribute("data-cell") ?? "prose") : "outside a block");
        }
      }).observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    await slide(page, "const tauMs = view", [700]);
    await notebookSettled(page);
    const after = await cellInfo(page);
    const reran = after.filter((c, i) => c.runs > before[i]!.runs).map((c) => c.id);
    expect(new Set(reran)).toEqual(reach);
    // a block's data-cell is its cell's name or id: every block whose DOM changed is a dependent's, or τ's own
    const touched = await page.evaluate(() => [
      ...(window as unknown as { __touched: Set<string> }).__touched,
    ]);
    const allowed = new Set(
      after.filter((c) => reach.has(c.id) || c.defines.includes("tauMs")).map((c) => c.name ?? c.id),
    );
    expect(touched.filter((t) => !allowed.has(t))).toEqual([]);
    expect(touched.length).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });

  it("the last of many values wins: its dependents run for the first and the last, not for each", async () => {
    const groupsCell = (await cellInfo(page)).find((c) => c.defines.includes("groups"))!;
    const values = Array.from({ length: 30 }, (_, k) => 300 + 10 * k);
    await slide(page, "const tauMs = view", values);
    await notebookSettled(page);
    const now = (await cellInfo(page)).find((c) => c.id === groupsCell.id)!;
    // the first value goes at once (view-input.ts), the last when the throttle lets it; a stale run is dropped
    expect(now.runs - groupsCell.runs).toBeGreaterThanOrEqual(1);
    expect(now.runs - groupsCell.runs).toBeLessThanOrEqual(2);
    const checks = page.locator("jb-notebook .block.cell .checks", { hasText: "Transportr's filter queue" });
    await expect.poll(() => checks.innerText()).toContain(`at τ = ${values.at(-1)} ms`);
    expect(errors).toEqual([]);
  });

  it("moves within one step of τ run nothing, and a drag with the mouse ends on the value it was released at", async () => {
    await slide(page, "const tauMs = view", [600]);
    await notebookSettled(page);
    const groupsCell = (await cellInfo(page)).find((c) => c.defines.includes("groups"))!;
    // τ's step is 10: the range input rounds 601-604 to 600, the value its dependents already have
    await slide(page, "const tauMs = view", [601, 603, 604, 602]);
    await notebookSettled(page);
    expect((await cellInfo(page)).find((c) => c.id === groupsCell.id)!.runs).toBe(groupsCell.runs);

    // pressed at 600, moved right in steps, released: "change" lets the last value go (view-input.ts)
    const slider = page
      .locator("jb-notebook .block.cell", { hasText: "const tauMs = view" })
      .locator("input[type=range]");
    await slider.scrollIntoViewIfNeeded();
    const box = (await slider.boundingBox())!;
    // Chromium's thumb is 16 px wide: its centre travels the track less 8 px at each end (range 50-2000)
    const x = (v: number) => box.x + 8 + ((v - 50) / 1950) * (box.width - 16);
    const y = box.y + box.height / 2;
    await page.mouse.move(x(600), y);
    await page.mouse.down();
    for (let k = 1; k <= 10; k++) await page.mouse.move(x(600 + 40 * k), y);
    await page.mouse.up();
    const released = await slider.evaluate((el: HTMLInputElement) => el.valueAsNumber);
    expect(Math.abs(released - 1000)).toBeLessThanOrEqual(20);
    await notebookSettled(page);
    const checks = page.locator("jb-notebook .block.cell .checks", { hasText: "Transportr's filter queue" });
    await expect.poll(() => checks.innerText()).toContain(`at τ = ${released} ms`);
    expect(errors).toEqual([]);
  });

  it("makes editors only for code opened or scrolled near, with one document selectionchange listener", async () => {
    const editors = () =>
      page.evaluate(() =>
        [
          ...document
            .querySelector("jb-app")!
            .shadowRoot!.querySelector("jb-notebook")!
            .shadowRoot!.querySelectorAll("jb-code-editor"),
        ].map((e) => ({
          created: (e as unknown as { created: boolean }).created,
          open: e.closest("details")?.open ?? true,
        })),
      );
    const all = await editors();
    expect(all.length).toBeGreaterThan(40);
    // no closed cell's code has an editor, and the page did not make one for every open one either
    expect(all.filter((e) => !e.open && e.created)).toEqual([]);
    const made = all.filter((e) => e.created).length;
    expect(made).toBeLessThan(all.filter((e) => e.open).length);
    // opening a cell's code makes its editor
    const cell = cellDefining(page, "groups");
    await cell.locator("details.code > summary").click();
    await cell.locator("jb-code-editor .cm-content").waitFor();
    const opened = await editors();
    expect(opened.filter((e) => !e.open && e.created)).toEqual([]);
    expect(opened.filter((e) => e.created).length).toBeLessThan(opened.length);

    const cdp = await page.context().newCDPSession(page);
    const doc = await cdp.send("Runtime.evaluate", { expression: "document" });
    const { listeners } = await cdp.send("DOMDebugger.getEventListeners", {
      objectId: doc.result.objectId!,
    });
    expect(listeners.filter((l) => l.type === "selectionchange")).toHaveLength(1);

    // the shared listener still hands a selection made in the page to the focused editor: the first three
    // characters selected natively, then typed over
    const content = cell.locator("jb-code-editor .cm-content");
    await content.click();
    await content.evaluate((el) => {
      const first = document.createTreeWalker(el, NodeFilter.SHOW_TEXT).nextNode() as Text;
      document.getSelection()!.setBaseAndExtent(first, 0, first, 5);
    });
    await expect
      .poll(() =>
        cell.locator("jb-code-editor").evaluate((e) => {
          const root = e.shadowRoot as unknown as { getSelection?: () => Selection | null };
          return (root.getSelection?.() ?? document.getSelection())!.toString();
        }),
      )
      .toBe("const");
    await page.keyboard.type("let");
    await expect.poll(() => content.textContent()).toMatch(/^let groups = /);
    await cdp.detach();
  });

  it("keeps τ in view while its chart is, and the outlier factor while its strip is", async () => {
    for (const [chart, input] of [
      [cellDefining(page, "chosenGroup"), "const tauMs = view"],
      [cellDefining(page, "chosenUpgrade"), "const outlierFactor = view"],
    ] as const) {
      await chart.locator("jb-output svg").last().scrollIntoViewIfNeeded();
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const slider = page.locator("jb-notebook .block.cell", { hasText: input }).locator("input[type=range]");
      const box = (await slider.boundingBox())!;
      const chartBox = (await chart.locator("jb-output svg").last().boundingBox())!;
      const height = page.viewportSize()!.height;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(height);
      expect(chartBox.y).toBeLessThan(height);
      // what is at the slider's centre is the slider (nothing covers it)
      const hit = await slider.evaluate((el) => {
        const r = el.getBoundingClientRect();
        let at: Element | null = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        while (at?.shadowRoot) {
          const inner = at.shadowRoot.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
          if (!inner || inner === at) break;
          at = inner;
        }
        return at === el;
      });
      expect(hit).toBe(true);
    }
  });
});
