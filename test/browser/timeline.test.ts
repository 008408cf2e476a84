// notebooks/triage.md's call timeline in Chromium (<jb-timeline>): the wheel zooms about the pointer, a drag pans,
// W/S and A/D as in Perfetto UI, a click shows a call's details and Esc clears them, and the counters chart under
// it follows the window on the same x axis. Expected values come from the trace's own calls.arrows and
// methods.arrows, and from the pixel -> time map of the canvas (plot area from x = 160 to 740 of 760 px).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tableFromIPC } from "apache-arrow";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveStatic, type StaticServer } from "../../workspace/node/static-server";
import { launchChromium } from "../support/chromium";
import { cellDefining, notebookSettled, openWorkspace } from "../support/workspace-page";

const RUN = join(import.meta.dirname, "../../workspace/public/samples/feed-methods-pixel-4a");
const calls = tableFromIPC(readFileSync(join(RUN, "calls.arrows")));
const methods = tableFromIPC(readFileSync(join(RUN, "methods.arrows")));
const threads = tableFromIPC(readFileSync(join(RUN, "threads.arrows")));
const enter = Array.from(calls.getChild("enter")!.toArray() as BigInt64Array, Number);
const exit = Array.from(calls.getChild("exit")!.toArray() as BigInt64Array, Number);
const traceEnd = Math.max(...exit);
// the plot area starts after the 160 px of track names and ends 20 px before the canvas's right edge (TIME_AXIS)
const LEFT = 160;
let PLOT = 0;

