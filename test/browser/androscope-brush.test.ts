// notebooks/triage.md's AndroScope section in Chromium: dragging across the call timeline (plot.brushX) selects
// a time window that the detail timeline, the counters and the profile take; a click clears it. Expected
// values are the trace's calls straight from its calls.arrows.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tableFromIPC } from "apache-arrow";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveStatic, type StaticServer } from "../../workspace/node/static-server";
import { launchChromium } from "../support/chromium";
import { cellDefining, notebookSettled, openWorkspace } from "../support/workspace-page";

const RUN = join(import.meta.dirname, "../../workspace/public/samples/feed-methods-pixel-4a");
const calls = tableFromIPC(readFileSync(join(RUN, "calls.arrows")));
const traceEndMs = Math.max(...Array.from(calls.getChild("exit")!.toArray() as BigInt64Array, Number)) / 1e6;

describe("triage notebook in Chromium (AndroScope section)", () => {
  let browser: Browser;
  let server: StaticServer;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    server = await serveStatic("dist", 0);
    browser = await launchChromium();
    ({ page, errors } = await openWorkspace(browser, server.url));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const value = (name: string) =>
    page.evaluate((n) => {
      const nb = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook") as unknown as {
        runtime: { value(n: string): Promise<unknown> };
      };
      return nb.runtime.value(n);
    }, name);
  const chart = () => cellDefining(page, "selectedMs").locator("jb-output svg[viewBox]").first();
  const profileText = () =>
    cellDefining(page, "windowCounters", "profile", "byCpu", "profileRows")
      .locator("jb-output .md")
      .innerText();

  it("starts on the whole trace, then a drag over a fifth of the chart selects that part of it everywhere", async () => {
    expect(await value("selectedMs")).toBeNull();
    expect(await value("windowNs")).toEqual([0, traceEndMs * 1e6]);
    const before = await profileText();
    await chart().scrollIntoViewIfNeeded();
    const box = (await chart().boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.4, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, y, { steps: 5 });
    await page.mouse.move(box.x + box.width * 0.6, y, { steps: 5 });
    await page.mouse.up();
    await notebookSettled(page);
    const [a, b] = (await value("selectedMs")) as [number, number];
    // expected from the chart's own x axis: two tick labels give the pixel -> ms map
    const ticks = await chart().evaluate((svg) =>
      Array.from(svg.querySelectorAll("g[aria-label='x-axis tick label'] text")).map((t) => ({
        ms: Number(t.textContent!.replace(/,/g, "")),
        x: Number(
          /translate\(([-\d.]+)/.exec(
            t.getAttribute("transform") ?? t.parentElement!.getAttribute("transform") ?? "",
          )?.[1] ?? NaN,
        ),
      })),
    );
    const [t0, t1] = [ticks[0]!, ticks.at(-1)!];
    // the chart's own width in SVG units (it takes its container's width, issue 19)
    const units = await chart().evaluate((svg) => (svg as SVGSVGElement).viewBox.baseVal.width);
    const toMs = (clientX: number) =>
      t0.ms + ((((clientX - box.x) * units) / box.width - t0.x) * (t1.ms - t0.ms)) / (t1.x - t0.x);
    expect(a).toBeCloseTo(toMs(box.x + box.width * 0.4), 0);
    expect(b).toBeCloseTo(toMs(box.x + box.width * 0.6), 0);
    expect(await value("windowNs")).toEqual([a * 1e6, b * 1e6]);
    await expect
      .poll(() => cellDefining(page, "selectedMs").locator(".selected").innerText())
      .toContain(`selected ${a.toFixed(3)} – ${b.toFixed(3)}`);
    await expect
      .poll(() =>
        cellDefining(page, "windowNs", "detailQuery", "detail").locator("jb-output h2").first().innerText(),
      )
      .toContain(`Main thread, ${a.toFixed(1)} – ${b.toFixed(1)} ms`);
    // the profile counts only the calls overlapping the window
    const profile = (await value("profile")) as { name: string; calls: number }[];
    const doFrame = profile.find((p) => p.name.startsWith("android.view.Choreographer.doFrame "))!;
    const enter = calls.getChild("enter")!.toArray() as BigInt64Array;
    const exit = calls.getChild("exit")!.toArray() as BigInt64Array;
    const overlapping = Array.from(enter, (e, i) => i).filter(
      (i) => Number(enter[i]) < b * 1e6 && Number(exit[i]) > a * 1e6,
    ).length;
    expect(doFrame.calls).toBeGreaterThan(0);
    expect(profile.reduce((s, p) => s + p.calls, 0)).toBe(overlapping);
    expect(await profileText()).not.toBe(before);
    expect(errors).toEqual([]);
  });

  it("a click without a drag clears the window", async () => {
    await chart().scrollIntoViewIfNeeded();
    const box = (await chart().boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.5, box.y + box.height / 2);
    await notebookSettled(page);
    expect(await value("selectedMs")).toBeNull();
    expect(await value("windowNs")).toEqual([0, traceEndMs * 1e6]);
  });
});
