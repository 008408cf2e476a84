// `jankbook serve` end to end (docs/scaling.md): the command started as a user starts it, on a lake made here
// and a sample run; the page it prints draws its chart and runs its cells on the server's native DuckDB, and a
// cell reaching for the file system is refused with the server's message; its runs list names the served run.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lakeAdd } from "../../workspace/db/node/lake-add";
import { readBundleFolder } from "../../bundle/node-io";
import { launchChromium } from "../support/chromium";
import { notebookSettled, notebookSnapshot } from "../support/workspace-page";

const SAMPLES = "workspace/public/samples";
const A = "k9-pixel-2-android9-r1";
const B = "k9-galaxy-s21-android12-r1";

const NOTEBOOK = `---
title: Serve test notebook
---

\`\`\`sql id=lab
SELECT count(*)::INTEGER AS runs FROM lake.run_summary
\`\`\`

\`\`\`sql id=mine
SELECT count(*)::INTEGER AS n FROM frames WHERE run_id = \${"${A}"}
\`\`\`

\`\`\`sql id=passwd
SELECT * FROM read_csv('/etc/passwd')
\`\`\`
`;

describe("jankbook serve in Chromium", () => {
  let browser: Browser;
  let serve: ChildProcess;
  let url = "";
  let frames = 0;

  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), "jb-serve-browser-"));
    const lake = join(dir, "lake");
    await lakeAdd(lake, [join(SAMPLES, A), join(SAMPLES, B)]);
    await writeFile(join(dir, "lab.md"), NOTEBOOK);
    frames = (await readBundleFolder(join(SAMPLES, A))).tables.get("frames")!.numRows;
    serve = spawn(
      process.execPath,
      [
        resolve("cli/jankbook.js"),
        "serve",
        "--lake",
        lake,
        "--runs",
        join(SAMPLES, A),
        "--notebook",
        join(dir, "lab.md"),
      ],
      { env: { ...process.env, JANKBOOK_FROM_SOURCES: "1" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    serve.stderr!.on("data", (d) => (stderr += d));
    url = await new Promise<string>((ok, fail) => {
      let out = "";
      serve.stdout!.on("data", (d) => {
        out += d;
        if (out.includes("\n")) ok(out.split("\n")[0]!);
      });
      serve.on("exit", (code) => fail(new Error(`jankbook serve exited ${code}: ${stderr}`)));
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    serve?.kill("SIGTERM");
  });

  it("prints a loopback URL whose page queries the server: chart, cells, and a refused read_csv", async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?engine=server&notebook=notebooks\/lab\.md$/);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const sql: string[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/api/sql")) sql.push(r.postData() ?? "");
    });
    await page.goto(url);
    await page
      .locator("jb-app .status", { hasText: "engine: jankbook serve at http://127.0.0.1:" })
      .waitFor({ timeout: 60_000 });
    expect(await page.locator("jb-app .status").innerText()).toMatch(/1 run, lake: .*lake\.frames/);
    // the runs list says what the server loaded, not that nothing is loaded
    const summary = page.locator("jb-run-overview summary");
    await expect.poll(() => summary.innerText()).toBe(`1 run loaded by jankbook serve: ${A}`);
    // the chart is drawn from the server's frames: one dot per frame of the run it loaded
    const dots = page.locator("#frames jb-plot svg g[aria-label='dot'] circle");
    await expect.poll(() => dots.count(), { timeout: 60_000 }).toBe(frames);
    // no DuckDB-WASM in this page: nothing fetched its wasm
    const wasm = await page.evaluate(
      () => performance.getEntriesByType("resource").filter((e) => e.name.endsWith(".wasm")).length,
    );
    expect(wasm).toBe(0);

    await page.locator("jb-notebook .block.cell").first().waitFor({ timeout: 60_000 });
    await notebookSettled(page);
    const snap = await notebookSnapshot(page);
    const rows = (id: string) =>
      (snap.cells.find((c) => c.id === id || c.name === id)?.value as { table?: { rows: unknown[][] } })
        ?.table?.rows;
    expect(rows("lab")).toEqual([[2]]); // two runs were added to the lake
    expect(rows("mine")).toEqual([[frames]]); // the run's frames, the run id bound as a param
    const cell = (id: string) => page.locator(`jb-notebook .block.cell[data-cell="${id}"]`);
    const refusal = cell("passwd").locator(".error");
    await refusal.waitFor({ timeout: 60_000 });
    expect(await refusal.innerText()).toMatch(
      /^refused by jankbook serve: read_csv\(\) reads files or the network/,
    );
    expect(sql.some((s) => s.includes("read_csv('/etc/passwd')"))).toBe(true);
    expect(await page.locator("body").innerText()).not.toContain("root:x:0:0");
    expect(errors).toEqual([]);
    await page.close();
  });
});
