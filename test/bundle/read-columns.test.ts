import fc from "fast-check";
import {
  Bool,
  Field,
  Int32,
  Int64,
  Float64,
  Schema,
  Table,
  Utf8,
  makeData,
  makeVector,
  vectorFromArray,
} from "apache-arrow";
import { describe, expect, it } from "vitest";
import * as col from "../../bundle/read-columns";

/** A table of one column holding `values` (null where null), split into chunks at `cuts` and sliced by one. */
function chunked<T>(
  type: Int32 | Int64 | Float64 | Bool | Utf8,
  values: (T | null)[],
  cuts: number[],
): Table {
  const whole = vectorFromArray([null, ...values] as unknown[], type).slice(1);
  const bounds = [0, ...cuts.filter((c) => c > 0 && c < values.length).sort((a, b) => a - b), values.length];
  const parts = bounds.slice(1).map((end, k) => whole.slice(bounds[k]!, end));
  const data = parts.flatMap((p) => p.data);
  const vector = makeVector(data.length ? data : [makeData({ type, length: 0, nullCount: 0 })]);
  return new Table(new Schema([new Field("c", type, true)]), { c: vector } as never);
}

const cuts = fc.array(fc.nat(60), { maxLength: 4 });
const nullable = <T>(a: fc.Arbitrary<T>) => fc.array(fc.option(a, { nil: null }), { maxLength: 60 });

describe("readColumns reads what vector.get reads, a null as declared, across chunks and slices", () => {
  it("int64 as float64 (one rounding, as Number(bigint)), nullAs where null", () => {
    fc.assert(
      fc.property(
        nullable(fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n })),
        cuts,
        fc.constantFrom(NaN, 0, -1),
        (v, c, nullAs) => {
          const got = col.readColumns(chunked(new Int64(), v, c), "t", { c: col.int64(nullAs) }).c;
          expect(Array.from(got)).toEqual(v.map((x) => (x === null ? nullAs : Number(x))));
        },
      ),
    );
  });
  it("int64 exact as bigint, 0n where null", () => {
    fc.assert(
      fc.property(nullable(fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n })), cuts, (v, c) => {
        expect(Array.from(col.readColumns(chunked(new Int64(), v, c), "t", { c: col.bigint64() }).c)).toEqual(
          v.map((x) => x ?? 0n),
        );
      }),
    );
  });
  it("int32, int32 as float, float64 and bool", () => {
    fc.assert(
      fc.property(nullable(fc.integer()), cuts, (v, c) => {
        const t = chunked(new Int32(), v, c);
        expect(Array.from(col.readColumns(t, "t", { c: col.int32(-7) }).c)).toEqual(v.map((x) => x ?? -7));
        expect(Array.from(col.readColumns(t, "t", { c: col.int32AsFloat(Infinity) }).c)).toEqual(
          v.map((x) => x ?? Infinity),
        );
      }),
    );
    fc.assert(
      fc.property(nullable(fc.double({ noNaN: true })), cuts, (v, c) => {
        expect(
          Array.from(col.readColumns(chunked(new Float64(), v, c), "t", { c: col.float64() }).c),
        ).toEqual(v.map((x) => x ?? NaN));
      }),
    );
    fc.assert(
      fc.property(nullable(fc.boolean()), cuts, (v, c) => {
        expect(Array.from(col.readColumns(chunked(new Bool(), v, c), "t", { c: col.bool() }).c)).toEqual(
          v.map((x) => (x ? 1 : 0)),
        );
      }),
    );
  });
  it("string codes number distinct strings in order of first appearance, null as the empty string", () => {
    fc.assert(
      fc.property(nullable(fc.constantFrom("a", "b", "", "ü")), cuts, (v, c) => {
        const names: string[] = [];
        const codes = col.stringCodes(
          col.readColumns(chunked(new Utf8(), v, c), "t", { c: col.utf8() }).c,
          names,
        );
        expect(Array.from(codes, (k) => names[k])).toEqual(v.map((x) => x ?? ""));
        expect(names).toEqual([...new Set(v.map((x) => x ?? ""))]);
      }),
    );
  });
});

describe("readColumns checks before it reads", () => {
  const t = chunked(new Int32(), [1, 2], []);
  it("names the table and the missing or mistyped column", () => {
    expect(() => col.readColumns(t, "frames", { d: col.int64() })).toThrow(
      "missing column d (int64) in frames",
    );
    expect(() => col.readColumns(t, "frames", { c: col.int64() })).toThrow(
      "column c in frames is int32, expected int64",
    );
    expect(() => col.readColumns(t, "frames", { c: col.optional(col.utf8()) })).toThrow(
      "column c in frames is int32, expected utf8",
    );
  });
  it("reads an absent optional column as null", () => {
    expect(col.readColumns(t, "frames", { d: col.optional(col.int64()) }).d).toBeNull();
  });
});
