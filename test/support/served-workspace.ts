// A browser test suite's fixtures: the built workspace (dist/) served and Chromium launched, closed after.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { serveStatic, type StaticServer } from "../../workspace/node/static-server";
import { launchChromium } from "./chromium";

/** For a describe block: the built workspace (dist/) served and Chromium launched before its tests, both closed after. */
export function servedWorkspace(): { browser: Browser; server: StaticServer } {
  const suite = {} as { browser: Browser; server: StaticServer };
  beforeAll(async () => {
    suite.server = await serveStatic("dist", 0);
    suite.browser = await launchChromium();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });
  return suite;
}
