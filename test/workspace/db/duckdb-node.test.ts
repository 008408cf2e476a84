import { describe, expect, it } from "vitest";
import { newManifest } from "../../../bundle/manifest";
import { makeBundleTable } from "../../../bundle/table-builder";
import { createNodeEngine } from "../../../workspace/db/node/duckdb-node";
import { LOAD_CHUNK_ROWS } from "../../../bundle/table-chunks";
import { listTables } from "../../../workspace/db/engine";
import { loadTables } from "../../support/memory-bundle";
import { suiteEngine } from "../../support/suite-engine";

function bundleFor(runId: string, n: number) {
  const manifest = newManifest(runId, { app: "com.example", device_model: `Pixel ${runId}` });
  const ui = makeBundleTable("ui_events", runId, {
    ts: Array.from({ length: n }, (_, i) => i * 1000),
    seq: Array.from({ length: n }, (_, i) => i),
    kind: Array.from({ length: n }, (_, i) => (i % 2 ? "click" : "scroll")),
  });
  return [manifest, { ui_events: ui }] as const;
}

describe("createNodeEngine", () => {
  const engine = suiteEngine(createNodeEngine);

  it("registers a bundle's tables and appends a second run by column name", async () => {
    await loadTables(engine, ...bundleFor("a", 3));
    const report = await loadTables(engine, ...bundleFor("b", 5));
    expect(report.errors).toEqual([]);
    const t = await engine.query(
      "SELECT run_id, count(*)::INTEGER AS n, sum(ts)::BIGINT AS s FROM ui_events GROUP BY run_id ORDER BY run_id",
    );
    expect(t.toArray().map((r) => ({ ...r }))).toEqual([
      { run_id: "a", n: 3, s: 3000n },
      { run_id: "b", n: 5, s: 10000n },
    ]);
    const runs = await engine.query("SELECT run_id, device_model, complete FROM runs ORDER BY run_id");
    expect(runs.toArray().map((r) => r.device_model)).toEqual(["Pixel a", "Pixel b"]);
  });

  it("loads a table bigger than one insert chunk in chunks, every row once and in order", async () => {
    const n = LOAD_CHUNK_ROWS * 2 + 17; // two full chunks and a short one
    await loadTables(engine, ...bundleFor("big", n));
    const t = await engine.query(
      "SELECT count(*)::INTEGER AS n, count(DISTINCT seq)::INTEGER AS distinct_seq, sum(ts)::BIGINT AS s, max(seq)::INTEGER AS last FROM ui_events WHERE run_id = 'big'",
    );
    // sum of i * 1000 over 0..n-1, computed independently of the engine
    const expectedSum = (BigInt(n) * BigInt(n - 1) * 1000n) / 2n;
    expect({ ...t.toArray()[0] }).toEqual({ n, distinct_seq: n, s: expectedSum, last: n - 1 });
    await engine.query("DELETE FROM ui_events WHERE run_id = 'big'");
  });

  it("registers the run overview's tables first and says what is left after each", async () => {
    const manifest = newManifest("order", { app: "com.example" });
    const frames = makeBundleTable("frames", "order", {
      intended_vsync: [0],
      duration: [1],
      deadline: [2],
      jank: [false],
    });
    const ui = makeBundleTable("ui_events", "order", { ts: [0], seq: [0], kind: ["click"] });
    const seen: string[] = [];
    await loadTables(engine, manifest, { ui_events: ui, frames }, (name, remaining) =>
      seen.push(`${name}|${remaining.join(",")}`),
    );
    expect(seen).toEqual(["frames|ui_events,runs", "ui_events|runs", "runs|"]);
    await engine.query("DELETE FROM ui_events WHERE run_id = 'order'");
    await engine.query("DELETE FROM runs WHERE run_id = 'order'");
    await engine.query("DROP TABLE frames");
  });

  it("keeps every table in the compressed in-memory database, on every connection", async () => {
    const where = await engine.query("SELECT DISTINCT database_name FROM duckdb_tables() WHERE NOT internal");
    expect(where.toArray().map((r) => r.database_name)).toEqual(["jb"]);
    const options = await engine.query(
      "SELECT database_name, current_database() AS now FROM duckdb_databases() WHERE NOT internal ORDER BY 1",
    );
    expect(options.toArray().map((r) => ({ ...r }))).toEqual([
      { database_name: "jb", now: "jb" },
      { database_name: "memory", now: "jb" },
    ]);
  });

  it("binds parameters instead of splicing them", async () => {
    const hostile = "x' OR '1'='1";
    const t = await engine.query("SELECT count(*)::INTEGER AS n FROM ui_events WHERE kind = ?", [hostile]);
    expect(t.getChild("n")!.get(0)).toBe(0);
    const u = await engine.query("SELECT count(*)::INTEGER AS n FROM ui_events WHERE kind = ? AND ts >= ?", [
      "click",
      2000,
    ]);
    expect(u.getChild("n")!.get(0)).toBe(1); // only run b's click at ts 3000
  });

  it("lists tables with row counts and column types", async () => {
    const tables = await listTables(engine);
    const ui = tables.find((t) => t.name === "ui_events")!;
    expect(ui.rows).toBe(8);
    expect(ui.columns.find((c) => c.name === "ts")!.type).toBe("BIGINT");
    expect(ui.columns.find((c) => c.name === "kind")!.type).toBe("VARCHAR");
  });

  it("reports a SQL error without breaking the engine", async () => {
    await expect(engine.query("SELECT nope FROM ui_events")).rejects.toThrow(/nope/);
    const t = await engine.query("SELECT 1 AS one");
    expect(t.getChild("one")!.get(0)).toBe(1);
  });
});
