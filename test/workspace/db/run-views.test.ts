import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DuckDBInstance } from "@duckdb/node-api";
import { newManifest } from "../../../bundle/manifest";
import { folderSource, readBundleFolder, writeBundleFolder } from "../../../bundle/node-io";
import { packBundle } from "../../../workspace/db/node/pack-bundle";
import { prepareBundle } from "../../../bundle/prepare-bundle";
import { makeBundleTable } from "../../../bundle/table-builder";
import { OVERVIEW_SLICES } from "../../../bundle/overview-sql";
import { overviewChartData } from "../../../workspace/app/overview-data";
import { Session } from "../../../workspace/app/session";
import { createNodeEngine } from "../../../workspace/db/node/duckdb-node";
import { listTables, type SqlEngine } from "../../../workspace/db/engine";
import { loadPreparedBundle } from "../../../workspace/db/load-prepared";
import { runOrigin } from "../../../workspace/db/run-origin";
import { timeOrigin } from "../../../bundle/time-origins";

const SAMPLES = "workspace/public/samples";
const A = "k9-galaxy-s21-android12-r1";
const B = "k9-pixel-2-android9-r1";

async function copyOf(run: string, pack: boolean): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "jb-views-"));
  await cp(join(SAMPLES, run), dir, { recursive: true });
  if (pack) expect((await packBundle(dir)).errors).toEqual([]);
  return dir;
}

/** An engine that counts Arrow inserts: the attach path must make none. */
function counting(engine: SqlEngine) {
  const counter = { inserts: 0 };
  const wrapped: SqlEngine = {
    ...engine,
    query: (sql, params) => engine.query(sql, params),
    insertArrowStream: (...args) => {
      counter.inserts++;
      return engine.insertArrowStream(...args);
    },
    registerDatabaseFile: (name, file) => engine.registerDatabaseFile!(name, file),
  };
  return { engine: wrapped, counter };
}

async function count(engine: SqlEngine, sql: string): Promise<number> {
  return Number((await engine.query(sql)).getChild("n")!.get(0));
}

/** Columns and DuckDB types of `table` in `catalog`, in order. */
async function columns(engine: SqlEngine, catalog: string, table: string): Promise<string[]> {
  const t = await engine.query(
    "SELECT column_name || ' ' || data_type AS c FROM information_schema.columns WHERE table_catalog = ? AND table_schema = 'main' AND table_name = ? ORDER BY ordinal_position",
    [catalog, table],
  );
  return t.toArray().map((r) => String(r.c));
}

/**
 * A long run: frames with distinct durations (the slowest of a slice is unique), a few UI and log events; every
 * 5,000th frame, the first included, is suspect (so UI events' time axis starts at the second frame, log events').
 */
async function longRun(runId: string, n: number, seed: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "jb-views-long-"));
  const period = 16_666_667;
  const durations = Array.from({ length: n }, (_, i) => 4_000_000 + ((i * 7919 + seed) % 1_000_003) * 31 + i);
  await writeBundleFolder(dir, newManifest(runId, { app: "long" }), {
    frames: makeBundleTable("frames", runId, {
      intended_vsync: durations.map((_, i) => 5_000_000_000 + i * period),
      duration: durations,
      deadline: durations.map(() => period),
      jank: durations.map((d) => d > period),
      suspect: durations.map((_, i) => (i % 5000 === 0 ? "negative duration" : null)),
    }),
    ui_events: makeBundleTable("ui_events", runId, {
      ts: [5_100_000_000, 9_000_000_000],
      seq: Int32Array.of(0, 1),
      kind: ["click", "scroll"],
    }),
    log_events: makeBundleTable("log_events", runId, {
      ts: [5_050_000_000n, null],
      kind: ["gc_pause", "anr"],
      dur: [12_500_000n, null],
    }),
  });
  return dir;
}

