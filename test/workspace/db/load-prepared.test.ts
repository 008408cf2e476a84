import { cp, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RecordBatchReader, tableFromArrays, tableFromIPC } from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeStream } from "../../../bundle/encode-stream";
import { newManifest } from "../../../bundle/manifest";
import { folderSource, readBundleFolder, writeBundleFolder } from "../../../bundle/node-io";
import { prepareBundle } from "../../../bundle/prepare-bundle";
import { makeBundleTable } from "../../../bundle/table-builder";
import { createNodeEngine } from "../../../workspace/db/node/duckdb-node";
import { LOAD_CHUNK_ROWS } from "../../../bundle/table-chunks";
import { quoteIdent, type SqlEngine } from "../../../workspace/db/engine";
import { loadPreparedBundle } from "../../../workspace/db/load-prepared";

const SAMPLE = "workspace/public/samples/feed-methods-pixel-4a";

/** Every row of a table, sorted, as JSON: what both load paths must agree on. */
async function dump(engine: SqlEngine, table: string): Promise<string[]> {
  const t = await engine.query(`SELECT * FROM ${quoteIdent(table)}`);
  return t
    .toArray()
    .map((r) => JSON.stringify(r.toJSON(), (_, v) => (typeof v === "bigint" ? String(v) : v)))
    .sort();
}

/** Prepares and loads each run folder in turn, in one engine; every load must report no errors. */
async function loadCleanly(engine: SqlEngine, folders: string[]): Promise<void> {
  for (const folder of folders)
    expect(
      (await loadPreparedBundle(engine, await prepareBundle(folderSource(folder)))).errors,
      folder,
    ).toEqual([]);
}

