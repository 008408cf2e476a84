// Mutations of real files for the fuzz tests and `npm run bench -- fuzz`, and the independent checks that decide
// whether a parser's "complete" answer is wrong: a seeded RNG, so every mutant can be made again.
import { buildCalls } from "../../collectors/method-trace-calls";
import type { MethodTrace } from "../../collectors/sources/method-trace";
import { mulberry32 } from "../../collectors/simulator/random";

export type MutationKind = "flip" | "byte" | "truncate" | "delete" | "duplicate" | "insert";
export const MUTATION_KINDS: MutationKind[] = ["flip", "byte", "truncate", "delete", "duplicate", "insert"];

export interface Mutant {
  kind: MutationKind;
  at: number;
  bytes: Uint8Array;
}

export const rng = mulberry32;

export function mutate(src: Uint8Array, kind: MutationKind, random: () => number): Mutant {
  const n = src.length;
  const at = Math.floor(random() * Math.max(1, n));
  const span = 1 + Math.floor(random() * Math.min(64, Math.max(1, n - at)));
  let bytes: Uint8Array;
  switch (kind) {
    case "flip":
      bytes = src.slice();
      if (n) bytes[at]! ^= 1 << Math.floor(random() * 8);
      break;
    case "byte":
      bytes = src.slice();
      if (n) bytes[at] = Math.floor(random() * 256);
      break;
    case "truncate":
      bytes = src.slice(0, at);
      break;
    case "delete":
      bytes = new Uint8Array([...src.subarray(0, at), ...src.subarray(at + span)]);
      break;
    case "duplicate":
      bytes = new Uint8Array([...src.subarray(0, at + span), ...src.subarray(at, n)]);
      break;
    case "insert": {
      const extra = Uint8Array.from({ length: span }, () => Math.floor(random() * 256));
      bytes = new Uint8Array([...src.subarray(0, at), ...extra, ...src.subarray(at)]);
      break;
    }
  }
  return { kind, at, bytes };
}

/** What is impossible in a decoded method trace: a thread's clock going back, a call with a negative duration. */
export function methodTraceImpossible(t: MethodTrace): string[] {
  const out: string[] = [];
  const r = t.records;
  const last = new Map<number, [number, number]>();
  for (let i = 0; i < r.action.length; i++) {
    const tid = r.threadId[i]!;
    const w = r.wall?.[i] ?? 0;
    const c = r.threadCpu?.[i] ?? 0;
    const prev = last.get(tid);
    if (prev && (w < prev[0] || c < prev[1])) {
      out.push(`record ${i}: thread ${tid}'s clock goes back`);
      break;
    }
    last.set(tid, [w, c]);
  }
  const inclusive = buildCalls(t).getChild("inclusive")!.toArray() as BigInt64Array;
  if (inclusive.some((v) => v < 0n)) out.push("a call with a negative duration");
  return out;
}
