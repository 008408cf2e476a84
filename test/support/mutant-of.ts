// Fuzz input for the importers and the bundle reader: one damaged copy of a real file (support/mutants).
import fc from "fast-check";
import { MUTATION_KINDS, mutate, rng, type Mutant } from "./mutants";

/** A mutant of one of `fixtures`, any kind of damage, any seed; with the fixture it was made from. */
export function mutantOf<F>(
  fixtures: readonly F[],
  bytesOf: (fixture: F) => Uint8Array,
): fc.Arbitrary<Mutant & { fixture: F }> {
  return fc
    .tuple(fc.constantFrom(...fixtures), fc.constantFrom(...MUTATION_KINDS), fc.integer())
    .map(([fixture, kind, seed]) => ({ fixture, ...mutate(bytesOf(fixture), kind, rng(seed)) }));
}
