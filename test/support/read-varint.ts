// A test-side protobuf varint reader, shared by the test decoders and written apart from the importer's
// (protobuf.dev/programming-guides/encoding: base 128, low group first, high bit set on all but the last byte).

/** The varint starting at byte `at` as a BigInt, and the offset of the byte after it. */
export function readVarint(bytes: Uint8Array, at: number): { value: bigint; next: number } {
  let value = 0n;
  let shift = 0n;
  for (let i = at; i < bytes.length; i++) {
    const byte = bytes[i]!;
    value |= BigInt(byte & 0x7f) << shift;
    shift += 7n;
    if (byte < 0x80) return { value, next: i + 1 };
  }
  throw new Error(`varint at byte ${at} runs past the end (${bytes.length} bytes)`);
}