describe("runs attached from run.duckdb", () => {
  let engines: SqlEngine[] = [];
  const fresh = async () => {
    const e = await createNodeEngine();
    engines.push(e);
    return e;
  };
  let rowsA: Map<string, number>;
  let rowsB: Map<string, number>;
  beforeAll(async () => {
    const [a, b] = await Promise.all([
      readBundleFolder(join(SAMPLES, A)),
      readBundleFolder(join(SAMPLES, B)),
    ]);
    rowsA = new Map([...a.tables].map(([k, t]) => [k, t.numRows]));
    rowsB = new Map([...b.tables].map(([k, t]) => [k, t.numRows]));
  });
  afterAll(async () => {
    for (const e of engines) await e.close();
    engines = [];
  });

  it("attaches a packed run without one Arrow insert, with the tables and column types the streaming load makes", async () => {
    const dir = await copyOf(A, true);
    const { engine, counter } = counting(await fresh());
    const session = new Session(engine);
    const [run] = await session.load([folderSource(dir)]);
    expect(run!.errors).toEqual([]);
    expect(run!.path).toBe("attached");
    expect(counter.inserts).toBe(0);
    expect(run!.rows).toEqual(Object.fromEntries(rowsA));
    for (const [table, n] of rowsA)
      expect(await count(engine, `SELECT count(*)::INT AS n FROM ${table}`)).toBe(n);
    // the reference: the same bundle streamed into DuckDB-WASM by the workspace's streaming path
    const streamed = await fresh();
    await loadPreparedBundle(streamed, await prepareBundle(folderSource(join(SAMPLES, A))));
    for (const table of rowsA.keys())
      expect(await columns(engine, "jb_run_1", table), table).toEqual(await columns(streamed, "jb", table));
    // the schema browser lists each view once, with the run's columns
    const listed = await listTables(engine);
    expect(listed.map((t) => t.name).sort()).toEqual([...rowsA.keys()].sort());
    expect(listed.find((t) => t.name === "frames")!.rows).toBe(rowsA.get("frames"));
  });

  it("unions attached and streamed runs under the same names, in either order", async () => {
    const packed = await copyOf(A, true);
    const plain = join(SAMPLES, B);
    for (const order of [
      [packed, plain],
      [plain, packed],
    ]) {
      const engine = await fresh();
      const session = new Session(engine);
      const runs = await session.load(order.map((d) => folderSource(d)));
      expect(runs.map((r) => r.errors)).toEqual([[], []]);
      expect(runs.map((r) => r.path)).toEqual(order.map((d) => (d === packed ? "attached" : "streamed")));
      for (const table of new Set([...rowsA.keys(), ...rowsB.keys()])) {
        const want = (rowsA.get(table) ?? 0) + (rowsB.get(table) ?? 0);
        expect(await count(engine, `SELECT count(*)::INT AS n FROM ${table}`), `${table} ${order}`).toBe(
          want,
        );
      }
      const byRun = await engine.query(
        "SELECT run_id, count(*)::INT AS n FROM frames GROUP BY run_id ORDER BY run_id",
      );
      expect(byRun.toArray().map((r) => [r.run_id, r.n])).toEqual(
        [
          [A, rowsA.get("frames")],
          [B, rowsB.get("frames")],
        ].sort(),
      );
      expect((await listTables(engine)).map((t) => t.name).filter((n) => n.includes("streamed"))).toEqual([]);
    }
  });

  it("draws a packed long run's overview from its precomputed slices, equal to slicing its frames", async () => {
    const packed = await longRun("long-a", 60_000, 1);
    expect((await packBundle(packed)).errors).toEqual([]);
    const plain = await longRun("long-b", 45_000, 2);
    const reference = await fresh();
    for (const dir of [packed, plain])
      await loadPreparedBundle(reference, await prepareBundle(folderSource(dir)));
    const want = await overviewChartData(reference, true);
    for (const order of [
      [packed, plain],
      [plain, packed],
    ]) {
      const attached = await fresh();
      const runs = await new Session(attached).load(order.map((d) => folderSource(d)));
      expect(runs.map((r) => r.path)).toEqual(order.map((d) => (d === packed ? "attached" : "streamed")));
      // the attached engine reads long-a's slices from jb_overview and slices only long-b's frames
      expect(await count(attached, "SELECT count(*)::INT AS n FROM jb_overview.frames")).toBe(
        OVERVIEW_SLICES,
      );
      expect(
        await count(attached, "SELECT count(DISTINCT run_id)::INT AS n FROM jb_overview.other_frames"),
      ).toBe(1);
      const got = await overviewChartData(attached, true);
      expect(got.bucketed).toBe(true);
      expect(got.totalFrames).toBe(105_000 - 21);
      expect(got.suspectFrames).toBe(12 + 9);
      expect(got.frames.length).toBe(2 * OVERVIEW_SLICES);
      expect(got.events.length).toBe(4);
      expect(got).toEqual(want);
    }
  });

  it("opens a packed long run's overview and start without reading one of its frames", async () => {
    const packed = await longRun("long-a", 60_000, 1);
    expect((await packBundle(packed)).errors).toEqual([]);
    const reference = await fresh();
    await loadPreparedBundle(reference, await prepareBundle(folderSource(packed)));
    const want = await overviewChartData(reference, true);
    // UI events from the first plausible frame, log events from the first frame (overview-sql.ts)
    expect(want.events.map((e) => e.t_s)).toEqual([
      (5_100_000_000 - 5_016_666_667) / 1e9,
      (9_000_000_000 - 5_016_666_667) / 1e9,
    ]);
    expect(want.logEvents.map((e) => e.t_s)).toEqual([0.05]);
    const engine = await fresh();
    const [run] = await new Session(engine).load([folderSource(packed)]);
    expect(run!.path).toBe("attached");
    // the run's start counts its suspect first frame too (as a scan of its frames does)
    expect(timeOrigin("long-a")).toBe(5_000_000_000);
    // from here a frame read through the views fails the query
    await engine.query(
      `CREATE OR REPLACE VIEW frames AS SELECT * FROM jb_run_1.main.frames WHERE error('a frame was read: ' || run_id) IS NULL`,
    );
    await expect(count(engine, "SELECT count(*)::INT AS n FROM frames")).rejects.toThrow(/a frame was read/);
    const got = await overviewChartData(engine, true);
    expect(got.totalFrames).toBe(60_000 - 12);
    expect(got.suspectFrames).toBe(12);
    expect(got).toEqual(want);
    expect(await runOrigin(engine, "long-a", ["frames"])).toBe(5_000_000_000);
  });

  it("leaves out the UI events of a packed run whose every frame is suspect, as a streamed load does", async () => {
    const dir = await mkdtemp(join(tmpdir(), "jb-views-suspect-"));
    await writeBundleFolder(dir, newManifest("all-suspect", { app: "x" }), {
      frames: makeBundleTable("frames", "all-suspect", {
        intended_vsync: [5_000_000_000, 5_016_666_667],
        duration: [-1, -2],
        deadline: [16_666_667, 16_666_667],
        jank: [false, false],
        suspect: ["negative duration", "negative duration"],
      }),
      ui_events: makeBundleTable("ui_events", "all-suspect", {
        ts: [5_100_000_000],
        seq: Int32Array.of(0),
        kind: ["click"],
      }),
    });
    expect((await packBundle(dir)).errors).toEqual([]);
    const reference = await fresh();
    await loadPreparedBundle(reference, await prepareBundle(folderSource(dir)));
    const want = await overviewChartData(reference, true);
    expect(want.events).toEqual([]);
    expect(want.suspectFrames).toBe(2);
    const engine = await fresh();
    expect((await new Session(engine).load([folderSource(dir)]))[0]!.path).toBe("attached");
    expect(await overviewChartData(engine, true)).toEqual(want);
  });

  it("slices live the frames of a run packed before spans had t0_plausible", async () => {
    const packed = await longRun("long-a", 60_000, 1);
    expect((await packBundle(packed)).errors).toEqual([]);
    const reference = await fresh();
    await loadPreparedBundle(reference, await prepareBundle(folderSource(packed)));
    const want = await overviewChartData(reference, true);
    const instance = await DuckDBInstance.create(":memory:");
    const conn = await instance.connect();
    await conn.run(`ATTACH '${join(packed, "run.duckdb")}' AS old`);
    await conn.run("ALTER TABLE old.jb_overview.spans DROP COLUMN t0_plausible");
    conn.closeSync();
    instance.closeSync();
    const engine = await fresh();
    const [run] = await new Session(engine).load([folderSource(packed)]);
    expect(run!.path).toBe("attached");
    expect(
      await count(
        engine,
        "SELECT count(*)::INT AS n FROM information_schema.tables WHERE table_schema = 'jb_overview' AND table_catalog = current_database()",
      ),
    ).toBe(0);
    expect(await overviewChartData(engine, true)).toEqual(want);
  });

  it("streams a run whose database file will not attach, and says why", async () => {
    const dir = await copyOf(A, true);
    await writeFile(join(dir, "run.duckdb"), "not a database");
    const engine = await fresh();
    const [run] = await new Session(engine).load([folderSource(dir)]);
    expect(run!.path).toBe("streamed");
    expect(run!.errors).toHaveLength(1);
    expect(run!.errors[0]).toMatch(/run\.duckdb: could not attach \(.+\); streamed the Arrow files instead$/);
    expect(await count(engine, "SELECT count(*)::INT AS n FROM frames")).toBe(rowsA.get("frames"));
  });

  it("reports a database whose row counts differ from its manifest entry", async () => {
    const dir = await copyOf(A, true);
    const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8"));
    manifest.database.tables.frames += 1;
    await writeFile(join(dir, "manifest.json"), JSON.stringify(manifest));
    const [run] = await new Session(await fresh()).load([folderSource(dir)]);
    expect(run!.path).toBe("attached");
    expect(run!.errors).toEqual([
      `${dir}/run.duckdb: table frames: manifest says ${rowsA.get("frames")! + 1} rows, the database has ${rowsA.get("frames")}`,
    ]);
  });
});
