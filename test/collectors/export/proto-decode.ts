// A plain protobuf decoder for the export tests (https://protobuf.dev/programming-guides/encoding/), written
// apart from the importer's: BigInt varints, fields collected into arrays by number.
import { readVarint } from "../../support/read-varint";

export type Field =
  { wire: 0; value: bigint } | { wire: 1; bytes: Uint8Array } | { wire: 2; bytes: Uint8Array };
export type Message = Map<number, Field[]>;

export function decode(b: Uint8Array): Message {
  const out: Message = new Map();
  let i = 0;
  const varint = () => {
    const { value, next } = readVarint(b, i);
    i = next;
    return value;
  };
  while (i < b.length) {
    const key = varint();
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    let f: Field;
    if (wire === 0) f = { wire, value: varint() };
    else if (wire === 1) {
      f = { wire, bytes: b.subarray(i, i + 8) };
      i += 8;
    } else if (wire === 2) {
      const n = Number(varint());
      if (i + n > b.length) throw new Error(`length ${n} at ${i} past the end`);
      f = { wire, bytes: b.subarray(i, i + n) };
      i += n;
    } else throw new Error(`wire type ${wire} at ${i}`);
    out.set(field, [...(out.get(field) ?? []), f]);
  }
  return out;
}

export const int = (m: Message, f: number) => {
  const x = m.get(f)?.[0];
  return x && x.wire === 0 ? x.value : undefined;
};
export const str = (m: Message, f: number) => {
  const x = m.get(f)?.[0];
  return x && x.wire === 2 ? new TextDecoder().decode(x.bytes) : undefined;
};
export const sub = (m: Message, f: number) => {
  const x = m.get(f)?.[0];
  return x && x.wire === 2 ? decode(x.bytes) : undefined;
};
export const subs = (m: Message, f: number) =>
  (m.get(f) ?? []).flatMap((x) => (x.wire === 2 ? [decode(x.bytes)] : []));
export const f64 = (m: Message, f: number) => {
  const x = m.get(f)?.[0];
  return x && x.wire === 1
    ? new DataView(x.bytes.buffer, x.bytes.byteOffset, 8).getFloat64(0, true)
    : undefined;
};
export const u64s = (m: Message, f: number) =>
  (m.get(f) ?? []).flatMap((x) =>
    x.wire === 1 ? [new DataView(x.bytes.buffer, x.bytes.byteOffset, 8).getBigUint64(0, true)] : [],
  );
