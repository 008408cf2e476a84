// The built workspace (dist/, with test/fixtures/notebooks under /fixtures/) served and Chromium launched for
// one describe block of a browser test file (browser-suite.ts): read `browser` and `url` inside its tests.
import { serveStatic } from "../../workspace/node/static-server";
import { browserSuite, type BrowserSuite } from "./browser-suite";

export function servedWorkspace(
  mounts: Record<string, string> = { "/fixtures/": "test/fixtures/notebooks" },
): BrowserSuite {
  return browserSuite(() => serveStatic("dist", 0, mounts));
}
