// Test-side protobuf helpers written apart from the decoder: a BigInt encoder to build traces by hand and a
// plain field walker to count what a trace holds (protobuf.dev/programming-guides/encoding).
import { protoFields } from "../../support/proto-fields";

export type Field =
  | { f: number; v: number | bigint } // varint
  | { f: number; s: string } // length-delimited text
  | { f: number; m: Field[] } // nested message
  | { f: number; b: Uint8Array } // raw bytes
  | { f: number; d: number }; // double (fixed64)

function varint(n: bigint, out: number[]) {
  let v = BigInt.asUintN(64, n);
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v) byte |= 0x80;
    out.push(byte);
  } while (v);
}

export function encode(fields: Field[]): Uint8Array {
  const out: number[] = [];
  for (const x of fields) {
    if ("v" in x) {
      varint(BigInt(x.f) << 3n, out);
      varint(BigInt(x.v), out);
    } else if ("d" in x) {
      varint((BigInt(x.f) << 3n) | 1n, out);
      const b = new Uint8Array(8);
      new DataView(b.buffer).setFloat64(0, x.d, true);
      out.push(...b);
    } else {
      const body = "s" in x ? new TextEncoder().encode(x.s) : "m" in x ? encode(x.m) : x.b;
      varint((BigInt(x.f) << 3n) | 2n, out);
      varint(BigInt(body.length), out);
      for (const c of body) out.push(c);
    }
  }
  return Uint8Array.from(out);
}

/** A trace from packets, each a list of TracePacket fields. */
export function trace(packets: Field[][]): Uint8Array {
  return encode(packets.map((p) => ({ f: 1, m: p })));
}

export interface Walked {
  f: number;
  wt: number;
  /** varint / fixed value */
  n?: bigint;
  /** length-delimited payload */
  b?: Uint8Array;
}

/** Top-level fields of one message; throws on anything malformed. */
export function walk(buf: Uint8Array): Walked[] {
  return protoFields(buf).map(({ field: f, wire: wt, value, bytes }) =>
    wt === 2 ? { f, wt, b: bytes } : { f, wt, n: value },
  );
}

/** The sub-messages at a path of field numbers, e.g. [1, 1, 2] = packet.ftrace_events.event. */
export function at(buf: Uint8Array, path: number[]): Uint8Array[] {
  let level = [buf];
  for (const f of path)
    level = level.flatMap((m) =>
      walk(m)
        .filter((x) => x.f === f && x.b !== undefined)
        .map((x) => x.b!),
    );
  return level;
}
