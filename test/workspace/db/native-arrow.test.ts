// Native DuckDB results as Arrow (native-arrow.ts): fixed-width columns are copied chunk by chunk into typed
// arrays; the values must be those of the row-by-row path, nulls included, across chunk boundaries (2,048 rows).
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resultToArrow } from "../../../workspace/db/node/native-arrow";

type Conn = Awaited<ReturnType<DuckDBInstance["connect"]>>;

describe("resultToArrow", () => {
  let instance: DuckDBInstance;
  let conn: Conn;
  beforeAll(async () => {
    instance = await DuckDBInstance.create(":memory:");
    conn = await instance.connect();
  });
  afterAll(() => {
    conn.closeSync();
    instance.closeSync();
  });

  // every fixed-width type, with a null in every seventh row, over 5,000 rows (three chunks)
  const SQL = `SELECT range AS n,
      CASE WHEN range % 7 = 3 THEN NULL ELSE (range % 100 - 50)::TINYINT END AS i8,
      CASE WHEN range % 7 = 3 THEN NULL ELSE (range * 3 - 7000)::SMALLINT END AS i16,
      CASE WHEN range % 7 = 3 THEN NULL ELSE (range * 100003 - 2)::INTEGER END AS i32,
      CASE WHEN range % 7 = 3 THEN NULL ELSE range * 3000000007 - 9 END AS i64,
      CASE WHEN range % 7 = 3 THEN NULL ELSE (range % 200)::UTINYINT END AS u8,
      CASE WHEN range % 7 = 3 THEN NULL ELSE (range * 11)::USMALLINT END AS u16,
      CASE WHEN range % 7 = 3 THEN NULL ELSE (range * 700001)::UINTEGER END AS u32,
      CASE WHEN range % 7 = 3 THEN NULL ELSE (range * 9000000000000)::UBIGINT END AS u64,
      CASE WHEN range % 7 = 3 THEN NULL ELSE (range / 3)::FLOAT END AS f32,
      CASE WHEN range % 7 = 3 THEN NULL ELSE range / 7 END AS f64,
      CASE WHEN range % 7 = 3 THEN NULL ELSE 'run-' || (range % 3) END AS s,
      range % 2 = 0 AS b
    FROM range(5000)`;

  it("gives every fixed-width column the values and nulls DuckDB holds, chunk after chunk", async () => {
    const reader = await conn.runAndReadAll(SQL);
    const table = resultToArrow(reader);
    expect(table.numRows).toBe(5000);
    // the reference: the reader's own values, row by row
    const columns = reader.getColumns();
    reader.columnNames().forEach((name, c) => {
      const got = table.getChild(name)!.toArray();
      const v = table.getChild(name)!;
      for (let r = 0; r < 5000; r += 1) {
        const want = columns[c]![r];
        if (want === null) expect(v.get(r), `${name}[${r}]`).toBeNull();
        else if (typeof want === "bigint") expect(v.get(r), `${name}[${r}]`).toBe(want);
        else if (typeof want === "number") expect(v.get(r), `${name}[${r}]`).toBe(want);
        else expect(v.get(r), `${name}[${r}]`).toEqual(want);
      }
      expect(got.length).toBe(5000);
    });
    expect(table.getChild("i64")!.nullCount).toBe(714);
    expect(table.getChild("i64")!.type.toString()).toBe("Int64");
    expect(table.getChild("f32")!.type.toString()).toBe("Float32");
  });

  it("places each chunk's validity bits where its rows land, when chunks are not whole bytes long", async () => {
    // a union of 13-row selects: chunks of 13 rows, so every chunk after the first starts mid-byte; one column
    // all valid (DuckDB then keeps no validity bits), one with nulls
    const parts = Array.from(
      { length: 40 },
      (_, k) =>
        `SELECT range + ${k * 13} AS n, CASE WHEN (range + ${k}) % 5 = 1 THEN NULL ELSE (range * 1.5)::DOUBLE END AS x FROM range(13)`,
    );
    const reader = await conn.runAndReadAll(parts.join(" UNION ALL "));
    const sizes = ((reader as unknown as { chunks: { rowCount: number }[] }).chunks ?? []).map(
      (c) => c.rowCount,
    );
    expect(sizes.some((n) => n % 8 !== 0)).toBe(true);
    const table = resultToArrow(reader);
    const [n, x] = reader.getColumns();
    let nulls = 0;
    for (let r = 0; r < 520; r++) {
      expect(table.getChild("n")!.get(r), `n[${r}]`).toBe(n![r]);
      expect(table.getChild("x")!.get(r), `x[${r}]`).toBe(x![r]);
      if (x![r] === null) nulls++;
    }
    expect(table.getChild("n")!.nullCount).toBe(0);
    expect(table.getChild("x")!.nullCount).toBe(nulls);
    expect(nulls).toBe(104);
  });

  it("an empty result and a result of one chunk", async () => {
    expect(resultToArrow(await conn.runAndReadAll("SELECT 1::BIGINT AS x WHERE false")).numRows).toBe(0);
    const one = resultToArrow(await conn.runAndReadAll("SELECT 41::BIGINT + 1 AS x, NULL::DOUBLE AS y"));
    expect([one.getChild("x")!.get(0), one.getChild("y")!.get(0)]).toEqual([42n, null]);
  });
});
