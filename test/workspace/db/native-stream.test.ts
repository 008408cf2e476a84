// Streamed native results (native-arrow.ts streamToArrow, used by duckdb-native.ts): a result of many chunks is
// converted in batches as it is fetched; the values must be those DuckDB's reader gives row by row, across chunk
// (2,048 rows) and batch (65,536 rows) boundaries; past a row cap nothing more is converted and the cap's error
// names every row; a query that fails or is interrupted part way fails (the binding's fetch alone ends quietly).
import { MessageChannel } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { streamToArrow } from "../../../workspace/db/node/native-arrow";
import { createNativeEngine, type NativeEngine } from "../../../workspace/db/node/duckdb-native";
import { serveEngine, remoteEngine } from "../../../workspace/node/remote-engine";
import { suiteConnection } from "../../support/suite-connection";

// vector_get_data counted as the converter calls it: one call a column a converted chunk
const binding = vi.hoisted(() => ({ vectors: 0 }));
vi.mock("@duckdb/node-bindings", async (original) => {
  const real = ((await original()) as { default: Record<string, (...args: unknown[]) => unknown> }).default;
  const counted = (...args: unknown[]) => (binding.vectors++, real.vector_get_data!(...args));
  return { default: Object.create(real, { vector_get_data: { value: counted } }) as unknown };
});

// 150,000 rows: 74 chunks, batches of 65,536, 65,536 and 18,928 rows; text over 12 bytes with nulls, short text,
// a list (value by value), a decimal
const ROWS = 150_000;
const SQL = `SELECT range AS n,
    CASE WHEN range % 11 = 0 THEN NULL ELSE 'com.example.feed.ItemView#' || range END AS view,
    'r' || (range % 3) AS run,
    [range % 5, range % 7] AS pair,
    (range / 100)::DECIMAL(12, 2) AS d
  FROM range(${ROWS}) ORDER BY range`;

describe("streamToArrow", () => {
  const conn = suiteConnection();

  it("converts a result of many chunks exactly, across chunk and batch boundaries", async () => {
    const table = await streamToArrow(await conn.stream(SQL));
    expect(table.numRows).toBe(ROWS);
    expect(table.batches.map((b) => b.numRows)).toEqual([65_536, 65_536, 18_928]);
    expect(table.schema.fields.map((f) => `${f.name} ${f.type}`)).toEqual([
      "n Int64",
      "view Utf8",
      "run Utf8",
      "pair List<Int64>",
      "d Decimal[12e+2]",
    ]);
    // the rows either side of every chunk and batch boundary, by the query's own formulas
    const rows = [0, 1, 2047, 2048, 4095, 4096, 65_535, 65_536, 65_537, 131_071, 131_072, 149_999];
    for (const r of rows) {
      expect(table.getChild("n")!.get(r)).toBe(BigInt(r));
      expect(table.getChild("view")!.get(r)).toBe(r % 11 === 0 ? null : `com.example.feed.ItemView#${r}`);
      expect(table.getChild("run")!.get(r)).toBe(`r${r % 3}`);
      expect([...table.getChild("pair")!.get(r)!]).toEqual([BigInt(r % 5), BigInt(r % 7)]);
    }
    // every row against the reader's own values
    const reader = await conn.runAndReadAll(SQL);
    const [n, view, run, , d] = reader.getColumns();
    expect(String(d![149_999])).toBe("1499.99");
    const got = { n: table.getChild("n")!, view: table.getChild("view")!, run: table.getChild("run")! };
    const dec = table.getChild("d")!;
    for (let r = 0; r < ROWS; r++) {
      if (got.n.get(r) !== n![r]) throw new Error(`n, row ${r}`);
      if (got.view.get(r) !== view![r]) throw new Error(`view, row ${r}`);
      if (got.run.get(r) !== run![r]) throw new Error(`run, row ${r}`);
      // Decimal128 as four 32-bit words: range / 100 at scale 2 is `range` hundredths
      if ((dec.get(r) as Uint32Array).join() !== `${r},0,0,0`) throw new Error(`d, row ${r}`);
    }
  });

  it("keeps the columns and types of a result with no rows", async () => {
    const table = await streamToArrow(await conn.stream("SELECT 1::INTEGER AS a, 'x' AS s WHERE false"));
    expect(table.numRows).toBe(0);
    expect(table.schema.fields.map((f) => `${f.name} ${f.type}`)).toEqual(["a Int32", "s Utf8"]);
  });

  it("converts nothing past the row cap, yet counts every row for its error", async () => {
    const over = vi.fn((rows: number) => new Error(`${rows} rows`));
    binding.vectors = 0;
    await expect(streamToArrow(await conn.stream(SQL), { maxRows: 70_000, over })).rejects.toThrow(
      "150000 rows",
    );
    expect(over).toHaveBeenCalledExactlyOnceWith(ROWS);
    // the first batch (32 chunks of 2,048 rows) only, four columns from their bytes (the list goes value by value)
    expect(binding.vectors).toBe(32 * 4);
    binding.vectors = 0;
    expect((await streamToArrow(await conn.stream(SQL), { maxRows: ROWS, over })).numRows).toBe(ROWS);
    expect(binding.vectors).toBe(74 * 4);
  });
});

describe("the native engine's streamed results", () => {
  let engine: NativeEngine;
  beforeAll(async () => {
    engine = await createNativeEngine({ stream: true });
  });
  afterAll(() => engine.close());

  it("fail a query over --max-rows with the message it had before streaming", async () => {
    const channel = new MessageChannel();
    const served = serveEngine(channel.port1, engine, { maxRows: 2000, maxBytes: 1 << 30 });
    const remote = remoteEngine(channel.port2);
    try {
      await expect(remote.query("SELECT range FROM range(5000)")).rejects.toThrow(
        "the result has 5,000 rows, over the cap of 2,000 (--max-rows): aggregate in SQL, or raise the cap",
      );
      expect((await remote.query("SELECT range FROM range(2000)")).numRows).toBe(2000);
    } finally {
      await served.stop();
      channel.port1.close();
      channel.port2.close();
    }
  });

  it("fail with DuckDB's own error when the query fails part way through the stream", async () => {
    const sql = `SELECT range, CASE WHEN range = 900000 THEN error('no row 900000') ELSE range END AS x
      FROM range(2000000)`;
    await expect(engine.query(sql)).rejects.toThrow("Invalid Input Error: no row 900000");
  });

  it("stop mid-stream when interrupted", async () => {
    // 100M rows of md5 take minutes; the cap keeps the rows past it from being converted while it runs
    const query = engine.query("SELECT md5(range::VARCHAR) AS h FROM range(100000000)", [], {
      maxRows: 1000,
      over: (rows) => new Error(`ran to the end: ${rows} rows`),
    });
    setTimeout(() => void engine.interrupt(), 300);
    await expect(query).rejects.toThrow("INTERRUPT Error: Interrupted!");
    expect((await engine.query("SELECT 42 AS x")).getChild("x")!.get(0)).toBe(42);
  });
});
