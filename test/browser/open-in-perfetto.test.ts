// "Open in Perfetto" against a local page that speaks Perfetto UI's postMessage protocol (the real
// ui.perfetto.dev is out of reach here): the workspace module, bundled as the workspace bundles it, opens the
// UI's window, PINGs until the page (which starts listening late, as a loading app does) answers PONG, then
// posts {perfetto: {buffer, title, url}} to that origin once; a silent or closed window is an error, not a hang;
// offline, the workspace says so at once and offers the run's trace as a file.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { build } from "esbuild";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBundleFolder } from "../../bundle/node-io";
import { bundleToPerfetto } from "../../export/bundle-to-perfetto";
import { SAMPLES_DIR } from "../../workspace/node/headless";
import { serveStatic } from "../../workspace/node/static-server";
import { browserSuite } from "../support/browser-suite";
import { launchChromium } from "../support/chromium";

const FAKE_UI = `<!doctype html><title>fake Perfetto UI</title><script>
const mode = new URLSearchParams(location.search).get("mode");
window.got = [];
window.pings = 0;
if (mode === "close") window.close();
else if (mode !== "silent")
  setTimeout(() => addEventListener("message", (e) => {
    if (e.data === "PING") { pings++; e.source.postMessage("PONG", e.origin); return; }
    if (e.data && e.data.perfetto) {
      const p = e.data.perfetto;
      crypto.subtle.digest("SHA-256", p.buffer).then((d) => got.push({ origin: e.origin, title: p.title, url: p.url,
        bytes: p.buffer.byteLength, sha256: Array.from(new Uint8Array(d), (x) => x.toString(16).padStart(2, "0")).join("") }));
    }
  }), 400);
</script>`;

const OPENER = `<!doctype html><title>workspace</title><button id="go">Open in Perfetto</button>
<script src="/bundle.js"></script><script>
window.result = "pending";
document.getElementById("go").onclick = () => {
  const bytes = Uint8Array.from(atob(window.b64), (c) => c.charCodeAt(0));
  jb.openInPerfetto(Promise.resolve({ buffer: bytes.buffer, title: "paper-cases (jankbook)", url: location.href }),
    { origin: window.ui, pingMs: 20, timeoutMs: window.timeoutMs })
    .then(() => (window.result = "sent"), (e) => (window.result = "error: " + e.message));
};
</script>`;

function serve(routes: Record<string, [string, string]>): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const r = routes[new URL(req.url!, "http://x").pathname];
    if (!r) return void res.writeHead(404).end();
    res.writeHead(200, { "Content-Type": r[0] }).end(r[1]);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

describe("openInPerfetto handshake", () => {
  let browser: Browser;
  let app: { server: Server; origin: string };
  let ui: { server: Server; origin: string };
  let trace: Uint8Array;

  beforeAll(async () => {
    const bundle = await build({
      entryPoints: ["workspace/app/open-in-perfetto.ts"],
      bundle: true,
      format: "iife",
      globalName: "jb",
      write: false,
      logLevel: "silent",
    });
    app = await serve({
      "/": ["text/html", OPENER],
      "/bundle.js": ["text/javascript", bundle.outputFiles[0]!.text],
    });
    ui = await serve({ "/": ["text/html", FAKE_UI] });
    trace = bundleToPerfetto((await readBundleFolder(SAMPLES_DIR + "paper-cases-pixel-4a")).tables).trace;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    app?.server.close();
    ui?.server.close();
  });

  async function click(uiUrl: string, timeoutMs = 60_000): Promise<{ opener: Page; popup: Page }> {
    const opener = await browser.newPage();
    await opener.goto(app.origin + "/");
    await opener.evaluate(([b64, u, t]) => Object.assign(window, { b64, ui: u, timeoutMs: t }), [
      Buffer.from(trace).toString("base64"),
      uiUrl,
      timeoutMs,
    ] as const);
    const [popup] = await Promise.all([opener.waitForEvent("popup"), opener.click("#go")]);
    return { opener, popup };
  }

  it("PINGs until the late listener answers PONG, then posts the trace, title and url to the UI's origin once", async () => {
    const { opener, popup } = await click(ui.origin + "/");
    await expect
      .poll(() => opener.evaluate(() => (window as unknown as { result: string }).result))
      .toBe("sent");
    await expect
      .poll(() => popup.evaluate(() => (window as unknown as { got: unknown[] }).got.length))
      .toBe(1);
    const got = (await popup.evaluate(() => (window as unknown as { got: unknown[] }).got)) as {
      origin: string;
      title: string;
      url: string;
      bytes: number;
      sha256: string;
    }[];
    expect(got).toHaveLength(1);
    expect(got[0]!.origin).toBe(app.origin);
    expect(got[0]!.title).toBe("paper-cases (jankbook)");
    expect(got[0]!.url).toBe(app.origin + "/");
    expect(got[0]!.bytes).toBe(trace.length);
    expect(got[0]!.sha256).toBe(createHash("sha256").update(trace).digest("hex"));
    expect(await popup.evaluate(() => (window as unknown as { pings: number }).pings)).toBeGreaterThanOrEqual(
      1,
    );
    await opener.close();
  });

  it("a UI that never answers is an error after the timeout, naming its origin", async () => {
    const { opener } = await click(ui.origin + "/?mode=silent", 600);
    await expect
      .poll(() => opener.evaluate(() => (window as unknown as { result: string }).result))
      .toBe(`error: ${ui.origin} did not answer PING within 0.6 s`);
    await opener.close();
  });

  it("a UI window closed before the handshake is an error", async () => {
    const { opener } = await click(ui.origin + "/?mode=close");
    await expect
      .poll(() => opener.evaluate(() => (window as unknown as { result: string }).result))
      .toBe(`error: the ${ui.origin} window was closed before it took the trace`);
    await opener.close();
  });
});

