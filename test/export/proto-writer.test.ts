import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ProtoWriter } from "../../export/proto-writer";
import { decode, f64, int, str, sub } from "./proto-decode";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("ProtoWriter", () => {
  it("writes the encoding guide's examples byte for byte", () => {
    // protobuf.dev encoding guide: field 1 = 150 is 08 96 01; field 2 = "testing" is 12 07 74 65 73 74 69 6e 67.
    expect(hex(new ProtoWriter().varint(1, 150).finish())).toBe("089601");
    expect(hex(new ProtoWriter().string(2, "testing").finish())).toBe("1287808000" + "74657374696e67");
    // int32 -2 is ten bytes of two's complement: fe ff ff ff ff ff ff ff ff 01.
    expect(hex(new ProtoWriter().varint(1, -2).finish())).toBe("08feffffffffffffffff01");
    expect(hex(new ProtoWriter().fixed64(47, 1n).finish())).toBe("f9020100000000000000");
    expect(hex(new ProtoWriter().double(44, 1.5).finish())).toBe("e102000000000000f83f");
  });

  it("nested lengths are four-byte redundant varints, patched at end()", () => {
    const b = new ProtoWriter().begin(3).varint(1, 150).end().finish();
    expect(hex(b)).toBe("1a83808000089601");
    expect(() => new ProtoWriter().begin(1).finish()).toThrow(/1 message\(s\) not ended/);
    expect(() => new ProtoWriter().end()).toThrow(/without begin/);
  });

  it("round-trips random messages through an independent decoder, across buffer growth", () => {
    const value = fc.oneof(
      fc.record({ k: fc.constant("v" as const), v: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }) }),
      fc.record({ k: fc.constant("n" as const), v: fc.maxSafeNat() }),
      fc.record({ k: fc.constant("s" as const), v: fc.string({ unit: "grapheme", maxLength: 40 }) }),
      fc.record({ k: fc.constant("d" as const), v: fc.double({ noNaN: true }) }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 2000 }), value), { maxLength: 60 }),
        (fields) => {
          const w = new ProtoWriter(8).begin(5);
          for (const [f, x] of fields) {
            if (x.k === "v" || x.k === "n") w.varint(f, x.v);
            else if (x.k === "s") w.string(f, x.v);
            else w.double(f, x.v);
          }
          const m = sub(decode(w.end().finish()), 5)!;
          const seen = new Map<number, number>();
          for (const [f, x] of fields) {
            const k = seen.get(f) ?? 0;
            seen.set(f, k + 1);
            const got = m.get(f)![k]!;
            if (x.k === "v" || x.k === "n") expect(got).toEqual({ wire: 0, value: BigInt(x.v) });
            else if (x.k === "s") expect(got.wire === 2 && new TextDecoder().decode(got.bytes)).toBe(x.v);
            else expect(f64(new Map([[f, [got]]]), f)).toBe(x.v);
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(int(decode(new ProtoWriter().varint(9, 2 ** 53).finish()), 9)).toBe(2n ** 53n);
    expect(str(decode(new ProtoWriter().string(1, "é€𝄞").finish()), 1)).toBe("é€𝄞");
  });
});
