// A plain protobuf decoder for the export tests (https://protobuf.dev/programming-guides/encoding/), written
// apart from the importer's: BigInt varints, fields collected into arrays by number.
import { protoFields } from "../support/proto-fields";

export type Field =
  { wire: 0; value: bigint } | { wire: 1; bytes: Uint8Array } | { wire: 2; bytes: Uint8Array };
export type Message = Map<number, Field[]>;

export function decode(b: Uint8Array): Message {
  const out: Message = new Map();
  for (const { field, wire, value, bytes } of protoFields(b)) {
    // the exporter writes no fixed32: one would be a writer bug
    if (wire === 5) throw new Error(`wire type 5 in field ${field}`);
    const f: Field = wire === 0 ? { wire, value } : { wire, bytes };
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