/** The trace `jankbook export` writes for the sample run the button is tested on. */
async function cliTrace(): Promise<Uint8Array> {
  return bundleToPerfetto((await readBundleFolder(SAMPLES_DIR + "paper-cases-pixel-4a")).tables).trace;
}

/** The workspace with the sample run loaded, and that run's row and Open in Perfetto button once it can be used. */
async function openRun(context: BrowserContext, url: string) {
  const page = await context.newPage();
  await page.goto(`${url}?runs=samples/paper-cases-pixel-4a/`);
  const row = page.locator("jb-run-overview tr.run", { hasText: "paper-cases-pixel-4a" });
  const button = row.getByRole("button", { name: "Open in Perfetto" });
  await button.waitFor({ timeout: 120_000 });
  await page.locator("jb-app .status", { hasText: /runs? loaded/ }).waitFor({ timeout: 120_000 });
  return { page, row, button };
}

describe("the workspace's Open in Perfetto button", () => {
  const suite = browserSuite(() => serveStatic("dist", 0));

  it("sends the run's trace, read back from DuckDB-WASM, to ui.perfetto.dev (answered locally by a route)", async () => {
    const context = await suite.browser.newContext();
    // The real origin, served by the fake page: no network, but the module's default origin and checks hold.
    await context.route("https://ui.perfetto.dev/**", (r) =>
      r.fulfill({ contentType: "text/html", body: FAKE_UI }),
    );
    const { page, row, button } = await openRun(context, suite.url);
    const [popup] = await Promise.all([page.waitForEvent("popup"), button.click()]);
    await expect
      .poll(() => popup.evaluate(() => (window as unknown as { got: unknown[] }).got.length), {
        timeout: 60_000,
      })
      .toBe(1);
    const [got] = (await popup.evaluate(() => (window as unknown as { got: unknown[] }).got)) as {
      origin: string;
      title: string;
      bytes: number;
      sha256: string;
    }[];
    expect(got!.origin).toBe(new URL(suite.url).origin);
    expect(got!.title).toBe("paper-cases-pixel-4a (jankbook)");
    const folder = await cliTrace();
    // DuckDB hands the rows back in the order they were loaded, so the trace is the CLI's, byte for byte.
    expect(got!.bytes).toBe(folder.length);
    expect(got!.sha256).toBe(createHash("sha256").update(folder).digest("hex"));
    expect(await row.locator(".errors").count()).toBe(0);
    await context.close();
  });

  it("offline (ui.perfetto.dev unreachable): says so at once and offers the run's trace as a download", async () => {
    const context = await suite.browser.newContext({ acceptDownloads: true });
    await context.route("https://ui.perfetto.dev/**", (r) => r.abort("internetdisconnected"));
    const { page, row, button } = await openRun(context, suite.url);
    await button.click();
    const link = row.getByRole("link", { name: "Download the trace" });
    await link.waitFor({ timeout: 60_000 });
    expect(await row.locator(".errors").innerText()).toContain(
      "Open in Perfetto: cannot reach https://ui.perfetto.dev (offline, or blocked)",
    );
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toBe("paper-cases-pixel-4a.perfetto-trace");
    const got = readFileSync((await download.path())!);
    expect(createHash("sha256").update(got).digest("hex")).toBe(
      createHash("sha256")
        .update(await cliTrace())
        .digest("hex"),
    );
    await context.close();
  });
});
