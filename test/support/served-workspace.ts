// The built workspace (dist/, with test/fixtures/notebooks under /fixtures/) served and a Chromium launched for
// one browser test file: registers its beforeAll/afterAll and hands out both once they are up.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { serveStatic, type StaticServer } from "../../workspace/node/static-server";
import { launchChromium } from "./chromium";

export function servedWorkspace(): { browser(): Browser; url(): string } {
  let browser: Browser | undefined;
  let server: StaticServer | undefined;
  beforeAll(async () => {
    server = await serveStatic("dist", 0, { "/fixtures/": "test/fixtures/notebooks" });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  return { browser: () => browser!, url: () => server!.url };
}
