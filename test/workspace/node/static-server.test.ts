import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveWorkspace, type StaticServer } from "../../../workspace/node/static-server";

const tmp = mkdtempSync(join(tmpdir(), "jb-serve-workspace-"));
const dist = join(tmp, "dist");
const notebooks = join(tmp, "notebooks");
// bytes a text decoding or a compression on the way would not leave as they are
const ARROWS = Uint8Array.from({ length: 5000 }, (_, i) => (i * 31) & 0xff);
let server: StaticServer;

beforeAll(async () => {
  mkdirSync(join(dist, "assets"), { recursive: true });
  writeFileSync(join(dist, "index.html"), "<!doctype html><title>jankbook</title>");
  writeFileSync(join(dist, "assets", "index-C5WM4AJG.js"), "export {};");
  mkdirSync(join(notebooks, "ex/r1"), { recursive: true });
  writeFileSync(join(notebooks, "ex/r1/manifest.json"), '{"run_id":"r1"}');
  writeFileSync(join(notebooks, "ex/r1/frames.arrows"), ARROWS);
  writeFileSync(join(notebooks, "ex/nb.md"), "# not a run file\n");
  server = await serveWorkspace(dist, notebooks);
});
afterAll(async () => {
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(server.url + path, { headers });

describe("serveWorkspace (npm start)", () => {
  it("lists the runs beside notebooks live: a run added while serving shows on the next request", async () => {
    expect(await (await get("notebook-runs.json")).json()).toEqual(["ex/r1"]);
    mkdirSync(join(notebooks, "ex/r2"));
    writeFileSync(join(notebooks, "ex/r2/manifest.json"), '{"run_id":"r2"}');
    expect(await (await get("notebook-runs.json")).json()).toEqual(["ex/r1", "ex/r2"]);
  });

  it("serves a run's files as they are, uncompressed even when the browser accepts gzip", async () => {
    const r = await get("notebooks/ex/r1/frames.arrows", { "accept-encoding": "gzip, br" });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/vnd.apache.arrow.stream");
    expect(r.headers.get("content-encoding")).toBeNull();
    expect(r.headers.get("content-length")).toBe("5000");
    expect(new Uint8Array(await r.arrayBuffer())).toEqual(ARROWS);
  });

  it("serves nothing else under notebooks/ and nothing above it", async () => {
    expect((await get("notebooks/ex/nb.md")).status).toBe(404);
    expect((await get("notebooks/ex/r1/..%2F..%2F..%2Fdist%2Findex.html")).status).not.toBe(200);
  });

  it("caches hashed assets for good and revalidates the rest by ETag", async () => {
    const asset = await get("assets/index-C5WM4AJG.js");
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const page = await get("");
    expect(page.headers.get("cache-control")).toBe("no-cache");
    const etag = page.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);
    const again = await get("", { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect((await get("", { "if-none-match": '"other"' })).status).toBe(200);
  });
});
