// `jankbook export`: the command writes the trace; --open's one-shot server answers Perfetto UI's fetch once,
// with the CORS header for the UI's origin, and then stops (checked with fetch, not against the real site).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../cli/main";
import { serveTraceOnce } from "../../export/serve-trace-once";
import { SAMPLES_DIR } from "../../workspace/node/headless";
import { decode, subs } from "./proto-decode";

const dir = mkdtempSync(join(tmpdir(), "export-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `jankbook export <the paper-cases sample> ...args`, in this process: its exit code. */
const exportSample = (...args: string[]) =>
  main(["node", "jankbook", "export", SAMPLES_DIR + "paper-cases-pixel-4a", ...args]);

describe("jankbook export", () => {
  it("writes a Perfetto trace of the sample run through the registered command", async () => {
    const out = join(dir, "run.perfetto-trace");
    const code = await exportSample("--out", out);
    expect(code).toBe(0);
    const packets = subs(decode(new Uint8Array(readFileSync(out))), 1);
    expect(packets.filter((p) => p.has(11)).length).toBeGreaterThan(2 * 416);
  });

  it("refuses an unknown format by name", async () => {
    const code = await exportSample("--out", join(dir, "x"), "--format", "json");
    expect(code).toBe(1);
  });
});

describe("serveTraceOnce", () => {
  it("serves the file once to the UI's origin, answers the private-network preflight, 404s the rest, then stops", async () => {
    const file = join(dir, "my trace.pftrace");
    const bytes = new Uint8Array([10, 3, 1, 2, 3, 255]);
    writeFileSync(file, bytes);
    const s = await serveTraceOnce(file, { port: 0, origin: "https://ui.perfetto.dev/some/path" });
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/my%20trace\.pftrace$/);
    expect(s.link).toBe(`https://ui.perfetto.dev/#!/?url=${s.url}&referrer=jankbook`);
    const pre = await fetch(s.url, {
      method: "OPTIONS",
      headers: { "Access-Control-Request-Private-Network": "true" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-private-network")).toBe("true");
    expect((await fetch(s.url.replace("my%20trace", "other"))).status).toBe(404);
    const r = await fetch(s.url);
    expect(r.status).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBe("https://ui.perfetto.dev");
    expect(new Uint8Array(await r.arrayBuffer())).toEqual(bytes);
    await s.served;
    await expect(fetch(s.url)).rejects.toThrow();
  });

  it("says what holds the port when it is taken", async () => {
    const file = join(dir, "a.pftrace");
    writeFileSync(file, new Uint8Array([1]));
    const first = await serveTraceOnce(file, { port: 0 });
    const port = Number(new URL(first.url).port);
    await expect(serveTraceOnce(file, { port })).rejects.toThrow(
      new RegExp(`127\\.0\\.0\\.1:${port} is in use`),
    );
    await first.close();
  });
});
