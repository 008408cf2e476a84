import { tableFromIPC, tableToIPC } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { makeBundleTable } from "../../bundle/table-builder";

describe("makeBundleTable adopt", () => {
  // Views shorter than their buffers, as a reader that sized its columns by an upper bound hands over.
  const columns = () => ({
    thread_id: new Int32Array([7, 8, 9, 99]).subarray(0, 3),
    method_id: new BigInt64Array([4n, 8n, 12n, 99n]).subarray(0, 3),
    action: { dictionary: ["enter", "exit", "unwind"], indices: new Int8Array([0, 2, 1, 0]).subarray(0, 3) },
    wall: new BigInt64Array([10n, 20n, 30n, 99n]).subarray(0, 3),
  });

  it("takes the arrays without copying, and the table survives an IPC round trip", () => {
    const c = columns();
    const t = makeBundleTable("method_events", "r", c, 3, { adopt: true });
    expect(t.getChild("wall")!.data[0]!.values.buffer).toBe(c.wall.buffer);
    expect(String(t.getChild("action")!.type)).toBe("Dictionary<Int8, Utf8>"); // 1-byte indices kept
    const back = tableFromIPC(tableToIPC(t));
    expect(back.toArray().map((r) => [r.thread_id, r.method_id, r.action, r.wall, r.run_id])).toEqual([
      [7, 4n, "enter", 10n, "r"],
      [8, 8n, "unwind", 20n, "r"],
      [9, 12n, "exit", 30n, "r"],
    ]);
  });

  it("Int32 indices by default; copies by default; refuses two adopted columns on one buffer", () => {
    const wide = { dictionary: ["a", "b"], indices: Int32Array.of(1, 0, 1) };
    expect(
      makeBundleTable("method_events", "r", { ...columns(), action: wide }, 3)
        .getChild("action")!
        .toArray(),
    ).toEqual(["b", "a", "b"]);
    const c = columns();
    expect(makeBundleTable("method_events", "r", c, 3).getChild("wall")!.data[0]!.values.buffer).not.toBe(
      c.wall.buffer,
    );
    const shared = new BigInt64Array(6);
    expect(() =>
      makeBundleTable(
        "method_events",
        "r",
        { ...c, wall: shared.subarray(0, 3), thread_cpu: shared.subarray(3, 6) },
        3,
        { adopt: true },
      ),
    ).toThrow(/columns wall and thread_cpu share one buffer/);
  });
});

describe("makeBundleTable dictionary nulls", () => {
  it("index -1 is null in a nullable column and an error in a non-nullable one", () => {
    const t = makeBundleTable("slices", "r", {
      ts: BigInt64Array.of(1n, 2n, 3n),
      name: { dictionary: ["a"], indices: Int32Array.of(0, 0, 0) },
      depth: Int32Array.of(0, 0, 0),
      track: { dictionary: ["x", "y"], indices: Int32Array.of(1, -1, 0) },
    });
    expect([...t.getChild("track")!]).toEqual(["y", null, "x"]);
    expect(t.getChild("track")!.nullCount).toBe(1);
    expect(() =>
      makeBundleTable("slices", "r", {
        ts: BigInt64Array.of(1n),
        name: { dictionary: ["a"], indices: Int32Array.of(-1) },
        depth: Int32Array.of(0),
      }),
    ).toThrow(/column name: dictionary index -1 outside 0..0/);
  });
});

describe("makeBundleTable nullable int32 values with a validity bitmap", () => {
  const cols = (tid: { values: Int32Array; validity: Uint8Array } | Int32Array) => ({
    ts: BigInt64Array.of(1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n),
    name: { dictionary: ["a"], indices: new Int32Array(9) },
    depth: tid instanceof Int32Array ? tid : new Int32Array(9),
    tid,
  });
  it("a clear bit is null whatever the value under it; adopted arrays are not copied; written and read back", () => {
    // Rows 1, 4 and 8 null: bits 0b11101101, 0b0 (row 8 is bit 0 of the second byte).
    const values = Int32Array.of(10, 666, 12, 13, 666, 15, 16, 17, 666);
    const validity = Uint8Array.of(0b11101101, 0);
    const t = makeBundleTable("slices", "r", cols({ values, validity }), 9, { adopt: true });
    const tid = t.getChild("tid")!;
    expect(tid.nullCount).toBe(3);
    expect(tid.data[0]!.values).toBe(values);
    expect([...tableFromIPC(tableToIPC(t)).getChild("tid")!]).toEqual([
      10,
      null,
      12,
      13,
      null,
      15,
      16,
      17,
      null,
    ]);
    const copied = makeBundleTable("slices", "r", cols({ values, validity }), 9).getChild("tid")!;
    expect(copied.data[0]!.values).not.toBe(values);
    expect([...copied]).toEqual([10, null, 12, 13, null, 15, 16, 17, null]);
  });
  it("refuses a bitmap too short for its rows, and nulls in a non-nullable column", () => {
    const values = new Int32Array(9);
    expect(() => makeBundleTable("slices", "r", cols({ values, validity: new Uint8Array(1) }), 9)).toThrow(
      /column tid: validity of 1 bytes for 9 rows/,
    );
    const c = { ...cols(values), depth: { values, validity: Uint8Array.of(0xff, 0) } };
    expect(() => makeBundleTable("slices", "r", c, 9)).toThrow(
      /column depth: 1 nulls in a non-nullable column/,
    );
  });
});

describe("makeBundleTable constants", () => {
  it("tables made in turn with one constants map share run_id and absent columns of the same rows, and read back", () => {
    const constants = new Map();
    const make = (n: number, base: number) =>
      makeBundleTable(
        "method_events",
        "r",
        {
          thread_id: Int32Array.from({ length: n }, (_, i) => base + i),
          method_id: new BigInt64Array(n),
          action: { dictionary: ["enter", "exit", "unwind"], indices: new Int8Array(n) },
        },
        n,
        { constants },
      );
    const [a, b, c] = [make(3, 0), make(3, 10), make(2, 20)];
    expect(b.getChild("run_id")!.data[0]).toBe(a.getChild("run_id")!.data[0]);
    expect(b.getChild("wall")!.data[0]).toBe(a.getChild("wall")!.data[0]);
    // Another length makes its own; no two columns of one table share a buffer.
    expect(c.getChild("wall")!.data[0]).not.toBe(a.getChild("wall")!.data[0]);
    const buffers = b.schema.fields.map((f) => b.getChild(f.name)!.data[0]!.values.buffer);
    expect(new Set(buffers).size).toBe(buffers.length);
    for (const [t, base] of [
      [b, 10],
      [c, 20],
    ] as const) {
      const back = tableFromIPC(tableToIPC(t));
      expect(back.toArray().map((r) => [r.thread_id, r.run_id, r.wall])).toEqual(
        Array.from({ length: t.numRows }, (_, i) => [base + i, "r", null]),
      );
    }
  });
});
