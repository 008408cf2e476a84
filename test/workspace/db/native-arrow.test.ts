// Native DuckDB results as Arrow (native-arrow.ts, native-columns.ts): columns are copied chunk by chunk from the
// vectors' bytes; the values must be those of the row-by-row path, nulls included, across chunk boundaries (2,048
// rows) and chunks that end inside a byte of the validity bitmap, and those DuckDB-WASM's own Arrow converter gives.
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resultToArrow } from "../../../workspace/db/node/native-arrow";
import { createNodeEngine } from "../../../workspace/db/node/duckdb-node";

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

  // Every type converted from bytes, each with nulls; the UNION makes a first chunk of 1,001 rows, so the next
  // one starts inside a byte of the validity bitmap, and the last ends inside one.
  const TYPED = `SELECT range AS n,
      CASE WHEN range % 5 = 1 THEN NULL WHEN range % 4 = 0 THEN '' WHEN range % 4 = 1 THEN 'run-' || (range % 3)
        WHEN range % 4 = 2 THEN 'ä longer than twelve bytes ' || range ELSE '日本' || range END AS s,
      CASE WHEN range % 6 = 2 THEN NULL ELSE range % 3 = 0 END AS b,
      CASE WHEN range % 7 = 3 THEN NULL ELSE DATE '1969-12-25' + (range % 400)::INTEGER END AS d,
      CASE WHEN range % 7 = 4 THEN NULL ELSE TIMESTAMP '2024-02-29 23:59:59' + to_microseconds(range * 1234567 - 5000000000) END AS t,
      CASE WHEN range % 9 = 0 THEN NULL ELSE ((range % 19999 - 9999) / 10)::DECIMAL(4, 1) END AS dec16,
      CASE WHEN range % 9 = 1 THEN NULL ELSE ((range * 1001 - 3000000) / 100)::DECIMAL(9, 2) END AS dec32,
      CASE WHEN range % 9 = 2 THEN NULL ELSE (range * 123456789 - 600000000000)::DECIMAL(18, 3) END AS dec64,
      CASE WHEN range % 9 = 3 THEN NULL ELSE (range::HUGEINT * 170141183460469231731687303 - 9)::DECIMAL(38, 0) END AS dec128,
      CASE WHEN range % 9 = 4 THEN NULL ELSE range::HUGEINT * -98765432109876543210987 END AS huge
    FROM (SELECT range FROM range(1001) UNION ALL SELECT range FROM range(1001, 4002)) AS t(range)`;

  it("strings, booleans, dates, timestamps and decimals: the reader's values, row by row", async () => {
    const reader = await conn.runAndReadAll(TYPED);
    const table = resultToArrow(reader);
    const rows = reader.currentRowCount;
    expect(table.numRows).toBe(rows);
    const chunkRows = (reader as unknown as { chunks: { rowCount: number }[] }).chunks.map((c) => c.rowCount);
    expect(chunkRows.slice(0, -1).some((n) => n % 8 !== 0)).toBe(true);
    const columns = reader.getColumns();
    const text = (v: unknown) => (v === null ? null : String(v));
    for (const [c, name] of reader.columnNames().entries()) {
      const v = table.getChild(name)!;
      for (let r = 0; r < rows; r++) {
        const want = columns[c]![r];
        const got = v.get(r);
        if (want === null) expect(got, `${name}[${r}]`).toBeNull();
        else if (name === "n" || name === "s" || name === "b") expect(got, `${name}[${r}]`).toBe(want);
        else if (name === "d")
          expect(got, `${name}[${r}]`).toBe(
            Date.UTC(1969, 11, 25) + (Number(columns[0]![r]) % 400) * 86_400_000,
          );
        else if (name === "t")
          expect(BigInt(Math.round(got * 1000)), `${name}[${r}]`).toBe(
            (want as unknown as { micros: bigint }).micros,
          );
        else
          expect(
            text(v.type.scale ? decimalText(got, v.type.scale) : decimalText(got, 0)),
            `${name}[${r}]`,
          ).toBe(text(want));
      }
    }
    expect(table.getChild("s")!.nullCount).toBe(Array.from(columns[1]!).filter((x) => x === null).length);
  });

  it("gives what DuckDB-WASM gives for the same query: types, values and nulls", async () => {
    const wasm = await createNodeEngine();
    try {
      const theirs = await wasm.query(TYPED);
      const ours = resultToArrow(await conn.runAndReadAll(TYPED));
      expect(ours.numRows).toBe(theirs.numRows);
      // the UNION's two halves may come in either order natively: rows are matched by n
      const theirRow = new Map<bigint, number>();
      for (let r = 0; r < theirs.numRows; r++) theirRow.set(theirs.getChild("n")!.get(r) as bigint, r);
      for (const field of theirs.schema.fields) {
        const a = ours.getChild(field.name)!;
        const b = theirs.getChild(field.name)!;
        expect(a.type.toString(), field.name).toBe(b.type.toString());
        expect(a.nullCount, field.name).toBe(b.nullCount);
        for (let r = 0; r < ours.numRows; r++) {
          const n = ours.getChild("n")!.get(r) as bigint;
          expect(plain(a.get(r)), `${field.name} at n = ${n}`).toEqual(plain(b.get(theirRow.get(n)!)));
        }
      }
    } finally {
      await wasm.close();
    }
  });
});

/** A decimal's words as numbers: each apache-arrow instance (ESM here, CommonJS in DuckDB-WASM) has its own class. */
function plain(v: unknown): unknown {
  return ArrayBuffer.isView(v) ? Array.from(v as Uint32Array) : v;
}

/** A Decimal128 value (four little-endian 32-bit words) as DuckDB prints it, with `scale` decimals. */
function decimalText(words: Uint32Array, scale: number): string {
  let x = 0n;
  for (let w = 3; w >= 0; w--) x = (x << 32n) | BigInt(words[w]!);
  x = BigInt.asIntN(128, x);
  const digits = (x < 0n ? -x : x).toString().padStart(scale + 1, "0");
  const body = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return (x < 0n ? "-" : "") + body;
}
