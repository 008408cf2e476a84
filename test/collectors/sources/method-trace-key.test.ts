import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { describeBytes, readMethodTrace } from "../../../collectors/sources/method-trace";

const ascii = (s: string) => new TextEncoder().encode(s);

describe("describeBytes", () => {
  it.each([
    ["an empty file", new Uint8Array(0), 0, "an empty file (0 bytes)"],
    ["past the end", ascii("abc"), 3, "nothing: the file ends at byte 3"],
    // Trace{packet: TracePacket{timestamp (field 8, varint) = 1}}: 0a 02 | 40 01, encoded by hand.
    [
      "a Perfetto trace",
      Uint8Array.of(0x0a, 0x02, 0x40, 0x01),
      0,
      "a Perfetto trace (protobuf Trace: field 1 TracePacket of 2 bytes at byte 0), not this format",
    ],
    [
      "a compressed systrace",
      new Uint8Array([...ascii("TRACE:\n"), ...deflateSync(ascii("# tracer: nop\n"))]),
      0,
      'a compressed systrace ("TRACE:" then zlib data at byte 7), not this format',
    ],
    ["plain binary", Uint8Array.of(0xde, 0xad, 0xbe, 0xef), 0, "binary bytes at byte 0: de ad be ef"],
  ])("%s", (_, bytes, at, expected) => {
    expect(describeBytes(bytes, at)).toBe(expected);
  });

  it("a packet length past the end of the file is not called Perfetto", () => {
    expect(describeBytes(Uint8Array.of(0x0a, 0x09, 0x40, 0x01), 0)).toBe(
      "binary bytes at byte 0: 0a 09 40 01",
    );
  });

  it("readMethodTrace names what a Perfetto trace is", () => {
    expect(() => readMethodTrace(Uint8Array.of(0x0a, 0x02, 0x40, 0x01))).toThrow(
      "not a method trace: a Perfetto trace",
    );
  });
});
