// encodeStream: a file's size grows with its rows alone (each batch carries only its own rows' bitmaps), and
// what it writes reads back value by value in apache-arrow, DuckDB-WASM and the native engine.
import {
  Bool,
  Dictionary,
  Float64,
  Int32,
  Int64,
  Table,
  Utf8,
  tableFromIPC,
  vectorFromArray,
  type DataType,
  type Vector,
} from "apache-arrow";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bitRange, encodeStream } from "../../bundle/encode-stream";
import { makeBundleTable } from "../../bundle/table-builder";
import { createNativeEngine } from "../../workspace/db/node/duckdb-native";
import { createNodeEngine } from "../../workspace/db/node/duckdb-node";
import { fcRuns } from "../support/fc-runs";
import { suiteEngine } from "../support/suite-engine";

/** method_events as a v3 trace gives them: cpu, heap_bytes, cycles and instructions all null. */
function methodEvents(n: number): Table {
  return makeBundleTable("method_events", "r", {
    thread_id: Int32Array.from({ length: n }, (_, i) => i % 8),
    method_id: BigInt64Array.from({ length: n }, (_, i) => BigInt(i % 5000)),
    action: { dictionary: ["enter", "exit"], indices: Int8Array.from({ length: n }, (_, i) => i & 1) },
    wall: BigInt64Array.from({ length: n }, (_, i) => BigInt(i * 1000)),
    thread_cpu: BigInt64Array.from({ length: n }, (_, i) => BigInt(i * 700)),
  });
}

/** frames with the four columns every source fills; the other nullable columns, bitmaps included, all null. */
function frames(n: number): Table {
  return makeBundleTable("frames", "r", {
    intended_vsync: BigInt64Array.from({ length: n }, (_, i) => BigInt(i * 16_666_667)),
    duration: BigInt64Array.from({ length: n }, (_, i) => BigInt(4_000_000 + ((i * 7919) % 20_000_000))),
    deadline: BigInt64Array.from({ length: n }, () => 16_666_667n),
    jank: Uint8Array.from({ length: n }, (_, i) =>
      Number(4_000_000 + ((i * 7919) % 20_000_000) > 16_666_667),
    ),
  });
}

describe("encodeStream size", () => {
  // Per row, method_events is run_id's int32 index, thread_id and cpu int32, method_id, wall, thread_cpu,
  // heap_bytes, cycles and instructions int64, action's int8 index, and a validity bit for each of the four
  // null columns (Arrow columnar format: a column with nulls carries one bit per row).
  const METHOD_EVENT_BYTES = 4 + 4 + 4 + 6 * 8 + 1 + 4 / 8;

  it("grows method_events by the columns' own width per row, at every size", () => {
    const size = (n: number) => encodeStream(methodEvents(n)).length;
    const [s1k, s100k, s1m] = [size(1_000), size(100_000), size(1_000_000)];
    // the marginal row: no bytes beyond the columns' width, however many batches came before
    expect((s100k - s1k) / 99_000).toBeCloseTo(METHOD_EVENT_BYTES, 1);
    expect((s1m - s100k) / 900_000).toBeCloseTo(METHOD_EVENT_BYTES, 1);
    // per row, the schema and dictionaries spread over 1k rows are all that differ
    expect(s100k / 100_000 / (s1k / 1_000)).toBeGreaterThan(0.95);
    expect(s1m / 1_000_000 / (s100k / 100_000)).toBeCloseTo(1, 3);
  });

  it("grows frames (a bool column, all-null columns of every type) the same per row at 100k and 500k", () => {
    const size = (n: number) => encodeStream(frames(n)).length;
    const [s1k, s100k, s500k] = [size(1_000), size(100_000), size(500_000)];
    const early = (s100k - s1k) / 99_000;
    const late = (s500k - s100k) / 400_000;
    expect(late / early).toBeCloseTo(1, 3);
  });

  it("grows the same per row whatever the batch size (1,000 batches of 100 rows)", () => {
    const t = frames(100_000);
    const big = encodeStream(t);
    const small = encodeStream(t, 100);
    // 1,000 batches cost their own headers (a field node and buffer entries per column, each buffer padded
    // to 8 bytes: about 2 KB for frames' 32 columns), not each a copy of the rest of every bitmap (~100 KB)
    expect(small.length - big.length).toBeLessThan(1_000 * 4_096);
    expect(small.length - big.length).toBeGreaterThan(0);
  });
});

describe("bitRange", () => {
  it.each([
    // bits LSB first: 0b1011_0110 then 0b0000_0001
    [[0b1011_0110, 0b0000_0001], 0, 9, [0b1011_0110, 0b1]],
    [[0b1011_0110, 0b0000_0001], 1, 8, [0b1101_1011]],
    [[0b1011_0110, 0b0000_0001], 3, 3, [0b110]],
    [[0b1011_0110, 0b0000_0001], 5, 4, [0b1101]],
    [[0xff, 0xff, 0xff], 8, 5, [0b1_1111]],
    [[0xff], 0, 0, []],
  ])("bits of %j from %i, %i long", (bits, offset, length, want) => {
    expect([...bitRange(Uint8Array.from(bits), offset, length)]).toEqual(want);
  });
});

