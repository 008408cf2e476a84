// Publish says what it did: a download starts without a word from the browser, so the workspace shows a toast
// naming the file and its size, and one saying why when publishing failed (here: its module cannot be fetched).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { serveStatic } from "../../workspace/node/static-server";
import { browserSuite } from "../support/browser-suite";
import { openWorkspace } from "../support/workspace-page";

const QUERY = "?notebook=fixtures/state-last-expression.md";

describe("Publish's feedback in the workspace", () => {
  const suite = browserSuite(() => serveStatic("dist", 0, { "/fixtures/": "test/fixtures/notebooks" }));

  it("a publish that downloads: a toast names the file and its size", async () => {
    const { page, errors } = await openWorkspace(suite.browser, suite.url, QUERY);
    const toast = page.locator("jb-app .toast.publish");
    expect(await toast.count()).toBe(0);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Publish" }).click(),
    ]);
    const bytes = readFileSync((await download.path())!).length;
    const kb = Math.max(1, Math.round(bytes / 1024)).toLocaleString("en-US");
    await toast.waitFor();
    expect(await toast.getAttribute("role")).toBe("status");
    expect(await toast.innerText()).toContain(
      `Published ${download.suggestedFilename()} (${kb} KB): see your downloads`,
    );
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("a publish that fails: an alert says so and why", async () => {
    const { page } = await openWorkspace(suite.browser, suite.url, QUERY);
    // the report's module is loaded on first use: refusing it makes this publish fail
    await page.route(/\/assets\/publish-[^/]*\.js$/, (r) => r.abort());
    await page.getByRole("button", { name: "Publish" }).click();
    const toast = page.locator("jb-app .toast.publish");
    await toast.waitFor();
    expect(await toast.getAttribute("role")).toBe("alert");
    expect(await toast.innerText()).toMatch(/^Publish failed: .+/);
    await page.context().close();
  });
});
