// Native DuckDB results as Arrow (native-arrow.ts, native-columns.ts): columns are copied chunk by chunk from the
// vectors' bytes; the values must be those of the row-by-row path, nulls included, across chunk boundaries (2,048
// rows) and chunks that end inside a byte of the validity bitmap, and those DuckDB-WASM's own Arrow converter gives.
// Text: strings over 12 bytes are copied a span of memory at a time (long-strings.ts), so the bytes of every kind
// of string DuckDB makes are checked, and the number of reads.
import { createHash } from "node:crypto";
import * as arrow from "apache-arrow";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resultToArrow } from "../../../workspace/db/node/native-arrow";
import { createNodeEngine } from "../../../workspace/db/node/duckdb-node";
import { fcRuns } from "../../support/fc-runs";
import { suiteConnection } from "../../support/suite-connection";

// get_data_from_pointer counted as the converter calls it (the addon's own methods cannot be spied on)
const binding = vi.hoisted(() => ({ reads: 0 }));
vi.mock("@duckdb/node-bindings", async (original) => {
  const real = ((await original()) as { default: Record<string, (...args: unknown[]) => unknown> }).default;
  const counted = (...args: unknown[]) => (binding.reads++, real.get_data_from_pointer!(...args));
  return { default: Object.create(real, { get_data_from_pointer: { value: counted } }) as unknown };
});

