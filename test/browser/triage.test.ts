// notebooks/triage.md in Chromium, the notebook `npm start` opens: moving the τ slider
// changes the DiagDroid anomaly plot and its report, clicking a group's bar narrows the task timeline to that
// group, and the choice survives τ moves for as long as the group stays anomalous. Expected values are brute force over the sample's raw tasks.arrows/contexts.arrows and its
// ground_truth.json, computed here in Node, not by the notebook's cells.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tableFromIPC } from "apache-arrow";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveStatic, type StaticServer } from "../../workspace/node/static-server";
import { launchChromium } from "../support/chromium";
import { cellDefining, notebookSettled, openWorkspace } from "../support/workspace-page";

const RUN = join(import.meta.dirname, "../../workspace/public/samples/paper-cases-pixel-4a");

interface ContextTruth {
  id: number;
  /** the innermost app frame as Class.method: how the notebook names a group */
  name: string;
  frames: string[];
  mqMs: number;
  meMs: number;
  taskIds: number[];
  queuedTaskIds: number[];
}

/** Per context of the main run: max queuing (started − scheduled) and max execution (ended − started), ms. */
function contextTruth(): ContextTruth[] {
  const tasks = tableFromIPC(readFileSync(join(RUN, "tasks.arrows"))).toArray();
  const contexts = tableFromIPC(readFileSync(join(RUN, "contexts.arrows"))).toArray();
  return contexts.map((c) => {
    const frames = [...c.frames] as string[];
    const app =
      frames.find((f) => !/^(android\.|java\.|javax\.|com\.android\.|dalvik\.|kotlin\.)/.test(f)) ??
      frames[0]!;
    const mine = tasks.filter((t) => t.context_id === c.context_id);
    const ms = (a: bigint, b: bigint) => Number(b - a) / 1e6;
    return {
      id: c.context_id as number,
      name: app.replace(/\(.*$/, "").split(".").slice(-2).join("."),
      frames,
      mqMs: Math.max(...mine.map((t) => ms(t.scheduled, t.started))),
      meMs: Math.max(...mine.map((t) => ms(t.started, t.ended))),
      taskIds: mine.map((t) => Number(t.task_id)).sort((a, b) => a - b),
      queuedTaskIds: mine.filter((t) => t.started > t.scheduled).map((t) => Number(t.task_id)),
    };
  });
}

/** DiagDroid §4: a context's group is anomalous when max(Mq, Me) > τ. */
const anomalousAt = (truth: ContextTruth[], tauMs: number) =>
  truth.filter((c) => Math.max(c.mqMs, c.meMs) > tauMs);

interface Culprit {
  task_ids: number[];
  context_frame: string;
}
const groundTruth = JSON.parse(readFileSync(join(RUN, "ground_truth.json"), "utf8")) as {
  cases: { case: string; culprit: Culprit }[];
};
const culprit = (name: string) => groundTruth.cases.find((c) => c.case === name)!.culprit;

describe("triage notebook in Chromium (DiagDroid section, and DUNE's run pick)", () => {
  let browser: Browser;
  let server: StaticServer;
  let page: Page;
  let errors: string[];
  const truth = contextTruth();

  beforeAll(async () => {
    server = await serveStatic("dist", 0);
    browser = await launchChromium();
    ({ page, errors } = await openWorkspace(browser, server.url)); // no ?notebook=: the default one
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const groupsPlot = () => cellDefining(page, "chosenGroup");
  const report = () => cellDefining(page, "report").locator("jb-output .md");
  const timeline = () =>
    page.locator("jb-notebook .block.cell").filter({ hasText: "queued vs running" }).last();
  const tauSlider = () => cellDefining(page, "tauMs").locator("input[type=range]");
  // a chosen bar is outlined by a second bar mark (class jb-selected) that is not one of the groups
  const bars = (cell: Locator) => cell.locator("svg g[aria-label='bar']:not(.jb-selected) rect");
  const outlined = () => groupsPlot().locator("svg g.jb-selected rect");
  type Runtime = { value(n: string): Promise<unknown>; states(): { defines: string[]; runs: number }[] };
  const value = (name: string) =>
    page.evaluate(
      (n) =>
        (
          document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook") as unknown as {
            runtime: Runtime;
          }
        ).runtime.value(n),
      name,
    );
  /** how many times the cell defining `name` has run */
  const runsOf = (name: string) =>
    page.evaluate(
      (n) =>
        (
          document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook") as unknown as {
            runtime: Runtime;
          }
        ).runtime
          .states()
          .find((s) => s.defines.includes(n))!.runs,
      name,
    );
  const chosenGroup = () => value("chosenGroup");

  /** What the page shows for the anomalous groups: plot marks, the report's groups, contexts and Mq lines. */
  async function shown() {
    const text = await report().innerText();
    return {
      bars: await bars(groupsPlot()).count(),
      names: (await groupsPlot().locator("svg g[aria-label='text'] text").allTextContents()).sort(),
      svg: await groupsPlot().locator("jb-output svg[viewBox]").first().innerHTML(),
      report: text,
      reportContexts: [...text.matchAll(/contexts: ((?:c\d+(?:, )?)+)/g)]
        .flatMap((m) => m[1]!.split(", ").map((c) => Number(c.slice(1))))
        .sort((a, b) => a - b),
      reportMq: [...text.matchAll(/max queuing time: ([\d.]+)ms/g)].map((m) => m[1]).sort(),
    };
  }

  function expected(tauMs: number) {
    const groups = anomalousAt(truth, tauMs);
    return {
      bars: groups.length,
      names: groups.map((c) => c.name).sort(),
      reportContexts: groups.map((c) => c.id).sort((a, b) => a - b),
      reportMq: groups.map((c) => c.mqMs.toFixed(2)).sort(),
    };
  }

  /** Waits until the plot's bar count is the expected one (the notebook re-renders a frame after settling). */
  async function settledAt(tauMs: number) {
    await notebookSettled(page);
    await expect.poll(() => tauSlider().inputValue()).toBe(String(tauMs));
    await expect.poll(() => bars(groupsPlot()).count()).toBe(expected(tauMs).bars);
    return shown();
  }

  it("opens triage.md on the sample runs by default, every cell without error", async () => {
    expect(await page.locator("jb-notebook h1").first().innerText()).toBe(
      "Triage: why does the app stutter?",
    );
    expect(await page.locator("jb-notebook .block.cell .error").count()).toBe(0);
    expect(await page.locator("jb-notebook .status-rejected").count()).toBe(0);
  });

  it("moving the τ slider changes the anomaly plot's marks and the report, as brute force over the raw tasks says", async () => {
    // the hand-chosen thresholds split the sample's groups differently (ground truth: OpenLaw's and FBReader's
    // queues are ~1.2 s, Transportr's 2.4 s, SyncService's second request waits 250 ms and runs 300 ms)
    expect(expected(500).bars).toBe(4);
    expect(expected(2000).bars).toBe(1);
    expect(expected(1210).bars).toBe(3);
    expect(expected(50).bars).toBe(6);

    const at500 = await settledAt(500);
    expect(at500).toMatchObject(expected(500));
    expect(at500.report).toContain("cases of queuing time ≥ 500ms");

    // the slider itself, by keyboard: End is its maximum
    await tauSlider().focus();
    await page.keyboard.press("End");
    const at2000 = await settledAt(2000);
    expect(at2000).toMatchObject(expected(2000));
    expect(at2000.names).toEqual([
      truth.find((c) => c.frames.includes(culprit("transportr").context_frame))!.name,
    ]);
    expect(at2000.report).toContain("cases of queuing time ≥ 2000ms");
    expect(at2000.svg).not.toBe(at500.svg);
    expect(at2000.report).not.toBe(at500.report);

    // Home is its minimum: the short SyncService and Analytics waits count too
    await page.keyboard.press("Home");
    const at50 = await settledAt(50);
    expect(at50).toMatchObject(expected(50));
    expect(at50.report).toContain("cases of queuing time ≥ 50ms");

    // a value typed into the slider's number box, between OpenLaw's Mq (1200 ms) and FBReader's (1219 ms)
    const box = cellDefining(page, "tauMs").locator("input[type=number]");
    await box.fill("1210");
    await box.press("Enter");
    const at1210 = await settledAt(1210);
    expect(at1210).toMatchObject(expected(1210));
    expect(at1210.reportContexts).not.toContain(
      truth.find((c) => c.frames.includes(culprit("openlaw").context_frame))!.id,
    );
    expect(at1210.reportContexts).toContain(
      truth.find((c) => c.frames.includes(culprit("fbreader").context_frame))!.id,
    );

    await box.fill("500");
    await box.press("Enter");
    expect(await settledAt(500)).toMatchObject(expected(500));
    expect(errors).toEqual([]);
  });

  it("clicking a group's bar narrows the timeline to exactly that group's tasks", async () => {
    await settledAt(500);
    const taskTicks = () =>
      timeline().locator("svg g[aria-label='y-axis tick label'] text").allTextContents();
    const anomalousTasks = anomalousAt(truth, 500).flatMap((c) => c.taskIds);
    // nothing chosen: every anomalous group's tasks
    expect((await taskTicks()).map((t) => Number(/task (\d+)/.exec(t)![1])).sort((a, b) => a - b)).toEqual(
      anomalousTasks.sort((a, b) => a - b),
    );
    const ticks = await groupsPlot().locator("svg g[aria-label='y-axis tick label'] text").allTextContents(); // "#rank gN", in rank order
    for (const name of ["transportr", "fbreader", "openlaw"]) {
      const c = culprit(name);
      const context = truth.find((t) => t.frames.includes(c.context_frame))!;
      expect(context.taskIds).toEqual(c.task_ids);
      // the report says which group holds the culprit's context
      const group = Number(
        new RegExp(`group (\\d+) \\(contexts (?:\\d+, )*${context.id}(?:, \\d+)*\\)`).exec(
          await report().innerText(),
        )![1],
      );
      const rank = ticks.findIndex((t) => t.endsWith(` g${group}`));
      await bars(groupsPlot()).nth(rank).click();
      await expect.poll(() => groupsPlot().locator(".selected").innerText()).toBe(`selected group: ${group}`);
      await notebookSettled(page);
      await expect
        .poll(async () =>
          (await taskTicks()).map((t) => Number(/task (\d+)/.exec(t)![1])).sort((a, b) => a - b),
        )
        .toEqual(c.task_ids);
      expect((await taskTicks()).every((t) => t.startsWith(`g${group} task `))).toBe(true);
      expect(await timeline().locator("jb-output .chart").innerText()).toContain(
        `Group ${group}'s tasks: queued vs running`,
      );
      // one running bar per task, one queued bar per task that waited at all
      const timelineBars = bars(timeline());
      expect(await timelineBars.and(page.locator("[fill='#1f77b4']")).count()).toBe(c.task_ids.length);
      expect(await timelineBars.and(page.locator("[fill='#ff7f0e']")).count()).toBe(
        context.queuedTaskIds.length,
      );
    }
    expect(errors).toEqual([]);
  });

  it("a chosen group stays chosen while τ moves and it stays anomalous, and falls back to all groups when it drops out", async () => {
    const box = cellDefining(page, "tauMs").locator("input[type=number]");
    const setTau = async (tauMs: number) => {
      await box.fill(String(tauMs));
      await box.press("Enter");
      return settledAt(tauMs);
    };
    const taskIds = async () =>
      (await timeline().locator("svg g[aria-label='y-axis tick label'] text").allTextContents())
        .map((t) => Number(/task (\d+)/.exec(t)![1]))
        .sort((a, b) => a - b);
    const rankOf = async (group: number) =>
      (await groupsPlot().locator("svg g[aria-label='y-axis tick label'] text").allTextContents()).findIndex(
        (t) => t.endsWith(` g${group}`),
      );
    const openlaw = truth.find((t) => t.frames.includes(culprit("openlaw").context_frame))!; // Mq 1200 ms
    await setTau(500);
    const group = Number(
      new RegExp(`group (\\d+) \\(contexts (?:\\d+, )*${openlaw.id}(?:, \\d+)*\\)`).exec(
        await report().innerText(),
      )![1],
    );
    await bars(groupsPlot())
      .nth(await rankOf(group))
      .click();
    await expect.poll(chosenGroup).toBe(group);

    // τ = 50 ms: six groups now (the plot cell re-ran with new rows), OpenLaw's still among them and still chosen
    await setTau(50);
    expect(await chosenGroup()).toBe(group);
    expect(await groupsPlot().locator(".selected").innerText()).toBe(`selected group: ${group}`);
    await expect.poll(taskIds).toEqual(openlaw.taskIds);
    expect(await timeline().locator("jb-output .chart").innerText()).toContain(
      `Group ${group}'s tasks: queued vs running`,
    );
    // the kept choice is outlined: one outline, on the chosen group's bar
    expect(await outlined().count()).toBe(1);
    expect(await outlined().getAttribute("y")).toBe(
      await bars(groupsPlot())
        .nth(await rankOf(group))
        .getAttribute("y"),
    );

    // τ = 1210 ms: OpenLaw's 1200 ms no longer exceeds it; nothing is chosen, the timeline shows every anomalous group
    await setTau(1210);
    await expect.poll(chosenGroup).toBeNull();
    expect(await groupsPlot().locator(".selected").innerText()).toBe("click a mark to select its group");
    expect(await outlined().count()).toBe(0);
    await expect.poll(taskIds).toEqual(
      anomalousAt(truth, 1210)
        .flatMap((c) => c.taskIds)
        .sort((a, b) => a - b),
    );
    expect(await timeline().locator("jb-output .chart").innerText()).toContain(
      "Every anomalous group's tasks: queued vs running",
    );

    // back to 500 ms: OpenLaw is anomalous again but was not chosen on the plot now shown
    await setTau(500);
    expect(await chosenGroup()).toBeNull();
    await expect.poll(taskIds).toEqual(
      anomalousAt(truth, 500)
        .flatMap((c) => c.taskIds)
        .sort((a, b) => a - b),
    );
    expect(errors).toEqual([]);
  });

  it("DUNE's upgraded-run pick is not made again when the outlier factor changes, and keeps the run picked", async () => {
    const pick = cellDefining(page, "weightsRun").locator("select");
    const options = await pick.locator("option").allTextContents();
    expect(options.filter((o) => /^k9-.*-upgraded$/.test(o)).length).toBe(4);
    const picked = options.find((o) => o !== "k9-pixel-4a-android12-upgraded")!; // not the cell's default
    await pick.selectOption({ label: picked });
    await notebookSettled(page);
    const weightsRun = () => value("weightsRun");
    const pickRuns = () => runsOf("weightsRun");
    expect(await weightsRun()).toBe(picked);
    const runsBefore = await pickRuns();
    const stripRunsBefore = await runsOf("chosenUpgrade");
    const of = cellDefining(page, "outlierFactor").locator("input[type=number]");
    await of.fill("3");
    await of.press("Enter");
    await notebookSettled(page);
    // the upgraded runs do not depend on OF: the select is not made again, and the strip re-ran for the picked run
    expect(await pickRuns()).toBe(runsBefore);
    expect(await runsOf("chosenUpgrade")).toBeGreaterThan(stripRunsBefore);
    expect(await value("chosenUpgrade")).toMatchObject({ run: picked });
    expect(await weightsRun()).toBe(picked);
    expect(await cellDefining(page, "weightsRun").locator("select option:checked").innerText()).toBe(picked);
    expect(errors).toEqual([]);
  });
});