describe("loadPreparedBundle", () => {
  let streamed: SqlEngine;
  let decoded: SqlEngine;
  beforeAll(async () => {
    [streamed, decoded] = await Promise.all([createNodeEngine(), createNodeEngine()]);
  });
  afterAll(async () => {
    await streamed.close();
    await decoded.close();
  });

  it("puts a real sample run into DuckDB exactly as the decoding path does, overview tables first", async () => {
    const order: string[] = [];
    const report = await loadPreparedBundle(streamed, await prepareBundle(folderSource(SAMPLE)), (name) =>
      order.push(name),
    );
    // the reference: every table decoded by apache-arrow, re-encoded whole, inserted as one stream
    const reference = await readBundleFolder(SAMPLE);
    for (const [name, table] of reference.tables) await decoded.insertArrowStream(name, encodeStream(table));
    expect(report.errors).toEqual([]);
    expect(order.slice(0, 2)).toEqual(["frames", "ui_events"]);
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    expect([...report.tables].sort(byName)).toEqual(
      [...reference.tables].map(([name, t]) => ({ name, rows: t.numRows })).sort(byName),
    );
    for (const [name] of reference.tables)
      expect(await dump(streamed, name), name).toEqual(await dump(decoded, name));
  });

  it("streams a table bigger than one insert in chunks, every row once, and appends a second run by name", async () => {
    const dir = await mkdtemp(join(tmpdir(), "jb-prepared-"));
    const n = LOAD_CHUNK_ROWS + 70_000;
    const ui = (runId: string) =>
      makeBundleTable("ui_events", runId, {
        ts: Array.from({ length: n }, (_, i) => i * 1000),
        seq: Int32Array.from({ length: n }, (_, i) => i),
        kind: { dictionary: ["click", "scroll"], indices: Int32Array.from({ length: n }, (_, i) => i % 2) },
      });
    for (const run of ["a", "b"])
      await writeBundleFolder(join(dir, run), newManifest(run, { app: "com.example" }), {
        ui_events: ui(run),
      });
    await loadCleanly(streamed, [join(dir, "a"), join(dir, "b")]);
    const t = await streamed.query(
      "SELECT run_id, count(*)::INTEGER AS n, count(DISTINCT seq)::INTEGER AS d, sum(ts)::BIGINT AS s, sum(CASE WHEN kind = 'click' THEN 1 ELSE 0 END)::INTEGER AS clicks FROM ui_events WHERE run_id IN ('a', 'b') GROUP BY run_id ORDER BY run_id",
    );
    const s = (BigInt(n) * BigInt(n - 1) * 1000n) / 2n; // sum of i * 1000, computed apart from the engine
    const expected = { n, d: n, s, clicks: Math.floor(n / 2) };
    expect(t.toArray().map((r) => ({ ...r }))).toEqual([
      { run_id: "a", ...expected },
      { run_id: "b", ...expected },
    ]);
  });

  it("lines a later run's chunks up by name when the table it joins has an extra column", async () => {
    const dir = await mkdtemp(join(tmpdir(), "jb-prepared-extra-"));
    const n = LOAD_CHUNK_ROWS + 1000;
    const base = (runId: string) =>
      makeBundleTable("ui_events", runId, {
        ts: Array.from({ length: n }, (_, i) => i),
        seq: Int32Array.from({ length: n }, (_, i) => i),
        kind: { dictionary: ["click"], indices: new Int32Array(n) },
      });
    // a run written by a newer jankbook, with a column this schema does not know, creates the table first
    const withExtra = base("x1").assign(
      tableFromArrays({ pressure: Float64Array.from({ length: n }, () => 0.5) }),
    );
    await mkdir(join(dir, "x1"), { recursive: true });
    await writeFile(join(dir, "x1", "ui_events.arrows"), encodeStream(withExtra));
    await writeFile(
      join(dir, "x1", "manifest.json"),
      JSON.stringify({
        ...newManifest("x1", { app: "a" }),
        tables: { ui_events: { file: "ui_events.arrows", rows: n } },
      }),
    );
    await writeBundleFolder(join(dir, "x2"), newManifest("x2", { app: "a" }), { ui_events: base("x2") });
    const engine = await createNodeEngine();
    try {
      await loadCleanly(engine, [join(dir, "x1"), join(dir, "x2")]);
      const t = await engine.query(
        "SELECT run_id, count(*)::INTEGER AS n, count(pressure)::INTEGER AS with_pressure FROM ui_events GROUP BY run_id ORDER BY run_id",
      );
      expect(t.toArray().map((r) => ({ ...r }))).toEqual([
        { run_id: "x1", n, with_pressure: n },
        { run_id: "x2", n, with_pressure: 0 },
      ]);
    } finally {
      await engine.close();
    }
  });

  it("loads a run again after its tables were dropped, as a test emptying a shared engine drops them", async () => {
    const engine = await createNodeEngine();
    try {
      const dir = await mkdtemp(join(tmpdir(), "jb-prepared-dropped-"));
      const frames = (runId: string) =>
        makeBundleTable("ui_events", runId, {
          ts: [1, 2, 3],
          seq: Int32Array.from([0, 1, 2]),
          kind: { dictionary: ["click"], indices: new Int32Array(3) },
        });
      for (const id of ["d1", "d2", "d3"])
        await writeBundleFolder(join(dir, id), newManifest(id, { app: "a" }), { ui_events: frames(id) });
      await loadCleanly(engine, [join(dir, "d1"), join(dir, "d2")]);
      await engine.query("DROP TABLE ui_events");
      // the loader saw ui_events exist; it is gone now, and the next run's rows make it again
      await loadCleanly(engine, [join(dir, "d3")]);
      const t = await engine.query("SELECT run_id, count(*)::INTEGER AS n FROM ui_events GROUP BY run_id");
      expect(t.toArray().map((r) => ({ ...r }))).toEqual([{ run_id: "d3", n: 3 }]);
      // and the nullable columns a created table gets
      const columns = await engine.query(
        "SELECT column_name FROM duckdb_columns() WHERE table_name = 'ui_events' AND column_name = 'target'",
      );
      expect(columns.numRows).toBe(1);
    } finally {
      await engine.close();
    }
  });

  it("keeps the whole batches of a cut table, names the file and the rows kept, and loads the other tables", async () => {
    const dir = await mkdtemp(join(tmpdir(), "jb-prepared-cut-"));
    await cp(SAMPLE, dir, { recursive: true });
    const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8"));
    manifest.run_id = "cut-run";
    await writeFile(join(dir, "manifest.json"), JSON.stringify(manifest));
    // re-encoded in 500-row batches, then cut at 60 %: what apache-arrow reads of the cut file is what must stay
    const calls = encodeStream(tableFromIPC(await readFile(join(dir, "calls.arrows"))), 500);
    const cut = calls.subarray(0, Math.floor(calls.length * 0.6));
    await writeFile(join(dir, "calls.arrows"), cut);
    let whole = 0;
    try {
      for (const batch of RecordBatchReader.from(cut)) whole += batch.numRows;
    } catch {
      // the cut batch ends the reading
    }
    const engine = await createNodeEngine();
    try {
      const report = await loadPreparedBundle(engine, await prepareBundle(folderSource(dir)));
      expect(report.errors).toHaveLength(1);
      const kept = whole;
      expect(report.errors[0]).toMatch(
        new RegExp(
          `^${dir}/calls\\.arrows: table calls: truncated Arrow stream \\(\\d+ bytes; kept ${kept} rows from \\d+ whole record batches`,
        ),
      );
      const rows = await engine.query("SELECT count(*)::INTEGER AS n FROM calls");
      expect(rows.getChild("n")!.get(0)).toBe(kept);
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThan(manifest.tables.calls.rows);
      expect(report.tables.find((t) => t.name === "frames")?.rows).toBe(manifest.tables.frames.rows);
    } finally {
      await engine.close();
    }
  });
});