describe("the call timeline in Chromium (triage notebook)", () => {
  let browser: Browser;
  let server: StaticServer;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    server = await serveStatic("dist", 0);
    browser = await launchChromium();
    ({ page, errors } = await openWorkspace(browser, server.url, "?notebook=triage"));
    // the canvas takes its column's width (jb-timeline.ts)
    PLOT = (await canvas().boundingBox())!.width - LEFT - 20;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const windowNs = () =>
    page.evaluate(() => {
      const nb = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook") as unknown as {
        runtime: { value(n: string): Promise<unknown> };
      };
      return nb.runtime.value("windowNs") as Promise<[number, number]>;
    });
  const timeline = () => cellDefining(page, "windowNs").locator("jb-timeline");
  const canvas = () => timeline().locator("canvas");
  /** The window the component draws (the view's value), straight from the element. */
  const shown = () =>
    canvas().evaluate((c) => {
      const host = (c.getRootNode() as ShadowRoot).host as unknown as { view: { value: [number, number] } };
      return [...host.view.value] as [number, number];
    });
  /** A point at `share` of the plot area, on a whole pixel (Chromium's pointer events are), and its true share. */
  const at = async (wanted: number, rowPx = 0) => {
    const box = (await canvas().boundingBox())!;
    const x = Math.round(box.x + LEFT + wanted * PLOT);
    return { x, y: box.y + 32 + rowPx, box, share: (x - box.x - LEFT) / PLOT };
  };
  /**
   * The notebook's window has caught up with the one drawn and its dependents ran: a gesture hands the window to
   * the runtime on a timer (timeline-view.ts setWindow) that the runtime's settled() cannot see, so poll for it.
   */
  const followed = async () => {
    const w = await shown();
    await expect.poll(windowNs).toEqual(w);
    await notebookSettled(page);
    return w;
  };
  /** The boxes for the window drawn are in: a click hit-tests against them (jb-timeline.ts changed()). */
  const boxesLoaded = () =>
    expect
      .poll(() =>
        canvas().evaluate((c) => {
          // TimelineView.inFlight: the level-of-detail query a window move started, until its boxes arrive
          const host = (c.getRootNode() as ShadowRoot).host as unknown as { view: { inFlight: unknown } };
          return host.view.inFlight === null;
        }),
      )
      .toBe(true);

  it("starts on the whole trace; the wheel zooms in about the pointer, and the notebook's window follows", async () => {
    expect(await windowNs()).toEqual([0, traceEnd]);
    await canvas().scrollIntoViewIfNeeded();
    const p = await at(0.3);
    await page.mouse.move(p.x, p.y);
    const before = await shown();
    const anchor = before[0] + p.share * (before[1] - before[0]);
    for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -200);
    const w = await followed();
    expect(w[1] - w[0]).toBeLessThan((before[1] - before[0]) / 2);
    // the time under the pointer stays under it (to a tenth of a pixel)
    expect(Math.abs((anchor - w[0]) / (w[1] - w[0]) - p.share) * PLOT).toBeLessThan(0.1);
    expect(await windowNs()).toEqual(w);
    // a trackpad pinch arrives as ctrl + wheel: it zooms (out here) about the pointer, never the page
    await page.keyboard.down("Control");
    await page.mouse.wheel(0, 30);
    await page.keyboard.up("Control");
    const pinched = await shown();
    expect(pinched[1] - pinched[0]).toBeCloseTo((w[1] - w[0]) * Math.exp(30 * 0.01), -2);
    expect(Math.abs((anchor - pinched[0]) / (pinched[1] - pinched[0]) - p.share) * PLOT).toBeLessThan(0.1);
    await followed();
    expect(await windowNs()).toEqual(pinched);
  });

  it("a drag pans by what the pointer moved; D and A pan by a tenth, W and S zoom", async () => {
    const w0 = await shown();
    const span = w0[1] - w0[0];
    const p = await at(0.5, 40);
    await page.mouse.move(p.x, p.y);
    await page.mouse.down();
    await page.mouse.move(p.x + Math.round(PLOT / 10), p.y, { steps: 6 });
    await page.mouse.up();
    const w1 = await followed();
    // a tenth of the plot's width to the right: the view moves a tenth of its span earlier
    expect(w1[0]).toBeCloseTo(w0[0] - (span * Math.round(PLOT / 10)) / PLOT, -1);
    expect(w1[1] - w1[0]).toBeCloseTo(span, -1);
    expect(await windowNs()).toEqual(w1);
    await canvas().focus();
    await page.keyboard.press("d");
    const w2 = await shown();
    expect(w2[0]).toBeCloseTo(w1[0] + span / 10, -1);
    await page.keyboard.press("w");
    const w3 = await shown();
    expect(w3[1] - w3[0]).toBeCloseTo(span * 0.8, -1);
    await page.keyboard.press("s");
    await page.keyboard.press("a");
    const w4 = await shown();
    expect(w4[1] - w4[0]).toBeCloseTo(span, -1);
    await followed();
    expect(await windowNs()).toEqual(w4);
  });

  it("a click on a call shows its details (name, start, duration, thread); Esc clears them", async () => {
    // zoom until the main thread's outermost calls are wide, then click the middle of the plot
    await canvas().focus();
    for (let i = 0; i < 12; i++) await page.keyboard.press("w");
    const w = await followed();
    await boxesLoaded();
    const p = await at(0.5);
    await page.mouse.click(p.x, p.y);
    const details = timeline().locator(".details");
    await expect.poll(() => details.count()).toBe(1);
    await expect.poll(() => details.innerText()).toContain("signature");
    // brute force: the main thread's depth-0 call containing the clicked time
    const t = w[0] + 0.5 * (w[1] - w[0]);
    const tid = threads
      .getChild("thread_id")!
      .get(
        Array.from({ length: threads.numRows }).findIndex(
          (_, i) => threads.getChild("name")!.get(i) === "main",
        ),
      ) as number;
    const i = enter.findIndex(
      (e, k) =>
        calls.getChild("thread_id")!.get(k) === tid &&
        calls.getChild("depth")!.get(k) === 0 &&
        e <= t &&
        exit[k]! >= t,
    );
    expect(i).toBeGreaterThanOrEqual(0);
    const m = Array.from({ length: methods.numRows }).findIndex(
      (_, k) => Number(methods.getChild("method_id")!.get(k)) === Number(calls.getChild("method_id")!.get(i)),
    );
    const name = `${methods.getChild("class_name")!.get(m)}.${methods.getChild("method_name")!.get(m)}`;
    const text = await details.innerText();
    expect(text).toContain(name);
    expect(text).toContain(`${(enter[i]! / 1e6).toFixed(3)} ms`);
    expect(text).toContain(`${((exit[i]! - enter[i]!) / 1e6).toFixed(3)} ms`);
    expect(text).toContain(`main ${tid}`);
    expect(await timeline().locator("button.clear").isEnabled()).toBe(true);
    await page.keyboard.press("Escape");
    await expect.poll(() => details.count()).toBe(0);
    expect(await timeline().locator("button.clear").isDisabled()).toBe(true);
    // and the clear button clears a selection too
    await page.mouse.click(p.x, p.y);
    await expect.poll(() => details.count()).toBe(1);
    await timeline().locator("button.clear").click();
    await expect.poll(() => details.count()).toBe(0);
  });

  it("the counters chart under it shows the same window on the same x axis", async () => {
    await notebookSettled(page); // the selection cleared above may still be re-running cells: read the chart drawn last
    const w = await shown();
    const chart: Locator = cellDefining(page, "counterRows", "heapPoints")
      .locator("jb-output svg[viewBox]")
      .first();
    // two tick labels give the chart's pixel -> ms map; its plot area spans the timeline's (x = 160 to 740)
    const ticks = await chart.evaluate((svg) =>
      Array.from(svg.querySelectorAll("g[aria-label='x-axis tick label'] text")).map((t) => ({
        ms: Number(t.textContent!.replace(/,/g, "")),
        x: Number(
          /translate\(([-\d.]+)/.exec(
            t.getAttribute("transform") ?? t.parentElement!.getAttribute("transform") ?? "",
          )?.[1] ?? NaN,
        ),
      })),
    );
    const [a, b] = [ticks[0]!, ticks.at(-1)!];
    const msAt = (x: number) => a.ms + ((x - a.x) * (b.ms - a.ms)) / (b.x - a.x);
    const tol = (w[1] - w[0]) / 1e6 / 200;
    expect(Math.abs(msAt(LEFT) - w[0] / 1e6)).toBeLessThan(tol);
    expect(Math.abs(msAt(LEFT + PLOT) - w[1] / 1e6)).toBeLessThan(tol);
    // and on the page: the chart's left edge is the timeline's
    const [cb, tb] = [(await chart.boundingBox())!, (await canvas().boundingBox())!];
    expect(Math.abs(cb.x - tb.x)).toBeLessThan(1);
    expect(errors).toEqual([]);
  });
});
