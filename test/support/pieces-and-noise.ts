// Fuzz input for text parsers: the tokens a parser looks for, mixed with random noise, so that runs reach the
// parser's branches (bare random strings almost never form a header or a key) and its error paths.
import fc from "fast-check";

/** Texts of up to `maxParts` parts, each one of `pieces` or a random string of up to `noise` characters. */
export function piecesAndNoise(
  pieces: readonly string[],
  { noise, maxParts }: { noise: number; maxParts: number },
): fc.Arbitrary<string> {
  return fc
    .array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: noise })), { maxLength: maxParts })
    .map((parts) => parts.join(""));
}
