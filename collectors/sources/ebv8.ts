// EBV-8, the extensible bit vector of AndroScope's compact log (§IV-6, Fig. 10): 7 value bits per byte,
// most significant group first; a byte's top bit is 1 when another byte follows (128 -> 81 00).
// Used for the deltas of time, heap and hardware-counter values in compact extended method traces.

/** Longest encoding of a u4 value (32 bits in 7-bit groups). */
export const EBV8_MAX_U32 = 5;
/** Longest encoding of a u8 value (64 bits in 7-bit groups). */
export const EBV8_MAX_U64 = 10;

const TWO32 = 4294967296;

/** Bytes the EBV-8 encoding of a non-negative integer takes. */
export function ebv8Length(value: number | bigint): number {
  let v = BigInt(value);
  if (v < 0n) throw new RangeError(`EBV-8 encodes non-negative integers, got ${value}`);
  let n = 1;
  while ((v >>= 7n) > 0n) n++;
  return n;
}

/** Writes `value` (a safe non-negative integer or a bigint) at `at`; returns the offset after it. */
export function writeEbv8(out: Uint8Array, at: number, value: number | bigint): number {
  if (typeof value === "number" && (!Number.isSafeInteger(value) || value < 0))
    throw new RangeError(`EBV-8 encodes non-negative integers, got ${value}`);
  if (typeof value === "number" && value < TWO32) {
    // Fast path for u4 values (times, heap): 7-bit groups by shifts, most significant first.
    let groups = 1;
    for (let v = value >>> 7; v > 0; v >>>= 7) groups++;
    for (let g = groups - 1; g >= 0; g--) {
      const bits = (value >>> (7 * g)) & 0x7f; // g <= 4: shifts stay below 32
      out[at++] = g > 0 ? bits | 0x80 : bits;
    }
    return at;
  }
  const v = BigInt(value);
  const groups = ebv8Length(v);
  for (let g = groups - 1; g >= 0; g--) {
    const bits = Number((v >> BigInt(7 * g)) & 0x7fn);
    out[at++] = g > 0 ? bits | 0x80 : bits;
  }
  return at;
}

/** The EBV-8 bytes of a value, e.g. ebv8Bytes(16384) = [0x81, 0x80, 0x00]. */
export function ebv8Bytes(value: number | bigint): Uint8Array {
  const out = new Uint8Array(ebv8Length(value));
  writeEbv8(out, 0, value);
  return out;
}

export interface Ebv8Value {
  /** the value; exact below 2^53 (u8 values above that are rounded, like every u8 the reader turns into a number) */
  value: number;
  /** the exact value when the encoding is longer than 7 bytes (may exceed 2^53), else undefined */
  big?: bigint;
  /** offset after the encoding */
  next: number;
}

/**
 * Reads one EBV-8 value at `at`, at most `maxBytes` long; null when the bytes end first or the
 * encoding is longer than `maxBytes` (corrupt data: the caller reports the offset).
 */
export function readEbv8(bytes: Uint8Array, at: number, maxBytes: number): Ebv8Value | null {
  let p = at;
  let v = 0;
  for (let k = 0; k < maxBytes; k++) {
    if (p >= bytes.length) return null;
    const b = bytes[p++]!;
    v = v * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) {
      if (k < 7) return { value: v, next: p };
      // Longer than 49 bits: re-read exactly.
      let big = 0n;
      for (let q = at; q < p; q++) big = (big << 7n) | BigInt(bytes[q]! & 0x7f);
      return { value: Number(big), big, next: p };
    }
  }
  return null;
}
