// One Chromium and one server for a describe block: started before its tests, closed after them.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import type { StaticServer } from "../../workspace/node/static-server";
import { launchChromium } from "./chromium";

export interface BrowserSuite {
  readonly browser: Browser;
  readonly url: string;
}

/** Call inside describe(); read `browser` and `url` inside its tests. */
export function browserSuite(serve: () => Promise<StaticServer>): BrowserSuite {
  let browser: Browser | undefined;
  let server: StaticServer | undefined;
  beforeAll(async () => {
    server = await serve();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  return {
    get browser() {
      if (!browser) throw new Error("browserSuite: Chromium is not started (read it inside a test)");
      return browser;
    },
    get url() {
      if (!server) throw new Error("browserSuite: the server is not started (read it inside a test)");
      return server.url;
    },
  };
}
