// A real systrace (catapult's atrace capture: threads and scheduler states, no frames, tasks or method trace) opened
// with the triage notebook: the cells that read a table the run lacks show "not applicable" with what the run would
// need, in grey, and nothing is shown as failed.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readBundleFolder } from "../../bundle/node-io";
import { TABLE_NAMES } from "../../bundle/schema";
import { tableSource } from "../../bundle/table-sources";
import { importFiles } from "../../cli/commands/import";
import { serveStatic } from "../../workspace/node/static-server";
import { browserSuite } from "../support/browser-suite";
import { notebookSettled } from "../support/workspace-page";

const TRACE = "test/fixtures/systrace/catapult_atrace_data.txt";

describe("cells whose tables the run lacks, in the workspace", () => {
  let lacking: string[] = [];
  const suite = browserSuite(async () => {
    const runs = await mkdtemp(join(tmpdir(), "jb-not-applicable-"));
    const [run] = await importFiles([TRACE], runs);
    const bundle = await readBundleFolder(run!.dir);
    expect(bundle.errors).toEqual([]);
    // the tables the run has, from its own manifest: every other table of the contract is one it lacks
    const has = new Set(["runs", ...bundle.tables.keys()]);
    lacking = TABLE_NAMES.filter((t) => !has.has(t));
    return serveStatic("dist", 0, { "/runs/": join(run!.dir, "..") });
  });

  it("triage on a systrace: cells reading absent tables say what the run would need; none is failed", async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${suite.url}?notebook=triage&runs=runs/import-catapult_atrace_data/`);
    await page.locator("jb-notebook .block.cell").first().waitFor({ timeout: 150_000 });
    await notebookSettled(page);
    const states = await page.evaluate(() => {
      const nb = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook") as unknown as {
        runtime: { states(): { status: string; notApplicable?: string; error?: string }[] };
      };
      return nb.runtime
        .states()
        .map(({ status, notApplicable, error }) => ({ status, notApplicable, error }));
    });
    const rejected = states.filter((s) => s.status === "rejected");
    expect(rejected.filter((s) => s.notApplicable === undefined).map((s) => s.error)).toEqual([]);
    expect(rejected.length).toBeGreaterThan(0);
    // every reason given is the line for a table the manifest does not list
    const reasons = new Set(rejected.map((s) => s.notApplicable));
    const allowed = new Set(lacking.map(tableSource));
    expect([...reasons].filter((r) => !allowed.has(r!))).toEqual([]);
    expect(reasons.has(tableSource("methods"))).toBe(true);

    // as the reader sees it: a grey note per such cell, the bar says "not applicable", no red error box
    const notes = page.locator("jb-notebook .not-applicable");
    await expect.poll(() => notes.count()).toBe(rejected.length);
    expect(await page.locator("jb-notebook .bar .status-not-applicable").count()).toBe(rejected.length);
    expect(await page.locator("jb-notebook .error[role=alert]").count()).toBe(0);
    const methodNote = notes.filter({ hasText: "no method trace" }).first();
    expect(await methodNote.innerText()).toBe(`not applicable to these runs: ${tableSource("methods")}`);
    expect(errors).toEqual([]);
    await page.close();
  });
});
