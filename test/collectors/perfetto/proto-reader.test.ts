import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PerfettoFormatError, ProtoReader, VARINT } from "../../../collectors/sources/perfetto/proto-reader";
import { encode } from "./pb";

const reader = (bytes: number[], base = 0) => new ProtoReader(Uint8Array.from(bytes), 0, bytes.length, base);

describe("ProtoReader", () => {
  it.each([
    // Hand-encoded (protobuf.dev encoding guide: 150 = 96 01, 300 = ac 02).
    [[0x00], 0],
    [[0x7f], 127],
    [[0x96, 0x01], 150],
    [[0xac, 0x02], 300],
    [[0xff, 0xff, 0xff, 0xff, 0x0f], 0xffffffff],
    [[0x80, 0x80, 0x80, 0x80, 0x10], 2 ** 32],
    [[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f], 2 ** 53 - 1],
  ])("varint %j is %d", (bytes, value) => {
    const r = reader(bytes);
    expect(r.varint()).toBe(value);
    expect(r.more()).toBe(false);
  });

  it("int64: -1 and -2 take ten bytes", () => {
    expect(reader([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]).int64()).toBe(-1);
    expect(reader([0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]).int64()).toBe(-2);
  });

  it("sint (zigzag): 0 0, 1 -1, 2 1, 3 -2", () => {
    expect([0, 1, 2, 3].map((b) => reader([b]).sint())).toEqual([0, -1, 1, -2]);
  });

  it("fixed32, fixed64 and double are little-endian", () => {
    expect(reader([0x01, 0x02, 0x03, 0x04]).fixed32()).toBe(0x04030201);
    expect(reader([0, 0, 0, 0, 1, 0, 0, 0]).fixed64()).toBe(2 ** 32);
    expect(reader([0, 0, 0, 0, 0, 0, 0xf0, 0x3f]).double()).toBe(1);
  });

  it("errors name the byte offset, counted from the base", () => {
    // A length of 5 with 2 bytes left, at byte 1 of a message that starts at file byte 100.
    const r = reader([0x0a, 0x05, 0x01, 0x02], 100);
    expect(r.tag()).toBe(0x0a);
    expect(() => r.len()).toThrow(
      new PerfettoFormatError(101, "length 5 runs past the end of its message (2 bytes left)"),
    );
    expect(() => reader([0x80, 0x80]).varint()).toThrow(/byte 0: varint runs past the end/);
    expect(() => reader(Array(11).fill(0xff)).varint()).toThrow(/varint longer than 10 bytes/);
    expect(() => reader([0x0b]).tag()).toThrow(/byte 0: invalid field tag 11 \(field 1, wire type 3\)/);
    expect(() => reader([0x00]).tag()).toThrow(/invalid field tag 0/);
  });

  it("a sub-message cannot read past its own end even when the buffer goes on", () => {
    const bytes = encode([
      { f: 1, b: Uint8Array.from([0x08]) },
      { f: 2, v: 7 },
    ]);
    const r = new ProtoReader(bytes, 0, bytes.length);
    r.tag();
    const m = r.message();
    expect(m.tag()).toBe(8);
    expect(() => m.varint()).toThrow(/runs past the end/);
  });

  it("nextLen skips to the next length-delimited field among the two asked for, then returns 0 at the end", () => {
    // Field 1 as a varint and field 3 as bytes are passed over; field 2 (a double) too: only wire type 2 counts.
    const bytes = encode([
      { f: 1, v: 5 },
      { f: 3, s: "skip" },
      { f: 2, d: 1.5 },
      { f: 2, s: "two" },
      { f: 4, v: 9 },
      { f: 1, s: "one" },
      { f: 5, s: "tail" },
    ]);
    const r = new ProtoReader(bytes, 0, bytes.length);
    expect(r.nextLen(1, 2)).toBe(2);
    expect(r.string()).toBe("two");
    expect(r.nextLen(1, 2)).toBe(1);
    expect(r.string()).toBe("one");
    expect(r.nextLen(1, 2)).toBe(0);
    expect(r.more()).toBe(false);
  });

  it("skip of a fixed-size value past the end names the byte and the wire type", () => {
    // Tag 0x09 (field 1, fixed64) with 3 bytes left; tag 0x0d (field 1, fixed32) with 2; from file byte 50.
    const r64 = reader([0x09, 1, 2, 3], 50);
    expect(() => r64.skip(r64.tag() & 7)).toThrow(
      new PerfettoFormatError(51, "fixed64 runs past the end of its message"),
    );
    const r32 = reader([0x0d, 1, 2], 50);
    expect(() => r32.skip(r32.tag() & 7)).toThrow(
      new PerfettoFormatError(51, "fixed32 runs past the end of its message"),
    );
    expect(() => reader([0, 0, 0]).fixed32()).toThrow(/byte 0: fixed32 runs past the end/);
    expect(() => reader([0, 0, 0, 0, 0, 0, 0]).double()).toThrow(/byte 0: double runs past the end/);
    // A value that fits is passed over whole.
    const ok = reader([0x0d, 1, 2, 3, 4, 0x08, 7]);
    ok.skip(ok.tag() & 7);
    expect(ok.tag()).toBe(8);
    expect(ok.varint()).toBe(7);
  });

  it("property: any uint below 2^53 and any int64 round-trip through an independent BigInt encoder", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 53n - 1n }),
        fc.bigInt({ min: -(2n ** 53n) + 1n, max: 2n ** 53n - 1n }),
        (u, s) => {
          const bytes = encode([
            { f: 1, v: u },
            { f: 2, v: s },
          ]);
          const r = new ProtoReader(bytes, 0, bytes.length);
          expect(r.tag()).toBe(8);
          expect(r.varint()).toBe(Number(u));
          expect(r.tag()).toBe(16);
          expect(r.int64()).toBe(Number(s));
        },
      ),
    );
  });

  it("property: readVarint leaves in VARINT what the BigInt encoder wrote, with a message end anywhere after it", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 53n - 1n }), fc.nat(12), (u, slack) => {
        // The varint, then `slack` bytes of the message (readVarint decodes in place only with 7 bytes in reach).
        const bytes = encode([{ f: 1, v: u }]).subarray(1);
        const buf = new Uint8Array(bytes.length + slack).fill(0x80);
        buf.set(bytes);
        const r = new ProtoReader(buf, 0, buf.length);
        r.readVarint();
        expect(VARINT[0]).toBe(Number(u));
        expect(r.pos).toBe(bytes.length);
      }),
    );
  });

  it("readVarint past its message's end fails as varint does", () => {
    // 0x96 0x01 is 150; a message that ends after the first byte cuts it (at file byte 40, where the varint starts).
    const cut = () => new ProtoReader(Uint8Array.from([0x96, 0x01, 0, 0, 0, 0, 0, 0]), 0, 1, 40);
    expect(() => cut().varint()).toThrow(/^byte 40: varint runs past the end of its message$/);
    expect(() => cut().readVarint()).toThrow(/^byte 40: varint runs past the end of its message$/);
  });

  it("property: packed varints read back the list", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2 ** 31 }), { maxLength: 50 }), (list) => {
        // A packed field is the varints back to back inside one length-delimited field.
        const body: number[] = [];
        for (const v of list) {
          let x = v;
          do {
            body.push((x & 0x7f) | (x > 0x7f ? 0x80 : 0));
            x = Math.floor(x / 128);
          } while (x > 0);
        }
        const bytes = encode([{ f: 3, b: Uint8Array.from(body) }]);
        const r = new ProtoReader(bytes, 0, bytes.length);
        const out: number[] = [];
        r.packedVarints(r.tag() & 7, out);
        expect(out).toEqual(list);
      }),
    );
  });
});
