// Parity of loading: one set of runs (a streamed run, a packed one, a copy of the first in another folder) loaded
// by the workspace in Chromium (DuckDB-WASM's browser build, runs by URL) and by the headless runner (loadRuns,
// DuckDB-WASM's Node build, runs by folder) gives the same runs, the same path per run, the same tables with the
// same columns and row counts, and the same verdict on the copy: refused, naming where each came from.
import { cp, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packBundle } from "../../workspace/db/node/pack-bundle";
import { listTables, type TableInfo } from "../../workspace/db/engine";
import { createNodeEngine } from "../../workspace/db/node/duckdb-node";
import { loadRuns } from "../../workspace/node/headless";
import { serveStatic, type StaticServer } from "../../workspace/node/static-server";
import { launchChromium } from "../support/chromium";

const SAMPLES = "workspace/public/samples";
const A = "k9-galaxy-s21-android12-r1";
const B = "k9-pixel-2-android9-r1";
const NAMES = ["a", "packed", "copy"];

/** One run as either host loaded it, its places given relative to the folder of runs. */
interface Loaded {
  place: string;
  run_id?: string;
  path?: string;
  rows: Record<string, number>;
  errors: string[];
  duplicateOf?: string;
}

describe("a set of runs loads the same in Chromium and headless", () => {
  let browser: Browser;
  let server: StaticServer;
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "jb-load-parity-"));
    await cp(join(SAMPLES, A), join(root, "a"), { recursive: true });
    await cp(join(SAMPLES, B), join(root, "packed"), { recursive: true });
    await cp(join(SAMPLES, A), join(root, "copy"), { recursive: true });
    expect((await packBundle(join(root, "packed"))).errors).toEqual([]);
    server = await serveStatic("dist", 0, { "/runs/": root, "/nb/": "bench/fixtures" });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function inBrowser(): Promise<{ runs: Loaded[]; tables: TableInfo[] }> {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${server.url}?notebook=nb/empty.md&runs=${NAMES.map((n) => `runs/${n}/`).join(",")}`);
    await page
      .locator("jb-app .status", { hasText: "2 runs loaded (1 attached, 1 streamed); 1 failed" })
      .waitFor({ timeout: 120_000 });
    // the table list follows the status line
    await expect
      .poll(() =>
        page.evaluate(() => (document.querySelector("jb-app") as unknown as { tables: [] }).tables.length),
      )
      .toBeGreaterThan(0);
    const state = await page.evaluate(() => {
      const app = document.querySelector("jb-app") as unknown as {
        session: {
          runs: {
            label: string;
            manifest?: { run_id: string };
            path?: string;
            rows: Record<string, number>;
            errors: string[];
            duplicateOf?: string;
          }[];
        };
        tables: TableInfo[];
      };
      return {
        runs: app.session.runs.map((r) => ({
          label: r.label,
          run_id: r.manifest?.run_id,
          path: r.path,
          rows: r.rows,
          errors: r.errors,
          duplicateOf: r.duplicateOf,
        })),
        tables: app.tables,
      };
    });
    expect(errors).toEqual([]);
    await page.close();
    const place = (label: string) => label.replace(/^runs\//, "");
    return {
      runs: state.runs.map((r) => ({
        place: place(r.label),
        run_id: r.run_id,
        path: r.path,
        rows: r.rows,
        errors: r.errors.map((e) => e.replaceAll("runs/", "")),
        duplicateOf: r.duplicateOf === undefined ? undefined : place(r.duplicateOf),
      })),
      tables: state.tables,
    };
  }

  async function headless(): Promise<{ runs: Loaded[]; tables: TableInfo[] }> {
    const engine = await createNodeEngine();
    try {
      const runs = await loadRuns(
        NAMES.map((n) => join(root, n)),
        engine,
      );
      const place = (dir: string) => dir.replace(`${root}/`, "");
      return {
        runs: runs.map((r) => ({
          place: place(r.dir),
          run_id: r.failed ? undefined : r.run_id,
          path: r.path,
          rows: Object.fromEntries(r.tables.map((t) => [t.name, t.rows])),
          errors: r.errors.map((e) => e.replaceAll(`${root}/`, "")),
          duplicateOf: r.duplicateOf === undefined ? undefined : place(r.duplicateOf),
        })),
        tables: await listTables(engine),
      };
    } finally {
      await engine.close();
    }
  }

  it("the same runs, paths, tables and row counts, and the copy refused in both, naming both places", async () => {
    const [b, h] = await Promise.all([inBrowser(), headless()]);
    // the verdict, spelled out: the copy is refused as a duplicate of the first, nothing of it loaded
    expect(b.runs.map((r) => [r.place, r.run_id, r.path, r.duplicateOf])).toEqual([
      ["a", A, "streamed", undefined],
      ["packed", B, "attached", undefined],
      ["copy", undefined, undefined, "a"],
    ]);
    expect(b.runs[2]!.errors).toEqual([
      `copy: run ${A} is already loaded from a; not loaded again (remove that one first to load this copy)`,
    ]);
    expect(b.runs[2]!.rows).toEqual({});
    expect(b.runs[0]!.rows.frames).toBeGreaterThan(0);
    expect(b.runs[1]!.rows.frames).toBeGreaterThan(0);
    // and headless agrees on every run and every table
    expect(h.runs).toEqual(b.runs);
    expect(h.tables).toEqual(b.tables);
    expect(b.tables.find((t) => t.name === "frames")!.rows).toBe(
      b.runs[0]!.rows.frames! + b.runs[1]!.rows.frames!,
    );
  });
});
