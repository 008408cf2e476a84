// The one run loader (workspace/db/run-loader.ts) as the headless runner uses it, on both engines: a set of runs
// with a streamed one, a packed one and a copy of the first (same run_id, another folder) loads as the browser
// loads it: the packed run attached, the copy refused naming both folders, the rows exactly the bundles' own
// (counted by decoding the Arrow files, not through the loader).
import { cp, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBundleFolder } from "../../../bundle/node-io";
import { packBundle } from "../../../workspace/db/node/pack-bundle";
import type { SqlEngine } from "../../../workspace/db/engine";
import { createNativeEngine } from "../../../workspace/db/node/duckdb-native";
import { createNodeEngine } from "../../../workspace/db/node/duckdb-node";
import { loadRuns } from "../../../workspace/node/headless";

const SAMPLES = "workspace/public/samples";
const A = "k9-galaxy-s21-android12-r1";
const B = "k9-pixel-2-android9-r1";

/** table -> rows of one run, from its Arrow files (runs: the manifest's one row). */
async function bundleRows(dir: string): Promise<Record<string, number>> {
  const bundle = await readBundleFolder(dir);
  expect(bundle.errors).toEqual([]);
  return Object.fromEntries([...bundle.tables].map(([name, t]) => [name, t.numRows]));
}

/** table -> run_id -> rows, by SQL over the names notebooks query. */
async function rowsByRun(engine: SqlEngine, tables: readonly string[]) {
  const out: Record<string, Record<string, number>> = {};
  for (const table of tables) {
    const t = await engine.query(
      `SELECT run_id, count(*)::INTEGER AS n FROM "${table}" GROUP BY run_id ORDER BY run_id`,
    );
    out[table] = Object.fromEntries(t.toArray().map((r) => [String(r.run_id), Number(r.n)]));
  }
  return out;
}

describe("headless loadRuns goes through the one run loader", () => {
  let dirs: { a: string; packed: string; copy: string };
  let truth: { a: Record<string, number>; b: Record<string, number> };

  beforeAll(async () => {
    const root = await mkdtemp(join(tmpdir(), "jb-run-loader-"));
    dirs = { a: join(root, "a"), packed: join(root, "packed"), copy: join(root, "copy") };
    await cp(join(SAMPLES, A), dirs.a, { recursive: true });
    await cp(join(SAMPLES, A), dirs.copy, { recursive: true });
    await cp(join(SAMPLES, B), dirs.packed, { recursive: true });
    expect((await packBundle(dirs.packed)).errors).toEqual([]);
    truth = { a: await bundleRows(dirs.a), b: await bundleRows(dirs.packed) };
  });

  const engines: [string, () => Promise<SqlEngine>][] = [
    ["DuckDB-WASM", createNodeEngine],
    ["native DuckDB", createNativeEngine],
  ];
  const opened: SqlEngine[] = [];
  afterAll(async () => {
    for (const e of opened) await e.close();
  });

  it.each(engines)(
    "%s: the packed run is attached, the copy refused naming both folders, the rows the bundles' own",
    async (_name, create) => {
      const engine = await create();
      opened.push(engine);
      const runs = await loadRuns([dirs.a, dirs.packed, dirs.copy], engine);
      expect(runs.map((r) => [r.run_id, r.path, r.failed ?? false, r.duplicateOf])).toEqual([
        [A, "streamed", false, undefined],
        [B, "attached", false, undefined],
        [A, undefined, true, dirs.a],
      ]);
      expect(runs[0]!.errors).toEqual([]);
      expect(runs[1]!.errors).toEqual([]);
      expect(runs[2]!.errors).toEqual([
        `${dirs.copy}: run ${A} is already loaded from ${dirs.a}; not loaded again (remove that one first to load this copy)`,
      ]);
      expect(Object.fromEntries(runs[0]!.tables.map((t) => [t.name, t.rows]))).toEqual(truth.a);
      expect(Object.fromEntries(runs[1]!.tables.map((t) => [t.name, t.rows]))).toEqual(truth.b);
      expect(runs[2]!.tables).toEqual([]);
      // the copy added no rows: every table holds each run's rows once
      const tables = [...new Set([...Object.keys(truth.a), ...Object.keys(truth.b)])].sort();
      const expected = Object.fromEntries(
        tables.map((t) => [
          t,
          Object.fromEntries(
            [
              [A, truth.a[t]],
              [B, truth.b[t]],
            ].filter(([, n]) => n !== undefined),
          ),
        ]),
      );
      expect(await rowsByRun(engine, tables)).toEqual(expected);
    },
  );

  it("one engine shared across notebooks: a folder loaded by an earlier call is reused, not refused", async () => {
    const engine = await createNodeEngine();
    opened.push(engine);
    const first = await loadRuns([dirs.a], engine);
    const second = await loadRuns([dirs.packed, dirs.a], engine);
    expect(second.map((r) => [r.run_id, r.path, r.failed ?? false])).toEqual([
      [B, "attached", false],
      [A, "streamed", false],
    ]);
    expect(second[1]!.tables).toEqual(first[0]!.tables);
    expect(await rowsByRun(engine, ["frames"])).toEqual({
      frames: { [A]: truth.a.frames, [B]: truth.b.frames },
    });
  });

  it("the same folder twice in one call is a duplicate, as the same URL twice is in the browser", async () => {
    const engine = await createNodeEngine();
    opened.push(engine);
    const runs = await loadRuns([dirs.a, dirs.a], engine);
    expect(runs.map((r) => [r.failed ?? false, r.duplicateOf])).toEqual([
      [false, undefined],
      [true, dirs.a],
    ]);
    expect(runs[1]!.errors.join()).toContain(`already loaded from ${dirs.a}`);
    expect(await rowsByRun(engine, ["frames"])).toEqual({ frames: { [A]: truth.a.frames } });
  });
});
