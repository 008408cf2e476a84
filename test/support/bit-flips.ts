// Test support: random bit flips for fuzzing a binary reader with fast-check. A flip's place is a fraction of the
// buffer's length, so one arbitrary fits buffers of any size; its bit is 0 to 7.
import fc from "fast-check";

export type BitFlip = [at: number, bit: number];

/** Up to `maxLength` flips (at least `minLength`). */
export function bitFlips(length: { minLength?: number; maxLength: number }): fc.Arbitrary<BitFlip[]> {
  return fc.array(
    fc.tuple(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), fc.integer({ min: 0, max: 7 })),
    length,
  );
}

/** Flips each bit of `flips` in `bytes`, in place (nothing in an empty buffer). */
export function flipBits(bytes: Uint8Array, flips: readonly BitFlip[]): void {
  if (bytes.length === 0) return;
  for (const [at, bit] of flips) bytes[Math.floor(at * bytes.length)]! ^= 1 << bit;
}
