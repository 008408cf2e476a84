// The bench's 100M-row run is written by SQL (bench/frames-db.ts), not packed from Arrow: at 250k rows (three row groups) the file it
// makes holds what `jankbook pack` writes from frames-data.ts's Arrow rows, table by table, row by row (in order),
// column types, row groups and compression alike, and the manifests are the same.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DuckDBInstance } from "@duckdb/node-api";
import { writeFrames } from "../../bench/frames-data";
import { writePackedFramesBySql } from "../../bench/frames-db";
import { packBundle } from "../../workspace/db/node/pack-bundle";

const N = 250_000;
const root = mkdtempSync(join(tmpdir(), "jb-frames-db-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("writePackedFramesBySql", () => {
  it("writes the run.duckdb and manifest that pack writes from the Arrow frames", async () => {
    const packed = join(root, "packed");
    const bySql = join(root, "sql");
    await writeFrames(packed, N, "r");
    await packBundle(packed);
    await writePackedFramesBySql(bySql, N, "r", 256);
    expect(JSON.parse(readFileSync(join(bySql, "manifest.json"), "utf8"))).toEqual(
      JSON.parse(readFileSync(join(packed, "manifest.json"), "utf8")),
    );

    const instance = await DuckDBInstance.create(":memory:");
    const conn = await instance.connect();
    const rows = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJS();
    try {
      await conn.run(`ATTACH '${join(packed, "run.duckdb")}' AS a (READ_ONLY)`);
      await conn.run(`ATTACH '${join(bySql, "run.duckdb")}' AS b (READ_ONLY)`);
      const columns = (db: string) =>
        rows(
          `SELECT schema_name, table_name, column_index, column_name, data_type, is_nullable FROM duckdb_columns() WHERE database_name = '${db}' ORDER BY ALL`,
        );
      const expected = await columns("a");
      expect(await columns("b")).toEqual(expected);
      const tables = [
        ...new Set(expected.map((c) => `${String(c.schema_name)}.${String(c.table_name)}`)),
      ].sort();
      expect(tables).toEqual([
        "jb_overview.frames",
        "jb_overview.spans",
        "jb_pack.tables",
        "main.frames",
        "main.runs",
      ]);
      for (const t of tables) {
        const [n] = await rows(
          `SELECT (SELECT count(*) FROM a.${t}) AS a, (SELECT count(*) FROM b.${t}) AS b`,
        );
        expect(n!.b, t).toBe(n!.a);
        // rowid too: the same rows in the same order
        for (const [x, y] of [
          ["a", "b"],
          ["b", "a"],
        ])
          expect(
            await rows(
              `SELECT count(*)::INTEGER AS n FROM (SELECT rowid AS r, * FROM ${x}.${t} EXCEPT ALL SELECT rowid, * FROM ${y}.${t})`,
            ),
            `${t}: rows of ${x} not in ${y}`,
          ).toEqual([{ n: 0 }]);
      }
      expect(Number((await rows("SELECT count(*) AS n FROM a.jb_overview.frames"))[0]!.n)).toBe(1200);
      // the same physical layout: what attaching it over HTTP reads depends on it
      const layout = (db: string) =>
        rows(
          `SELECT row_group_id, column_name, segment_type, compression, count, has_updates FROM pragma_storage_info('${db}.main.frames') ORDER BY ALL`,
        );
      expect(await layout("b")).toEqual(await layout("a"));
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });
});
