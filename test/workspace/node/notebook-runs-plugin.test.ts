import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findNotebookRuns, notebookRunsPlugin } from "../../../workspace/node/notebook-runs-plugin";
import { serveStatic } from "../../../workspace/node/static-server";

const ROOT = join(import.meta.dirname, "../../..");
const tmp = mkdtempSync(join(tmpdir(), "jb-nbruns-plugin-"));
const notebooks = join(tmp, "notebooks");
const site = join(tmp, "site");
// bytes no text decoding or compression would leave as they are
const ARROWS = Uint8Array.from({ length: 300 }, (_, i) => (i * 37) & 0xff);

beforeAll(() => {
  for (const run of ["ex/lab/r1", "ex/lab/r2", "top", "top/inner"]) {
    mkdirSync(join(notebooks, run), { recursive: true });
    writeFileSync(join(notebooks, run, "manifest.json"), JSON.stringify({ run_id: run }));
  }
  writeFileSync(join(notebooks, "ex/lab/r1/frames.arrows"), ARROWS);
  mkdirSync(join(notebooks, "ex/lab/no-run"), { recursive: true });
  writeFileSync(join(notebooks, "ex/lab/no-run/secret.txt"), "not a run");
  writeFileSync(join(notebooks, "ex/nb.md"), "# a notebook\n");
  mkdirSync(join(notebooks, ".hidden/r"), { recursive: true });
  writeFileSync(join(notebooks, ".hidden/r/manifest.json"), "{}");
  mkdirSync(site);
  writeFileSync(join(site, "index.html"), "<!doctype html><title>x</title>");
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("findNotebookRuns", () => {
  it("every folder holding a manifest.json, nested runs too, hidden folders left out", () => {
    expect(findNotebookRuns(notebooks)).toEqual(["ex/lab/r1", "ex/lab/r2", "top", "top/inner"]);
    expect(findNotebookRuns(join(tmp, "nowhere"))).toEqual([]);
  });

  it("the repository's notebooks/: the nine gfxinfo-lab runs (ls notebooks/examples/gfxinfo-lab)", () => {
    expect(findNotebookRuns(join(ROOT, "notebooks")).filter((r) => r.includes("gfxinfo-lab/"))).toHaveLength(
      9,
    );
  });
});

describe("notebookRunsPlugin", () => {
  const expectRunFiles = async (url: string) => {
    const index = await fetch(`${url}notebook-runs.json`);
    expect(index.headers.get("content-type")).toMatch(/application\/json/);
    expect(await index.json()).toEqual(["ex/lab/r1", "ex/lab/r2", "top", "top/inner"]);
    const arrows = await fetch(`${url}notebooks/ex/lab/r1/frames.arrows`);
    expect(arrows.status).toBe(200);
    expect(arrows.headers.get("content-encoding")).toBeNull();
    expect(new Uint8Array(await arrows.arrayBuffer())).toEqual(ARROWS);
    expect(await (await fetch(`${url}notebooks/top/inner/manifest.json`)).json()).toEqual({
      run_id: "top/inner",
    });
    // only files of run folders: not a notebook, not a folder without a manifest
    for (const path of ["notebooks/ex/nb.md", "notebooks/ex/lab/no-run/secret.txt"])
      expect(await (await fetch(`${url}${path}`)).text()).not.toMatch(/a notebook|not a run/);
  };

  it("dev: serves the runs from the folder as they are now", async () => {
    let server: ViteDevServer | undefined;
    try {
      server = await createServer({
        configFile: false,
        root: site,
        logLevel: "silent",
        plugins: [notebookRunsPlugin(notebooks)],
        server: { port: 0, host: "127.0.0.1" },
      });
      await server.listen();
      const { port } = server.httpServer!.address() as AddressInfo;
      await expectRunFiles(`http://127.0.0.1:${port}/`);
    } finally {
      await server?.close();
    }
  });

  it("build: copies them into the output, which workspace/node/static-server.ts serves", async () => {
    const outDir = join(tmp, "dist");
    await build({
      configFile: false,
      root: site,
      logLevel: "silent",
      plugins: [notebookRunsPlugin(notebooks)],
      build: { outDir, emptyOutDir: true },
    });
    expect(readFileSync(join(outDir, "notebooks/ex/lab/r1/frames.arrows"))).toEqual(Buffer.from(ARROWS));
    const server = await serveStatic(outDir);
    try {
      await expectRunFiles(server.url);
    } finally {
      await server.close();
    }
  });
});
