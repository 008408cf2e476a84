// Real traces in the workspace: perfetto-frames on catapult's atrace capture (app markers, no FrameTimeline) shows
// every cell past its table list as not applicable with what to record, nothing failed, and the run overview says
// the trace names no app or device; on its sample (Perfetto's jank-CUJ trace) a table's moments read from the run's
// start, with the trace's own clock on hover.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDuration } from "../../charts/format-value";
import { importFiles } from "../../cli/commands/import";
import { serveStatic } from "../../workspace/node/static-server";
import { browserSuite } from "../support/browser-suite";
import { notebookSettled } from "../support/workspace-page";

const TRACE = "test/fixtures/systrace/catapult_decompressed_atrace_data.txt";

type States = { status: string; notApplicable?: string; error?: string }[];
const states = (page: import("playwright-core").Page) =>
  page.evaluate(() => {
    const nb = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook") as unknown as {
      runtime: { states(): { status: string; notApplicable?: string; error?: string }[] };
    };
    return nb.runtime.states().map(({ status, notApplicable, error }) => ({ status, notApplicable, error }));
  }) as Promise<States>;

describe("real traces in the workspace", () => {
  let runId = "";
  const suite = browserSuite(async () => {
    const runs = await mkdtemp(join(tmpdir(), "jb-trace-times-"));
    const [run] = await importFiles([TRACE], runs);
    runId = run!.dir.replace(/^.*\//, "");
    return serveStatic("dist", 0, { "/runs/": join(run!.dir, "..") });
  });

  it("perfetto-frames on a trace without FrameTimeline: not applicable, saying what to record; app and device said to be unnamed", async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${suite.url}?notebook=perfetto-frames&runs=runs/${runId}/`);
    await page.locator("jb-notebook .block.cell").first().waitFor({ timeout: 150_000 });
    await notebookSettled(page);
    const rejected = (await states(page)).filter((s) => s.status === "rejected");
    expect(rejected.filter((s) => s.notApplicable === undefined).map((s) => s.error)).toEqual([]);
    expect(rejected.length).toBeGreaterThan(10);
    for (const s of rejected) expect(s.notApplicable).toMatch(/^no FrameTimeline: record on Android 12\+/);
    await expect.poll(() => page.locator("jb-notebook .not-applicable").count()).toBe(rejected.length);
    expect(await page.locator("jb-notebook .error[role=alert]").count()).toBe(0);
    const row = await page.locator(`jb-run-overview tr.run[data-run="${runId}"]`).innerText();
    expect(row).toContain("app not named (the process with the most atrace slices has no name in the trace)");
    expect(row).toContain("a device the trace does not name (systrace text records none)");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("perfetto-frames on its sample: a table's moments from the run's start, the trace's clock on hover", async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${suite.url}?notebook=perfetto-frames`);
    await page.locator("jb-notebook .block.cell").first().waitFor({ timeout: 150_000 });
    await notebookSettled(page);
    // the chosen frame's slices: the first table with a ts column
    const table = page
      .locator("jb-notebook jb-table")
      .filter({ has: page.locator("[role=columnheader]", { hasText: /^ts$/ }) })
      .first();
    const headers = await table.locator("[role=columnheader]").allInnerTexts();
    const k = headers.findIndex((h) => h.trim() === "ts");
    const cell = table.locator(".row").first().locator("span.c").nth(k);
    const text = await cell.innerText();
    const title = (await cell.getAttribute("title")) ?? "";
    const ts = await page.evaluate(async () => {
      const nb = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook") as unknown as {
        runtime: { value(n: string): Promise<{ getChild(c: string): { get(i: number): unknown } }> };
      };
      return Number((await nb.runtime.value("chosen_slices")).getChild("ts").get(0));
    });
    expect(text).toMatch(/^\+[\d.,]+ (ms|s)$/);
    expect(title).toBe(`${text} from the run's start; ${formatDuration(ts)} on the trace's clock`);
    await page.close();
  });
});