// One column of each bundle type that can be null, a row number, and an all-null column.
const TYPES: Record<string, () => DataType> = {
  i64: () => new Int64(),
  i32: () => new Int32(),
  f64: () => new Float64(),
  b: () => new Bool(),
  s: () => new Dictionary(new Utf8(), new Int32()),
  u: () => new Utf8(),
};

interface Case {
  rows: number;
  batchRows: number;
  /** where the table's own chunks start (slices of one table: their data starts at odd offsets) */
  cuts: number[];
  /** per column, which rows are null */
  nulls: Record<string, boolean[]>;
}

function valueOf(column: string, row: number): unknown {
  switch (column) {
    case "i64":
      return BigInt(row) * 1_000_000_007n - 5n;
    case "i32":
      return row * 37 - 1000;
    case "f64":
      return row / 7;
    case "b":
      return row % 3 === 1;
    case "s":
      return ["enter", "exit", "unwind"][row % 3];
    default:
      return `v${row}`;
  }
}

function expected(c: Case, column: string, row: number): unknown {
  if (column === "row") return row;
  if (column === "none") return null;
  return c.nulls[column]![row] ? null : valueOf(column, row);
}

function caseTable(c: Case): Table {
  const columns: Record<string, Vector> = {
    row: vectorFromArray(Int32Array.from({ length: c.rows }, (_, i) => i)),
    none: vectorFromArray(new Array(c.rows).fill(null), new Int64()),
  };
  for (const [name, type] of Object.entries(TYPES))
    columns[name] = vectorFromArray(
      Array.from({ length: c.rows }, (_, i) => expected(c, name, i)) as never,
      type(),
    );
  const whole = new Table(columns);
  const edges = [...new Set([0, ...c.cuts.filter((x) => x < c.rows), c.rows])].sort((a, b) => a - b);
  const chunks = edges.slice(1).flatMap((end, i) => whole.slice(edges[i], end).batches);
  return chunks.length ? new Table(chunks) : whole;
}

const caseArb = (minRows: number) =>
  fc
    .record({ rows: fc.integer({ min: minRows, max: 300 }), batchRows: fc.integer({ min: 1, max: 70 }) })
    .chain(({ rows, batchRows }) =>
      fc.record({
        rows: fc.constant(rows),
        batchRows: fc.constant(batchRows),
        cuts: fc.array(fc.integer({ min: 1, max: Math.max(1, rows) }), { maxLength: 4 }),
        nulls: fc.record(
          Object.fromEntries(
            Object.keys(TYPES).map((name) => [
              name,
              // nulls at random, or on each side of every batch boundary, or everywhere
              fc.oneof(
                fc.array(fc.boolean(), { minLength: rows, maxLength: rows }),
                fc.constant(Array.from({ length: rows }, (_, i) => (i + 1) % batchRows < 2)),
                fc.constant(new Array<boolean>(rows).fill(true)),
              ),
            ]),
          ),
        ),
      }),
    ) as fc.Arbitrary<Case>;

function compareRows(c: Case, rows: Record<string, unknown>[]) {
  expect(rows.length).toBe(c.rows);
  rows.forEach((got, i) => {
    for (const column of ["row", "none", ...Object.keys(TYPES)]) {
      const want = expected(c, column, i);
      const value = got[column];
      // DuckDB hands int32 back as number, int64 as bigint; apache-arrow the same
      if (want === null) expect(value, `${column} row ${i}`).toBeNull();
      else expect(value, `${column} row ${i}`).toEqual(want);
    }
  });
}

describe("encodeStream round trip with nulls across batch boundaries", () => {
  it("apache-arrow reads every value back", () => {
    fc.assert(
      fc.property(caseArb(0), (c) => {
        const bytes = encodeStream(caseTable(c), c.batchRows);
        const back = tableFromIPC(bytes);
        for (const batch of back.batches) expect(batch.numRows).toBeLessThanOrEqual(c.batchRows);
        compareRows(
          c,
          back.toArray().map((r) => ({ ...(r as object) }) as Record<string, unknown>),
        );
      }),
      { numRuns: fcRuns(200, 30), seed: 20261129 },
    );
  });

  for (const [label, open] of [
    ["DuckDB-WASM", createNodeEngine],
    ["the native engine", createNativeEngine],
  ] as const) {
    describe(label, () => {
      const engine = suiteEngine(open);
      let k = 0;
      it("reads every value back", async () => {
        await fc.assert(
          // At least one row: DuckDB-WASM refuses an empty stream with dictionary columns (no dictionary
          // batch precedes the schema-only stream apache-arrow writes for an empty table).
          fc.asyncProperty(caseArb(1), async (c) => {
            const name = `t${++k}`;
            await engine.insertArrowStream(name, encodeStream(caseTable(c), c.batchRows));
            const back = await engine.query(`SELECT * FROM ${name} ORDER BY "row"`);
            compareRows(
              c,
              back.toArray().map((r) => ({ ...(r as object) }) as Record<string, unknown>),
            );
            await engine.query(`DROP TABLE ${name}`);
          }),
          { numRuns: fcRuns(60, 10), seed: 20261129 },
        );
      });
    });
  }
});