describe("resultToArrow", () => {
  const conn = suiteConnection();

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
    // all valid (DuckDB then keeps no validity bits), one with nulls, one with nulls in every other chunk (a chunk
    // without validity bits then starts inside a byte that holds a null of the chunk before)
    const parts = Array.from(
      { length: 40 },
      (_, k) =>
        `SELECT range + ${k * 13} AS n, CASE WHEN (range + ${k}) % 5 = 1 THEN NULL ELSE (range * 1.5)::DOUBLE END AS x,
          CASE WHEN ${k % 2} = 0 AND range % 4 = 3 THEN NULL ELSE range END AS y FROM range(13)`,
    );
    const reader = await conn.runAndReadAll(parts.join(" UNION ALL "));
    const sizes = ((reader as unknown as { chunks: { rowCount: number }[] }).chunks ?? []).map(
      (c) => c.rowCount,
    );
    expect(sizes.some((n) => n % 8 !== 0)).toBe(true);
    const table = resultToArrow(reader);
    const [n, x, y] = reader.getColumns();
    let nulls = 0;
    for (let r = 0; r < 520; r++) {
      expect(table.getChild("n")!.get(r), `n[${r}]`).toBe(n![r]);
      expect(table.getChild("x")!.get(r), `x[${r}]`).toBe(x![r]);
      expect(table.getChild("y")!.get(r), `y[${r}]`).toBe(y![r]);
      if (x![r] === null) nulls++;
    }
    expect(table.getChild("n")!.nullCount).toBe(0);
    expect(table.getChild("x")!.nullCount).toBe(nulls);
    expect(nulls).toBe(104);
    expect(table.getChild("y")!.nullCount).toBe(20 * 3);
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

describe("resultToArrow, text", () => {
  const conn = suiteConnection();
  let wasm: Awaited<ReturnType<typeof createNodeEngine>>;
  beforeAll(async () => {
    wasm = await createNodeEngine();
    // a table scan's strings: short, long, empty, null and multibyte (2-, 3- and 4-byte UTF-8), 10,000 rows
    const table = `CREATE TABLE strs AS SELECT range AS i,
        CASE WHEN range % 13 = 5 THEN NULL WHEN range % 6 = 0 THEN '' WHEN range % 6 = 1 THEN 'short-' || (range % 9)
          WHEN range % 6 = 2 THEN 'com.example.feed.ItemView#' || range WHEN range % 6 = 3 THEN 'é€😀 ' || range || ' ß日本'
          WHEN range % 6 = 4 THEN 'twelve bytes' ELSE 'thirteen bytes' END AS s
      FROM range(10000)`;
    await conn.run(table);
    await wasm.query(table);
  });
  afterAll(async () => {
    await wasm.close();
  });

  // Each query's text columns, by how DuckDB makes the strings: a scan, string functions, sorts, aggregates, and
  // strings over a page and over a megabyte among short ones. Every query has a unique key k.
  const QUERIES: [string, string][] = [
    ["a table scan", "SELECT i AS k, s FROM strs"],
    ["a sorted scan", "SELECT i AS k, s FROM strs ORDER BY s DESC, i"],
    [
      "repeat and concat",
      `SELECT i AS k, repeat('ä€😀', (i % 40)::INTEGER) AS r, concat(s, '|', i, '|', s) AS c,
         CASE WHEN i % 3 = 0 THEN NULL ELSE s || s END AS d FROM strs`,
    ],
    [
      "string_agg",
      `SELECT i % 50 AS k, string_agg(s, ',' ORDER BY i) AS a, string_agg(s, '' ORDER BY i) FILTER (i % 7 = 0) AS b
       FROM strs GROUP BY i % 50`,
    ],
    [
      "over a page and over a megabyte",
      `SELECT range AS k, CASE WHEN range % 500 = 7 THEN repeat('日本語 ', 120000) || range
           WHEN range % 50 = 3 THEN repeat('é', 3000) || range WHEN range % 4 = 0 THEN NULL
           WHEN range % 4 = 1 THEN 'x' || range ELSE 'long enough text ' || range END AS v
         FROM range(4100)`,
    ],
  ];

  it.each(QUERIES)("%s: DuckDB's bytes, read in few calls", async (_, sql) => {
    for (const read of ["runAndReadAll", "streamAndReadAll"] as const) {
      const reader = await conn[read](sql);
      const chunks = (reader as unknown as { chunks: { rowCount: number }[] }).chunks;
      binding.reads = 0;
      const table = resultToArrow(reader);
      const reads = binding.reads;
      const columns = reader.getColumns();
      let long = 0;
      for (const [c, name] of reader.columnNames().entries()) {
        if (name === "k") continue;
        const v = table.getChild(name)!;
        const utf8 = v.data[0]!;
        const wrong: number[] = [];
        for (let r = 0; r < reader.currentRowCount; r++) {
          const want = columns[c]![r] as string | null;
          if (want === null) {
            if (v.get(r) !== null) wrong.push(r);
            continue;
          }
          const bytes = utf8.values.subarray(utf8.valueOffsets[r]!, utf8.valueOffsets[r + 1]!);
          // byte for byte what @duckdb/node-api decodes for the row
          if (!Buffer.from(bytes).equals(Buffer.from(want))) wrong.push(r);
          if (bytes.length > 12) long++;
        }
        expect(wrong.slice(0, 5), `${read}: rows of ${name} not as DuckDB holds them`).toEqual([]);
        expect(v.nullCount, name).toBe(columns[c]!.filter((x) => x === null).length);
      }
      // a few reads a chunk, where each string over 12 bytes took one
      expect(long).toBeGreaterThan(0);
      expect(reads, read).toBeGreaterThan(0);
      expect(reads, read).toBeLessThanOrEqual(8 * chunks.length * (columns.length - 1));
    }
  });

  it("reads chunks of 2,048 rows, and strings over a page and over a megabyte whole", async () => {
    const reader = await conn.runAndReadAll(QUERIES[4]![1]);
    const sizes = (reader as unknown as { chunks: { rowCount: number }[] }).chunks.map((c) => c.rowCount);
    expect(sizes).toEqual([2048, 2048, 4]);
    const v = resultToArrow(reader).getChild("v")!;
    const lengths = Array.from(
      { length: 4100 },
      (_, r) => v.data[0]!.valueOffsets[r + 1]! - v.data[0]!.valueOffsets[r]!,
    );
    // '日本語 ' is 10 bytes: 1,200,000 and the row number; 'é' is 2 bytes
    expect(lengths[7]).toBe(1_200_001);
    expect(lengths[4007]).toBe(1_200_004);
    expect(lengths[53]).toBe(6002);
    expect((v.get(4007) as string).endsWith("日本語 4007")).toBe(true);
    expect(v.get(53)).toBe("é".repeat(3000) + "53");
    // DuckDB's own digest of the longest values, against the bytes read
    const md5 = await conn.runAndReadAll(
      `SELECT k, md5(v) FROM (${QUERIES[4]![1]}) WHERE k % 500 = 7 ORDER BY k`,
    );
    for (const [k, digest] of md5.getRows()) {
      const r = Number(k);
      const bytes = v.data[0]!.values.subarray(v.data[0]!.valueOffsets[r]!, v.data[0]!.valueOffsets[r + 1]!);
      expect(createHash("md5").update(bytes).digest("hex"), `md5 of v[${r}]`).toBe(digest);
    }
  });

  it.each(QUERIES)("%s: what DuckDB-WASM gives", async (_, sql) => {
    const ours = resultToArrow(await conn.runAndReadAll(sql));
    const theirs = await wasm.query(sql);
    expect(ours.numRows).toBe(theirs.numRows);
    expectSameByKey(ours, theirs as never);
  });

  // Random text tables: values of 0 to thousands of bytes, any mix of 1- to 4-byte characters, nulls, in rows that
  // fill chunks and end inside one; appended natively, loaded into DuckDB-WASM as Arrow.
  const CHARS = ["a", "Z", "7", " ", ",", "\n", "é", "ß", "€", "日", "😀", "𝄞"];
  const text = fc
    .tuple(
      fc.array(fc.constantFrom(...CHARS), { maxLength: 30 }),
      fc.oneof(
        { weight: 4, arbitrary: fc.constant(1) },
        { weight: 1, arbitrary: fc.integer({ min: 2, max: 400 }) },
      ),
    )
    .map(([chars, times]) => chars.join("").repeat(times));
  const tables = fc.record({
    values: fc.array(fc.option(text, { nil: null, freq: 6 }), { minLength: 1, maxLength: 200 }),
    rows: fc.integer({ min: 0, max: 5000 }),
    stride: fc.integer({ min: 1, max: 7 }),
  });

  it("reads random text tables back as they were written, and as DuckDB-WASM does", async () => {
    await fc.assert(
      fc.asyncProperty(tables, async ({ values, rows, stride }) => {
        const want = Array.from({ length: rows }, (_, i) => values[(i * stride) % values.length]!);
        await conn.run("CREATE OR REPLACE TABLE random_text (i INTEGER, s VARCHAR)");
        const appender = await conn.createAppender("random_text");
        want.forEach((s, i) => {
          appender.appendInteger(i);
          if (s === null) appender.appendNull();
          else appender.appendVarchar(s);
          appender.endRow();
        });
        appender.closeSync();
        const ipc = arrow.tableToIPC(
          new arrow.Table({
            i: arrow.vectorFromArray(Int32Array.from(want, (_, i) => i)),
            s: arrow.vectorFromArray(want, new arrow.Utf8()),
          }),
          "stream",
        );
        await wasm.query("DROP TABLE IF EXISTS random_text");
        await wasm.insertArrowStream("random_text", ipc);
        const sql = "SELECT i AS k, s, s || '·' || i AS t FROM random_text";
        const reader = await conn.runAndReadAll(sql);
        const ours = resultToArrow(reader);
        expect(ours.numRows).toBe(rows);
        const [k, s, t] = ["k", "s", "t"].map((name) => ours.getChild(name)!);
        // as written, and as @duckdb/node-api reads DuckDB's values
        const [, theirS, theirT] = reader.getColumns();
        const wrong: number[] = [];
        for (let r = 0; r < rows; r++) {
          const i = k!.get(r) as number;
          if (s!.get(r) !== want[i] || t!.get(r) !== (want[i] === null ? null : `${want[i]}·${i}`))
            wrong.push(i);
          if (s!.get(r) !== theirS![r] || t!.get(r) !== theirT![r]) wrong.push(i);
        }
        expect(wrong.slice(0, 5), "rows not read back as written").toEqual([]);
        expect(s!.nullCount).toBe(want.filter((x) => x === null).length);
        expectSameByKey(ours, (await wasm.query(sql)) as never);
      }),
      { numRuns: fcRuns(40), seed: 1129 },
    );
  });
});

/** Each column of `ours` equals the same column of `theirs`, rows matched by their key column k. */
function expectSameByKey(ours: arrow.Table, theirs: arrow.Table): void {
  const theirRow = new Map<unknown, number>();
  for (let r = 0; r < theirs.numRows; r++) theirRow.set(theirs.getChild("k")!.get(r), r);
  for (const field of theirs.schema.fields) {
    const a = ours.getChild(field.name)!;
    const b = theirs.getChild(field.name)!;
    expect(a.type.toString(), field.name).toBe(b.type.toString());
    expect(a.nullCount, field.name).toBe(b.nullCount);
    const wrong: unknown[] = [];
    for (let r = 0; r < ours.numRows; r++) {
      const k = ours.getChild("k")!.get(r);
      if (a.get(r) !== b.get(theirRow.get(k)!)) wrong.push(k);
    }
    expect(wrong.slice(0, 5), `keys whose ${field.name} differs`).toEqual([]);
  }
}

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
