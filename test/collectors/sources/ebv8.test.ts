import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  EBV8_MAX_U32,
  EBV8_MAX_U64,
  ebv8Bytes,
  ebv8Length,
  readEbv8,
  writeEbv8,
} from "../../../collectors/sources/ebv8";

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join(" ");

describe("EBV-8 (AndroScope §IV-6, Fig. 10)", () => {
  // Fig. 10's rows, then the u4 and u8 extremes worked by hand (7-bit groups, most significant first).
  it.each([
    [0, "00"],
    [1, "01"],
    [127, "7f"],
    [128, "81 00"],
    [16383, "ff 7f"],
    [16384, "81 80 00"],
    [300, "82 2c"], // 2*128 + 44
    [2 ** 32 - 1, "8f ff ff ff 7f"], // 4 bits, then four groups of 7 ones
    [2n ** 64n - 1n, "81 ff ff ff ff ff ff ff ff 7f"], // 1 bit, eight groups of 7 ones, 7 ones
    [2n ** 53n, "90 80 80 80 80 80 80 00"], // bit 53 is bit 4 of the 8th group from the end
  ] as [number | bigint, string][])("%s encodes as %s and reads back", (value, bytes) => {
    expect(hex(ebv8Bytes(value))).toBe(bytes);
    expect(ebv8Length(value)).toBe(bytes.split(" ").length);
    const r = readEbv8(ebv8Bytes(value), 0, EBV8_MAX_U64)!;
    expect(r.next).toBe(bytes.split(" ").length);
    expect(r.big ?? BigInt(r.value)).toBe(BigInt(value));
  });

  it("round-trips every u8 value, in the fewest 7-bit groups", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.integer({ min: 0, max: 3 }), (v, pad) => {
        const out = new Uint8Array(pad + 12).fill(0xee);
        const next = writeEbv8(out, pad, v);
        expect(next - pad).toBe(Math.max(1, Math.ceil(v.toString(2).length / 7)));
        const r = readEbv8(out, pad, EBV8_MAX_U64)!;
        expect(r.next).toBe(next);
        expect(r.big ?? BigInt(r.value)).toBe(v);
        if (v < 2n ** 53n) expect(r.value).toBe(Number(v));
      }),
      { numRuns: 500 },
    );
  });

  it("numbers and bigints of the same value encode alike", () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), (v) => {
        expect(hex(ebv8Bytes(v))).toBe(hex(ebv8Bytes(BigInt(v))));
      }),
      { numRuns: 300 },
    );
  });

  it("reports a value that runs past the end or past the field's longest encoding as null", () => {
    expect(readEbv8(Uint8Array.of(0x81, 0x80), 0, EBV8_MAX_U64)).toBeNull(); // cut short
    expect(readEbv8(Uint8Array.of(0x81, 0x80, 0x80, 0x80, 0x80, 0x00), 0, EBV8_MAX_U32)).toBeNull(); // 6 bytes for a u4
    expect(readEbv8(Uint8Array.of(0x81, 0x80, 0x80, 0x80, 0x00), 0, EBV8_MAX_U32)).toEqual({
      value: 2 ** 28,
      next: 5,
    });
  });

  it("refuses negative and unsafe numbers", () => {
    expect(() => ebv8Bytes(-1)).toThrow(/non-negative/);
    expect(() => writeEbv8(new Uint8Array(10), 0, 2 ** 60)).toThrow(/non-negative integers/);
  });
});
