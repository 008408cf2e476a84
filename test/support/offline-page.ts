// Opens a published HTML file from file:// with every other request aborted, recording what the page tried to
// fetch and every console error/warning or uncaught exception, for the publish tests to assert on.
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";

export interface OfflineWatch {
  problems: string[];
  requests: string[];
}

export async function openOffline(page: Page, file: string): Promise<OfflineWatch> {
  const watch: OfflineWatch = { problems: [], requests: [] };
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning")
      watch.problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => watch.problems.push(`pageerror: ${e.message}`));
  await page.route("**", (route) => {
    watch.requests.push(route.request().url());
    return route.request().url().startsWith("file:") ? route.continue() : route.abort();
  });
  await page.goto(pathToFileURL(file).href);
  return watch;
}
