// A test-side protobuf field walker, shared by the test decoders and written apart from the importer's reader
// (protobuf.dev/programming-guides/encoding: a varint key of field << 3 | wire type, then the payload).

/** One field: varint and fixed values as a BigInt; length-delimited and fixed payloads as their bytes. */
export interface ProtoField {
  field: number;
  wire: 0 | 1 | 2 | 5;
  /** the varint, or the fixed64 / fixed32 read little-endian; 0n for a length-delimited field */
  value: bigint;
  /** the length-delimited body or the fixed bytes; empty for a varint */
  bytes: Uint8Array;
}

/** The top-level fields of one message in order; throws on a cut or an unknown wire type, naming the byte. */
export function protoFields(buf: Uint8Array): ProtoField[] {
  const out: ProtoField[] = [];
  let p = 0;
  const varint = () => {
    const start = p;
    let value = 0n;
    for (let shift = 0n; p < buf.length; shift += 7n) {
      const byte = buf[p++]!;
      value |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return value;
    }
    throw new Error(`varint at byte ${start} runs past the end (${buf.length} bytes)`);
  };
  const take = (n: number, what: string) => {
    if (p + n > buf.length) throw new Error(`${what} of ${n} bytes at byte ${p} runs past the end`);
    p += n;
    return buf.subarray(p - n, p);
  };
  while (p < buf.length) {
    const key = varint();
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) out.push({ field, wire, value: varint(), bytes: new Uint8Array(0) });
    else if (wire === 2) out.push({ field, wire, value: 0n, bytes: take(Number(varint()), "field") });
    else if (wire === 1 || wire === 5) {
      const bytes = take(wire === 1 ? 8 : 4, "fixed value");
      const value = bytes.reduceRight((v, b) => (v << 8n) | BigInt(b), 0n);
      out.push({ field, wire, value, bytes });
    } else throw new Error(`wire type ${wire} (field ${field}) before byte ${p}`);
  }
  return out;
}
