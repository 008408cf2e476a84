// Execution contexts grouped by single-linkage clustering over frame edit distance (DiagDroid §4.2, §6.2):
// contexts i and j share a group iff a chain of contexts links them with every consecutive pair at edit
// distance ≤ maxDistance. Exact: the filters below only skip pairs that provably cannot be within the bound.
//
// How it stays fast (10,000 distinct depth-40 contexts in well under 2 s):
// - frames are interned to integers and identical contexts collapse to one (distance 0);
// - pigeonhole filter: if ed(x, y) ≤ k, then of any k + 1 disjoint pieces of x at least one appears
//   unchanged in y, shifted by at most k positions (each edit touches at most one piece). Each context
//   indexes k + 1 disjoint frame bigrams (single frames when it is short), the rarest ones it has, so
//   framework frames shared by every stack do not make everything a candidate. Every context then probes
//   the index with its own bigrams and frames; contexts too short to have k + 1 pieces are compared to
//   each other directly;
// - candidate pairs already in one union-find set are skipped; the rest go through a banded edit
//   distance that strips common prefix/suffix and exits as soon as a band row exceeds k.
import { boundedEditDistance, editScratch } from "./edit-distance";

export interface ContextGroupsOptions {
  /** Largest edit distance (in frames) that links two contexts directly; default DIAGDROID.maxDistance (defaults.ts). */
  maxDistance?: number;
}

/** A group id per context, numbered 0, 1, 2, … in order of first appearance. */
export function contextGroups(contexts: readonly (readonly string[])[], maxDistance: number): Int32Array {
  if (!Number.isInteger(maxDistance) || maxDistance < 0)
    throw new Error(`contextGroups: maxDistance must be a non-negative integer, got ${maxDistance}`);
  const k = maxDistance;
  const n = contexts.length;

  // Intern frames; collapse identical contexts.
  const frameIds = new Map<string, number>();
  const distinctOf = new Int32Array(n);
  const seen = new Map<string, number>();
  const stacks: Int32Array[] = [];
  for (let i = 0; i < n; i++) {
    const c = contexts[i]!;
    const ids = new Int32Array(c.length);
    for (let f = 0; f < c.length; f++) {
      const s = c[f]!;
      let id = frameIds.get(s);
      if (id === undefined) frameIds.set(s, (id = frameIds.size));
      ids[f] = id;
    }
    const key = ids.join(",");
    let d = seen.get(key);
    if (d === undefined) {
      seen.set(key, (d = stacks.length));
      stacks.push(ids);
    }
    distinctOf[i] = d;
  }

  const parent = linkDistinct(stacks, k, frameIds.size);
  const groupOfRoot = new Int32Array(stacks.length).fill(-1);
  const out = new Int32Array(n);
  let next = 0;
  for (let i = 0; i < n; i++) {
    const r = find(parent, distinctOf[i]!);
    if (groupOfRoot[r] === -1) groupOfRoot[r] = next++;
    out[i] = groupOfRoot[r]!;
  }
  return out;
}

function find(parent: Int32Array, x: number): number {
  while (parent[x] !== x) {
    const g = parent[parent[x]!]!;
    parent[x] = g;
    x = g;
  }
  return x;
}

/** Union-find parents over the distinct stacks after linking every pair at distance ≤ k. */
function linkDistinct(stacks: Int32Array[], k: number, vocabulary: number): Int32Array {
  const nd = stacks.length;
  const parent = new Int32Array(nd);
  for (let i = 0; i < nd; i++) parent[i] = i;
  if (k === 0 || nd < 2) return parent;
  const scratch = editScratch();
  const union = (x: number, y: number) => {
    const rx = find(parent, x);
    const ry = find(parent, y);
    if (rx === ry) return;
    const a = stacks[x]!;
    const b = stacks[y]!;
    if (boundedEditDistance(a, 0, a.length, b, 0, b.length, k, scratch) <= k)
      parent[rx < ry ? ry : rx] = rx < ry ? rx : ry;
  };

  // Exact keys for bigrams: frame ids are < 2^26 in any realistic trace; beyond that use single frames.
  const useBigrams = vocabulary < 1 << 26;
  const key2 = (s: Int32Array, p: number) => s[p]! * 67108864 + s[p + 1]!;
  const pieces = k + 1;

  // Document frequency of every bigram and frame, to pick each stack's rarest pieces.
  const freq1 = new Map<number, number>();
  const freq2 = new Map<number, number>();
  for (const s of stacks) {
    for (let p = 0; p < s.length; p++) freq1.set(s[p]!, (freq1.get(s[p]!) ?? 0) + 1);
    if (useBigrams)
      for (let p = 0; p + 1 < s.length; p++) freq2.set(key2(s, p), (freq2.get(key2(s, p)) ?? 0) + 1);
  }

  // Index: piece key → flat [stack, position, stack, position, ...].
  const index1 = new Map<number, number[]>();
  const index2 = new Map<number, number[]>();
  const short: number[] = [];
  const add = (index: Map<number, number[]>, key: number, x: number, p: number) => {
    const list = index.get(key);
    if (list) list.push(x, p);
    else index.set(key, [x, p]);
  };
  for (let x = 0; x < nd; x++) {
    const s = stacks[x]!;
    const q = useBigrams && s.length >= 2 * pieces ? 2 : s.length >= pieces ? 1 : 0;
    if (q === 0) {
      short.push(x);
      continue;
    }
    for (const p of rarestDisjoint(
      s,
      q,
      pieces,
      q === 2 ? (p) => freq2.get(key2(s, p))! : (p) => freq1.get(s[p]!)!,
    ))
      add(q === 2 ? index2 : index1, q === 2 ? key2(s, p) : s[p]!, x, p);
  }

  // Probe: every stack looks up its frames and bigrams; pieces found within shift k are candidates.
  const stamp = new Int32Array(nd).fill(-1);
  const visit = (list: number[] | undefined, y: number, py: number, ly: number) => {
    if (!list) return;
    for (let e = 0; e < list.length; e += 2) {
      const x = list[e]!;
      const px = list[e + 1]!;
      if (x === y || stamp[x] === y || px - py > k || py - px > k) continue;
      stamp[x] = y;
      const lx = stacks[x]!.length;
      if (lx - ly > k || ly - lx > k) continue;
      union(x, y);
    }
  };
  for (let y = 0; y < nd; y++) {
    const s = stacks[y]!;
    const ly = s.length;
    for (let p = 0; p < ly; p++) {
      visit(index1.get(s[p]!), y, p, ly);
      if (useBigrams && p + 1 < ly) visit(index2.get(key2(s, p)), y, p, ly);
    }
  }
  // Stacks shorter than k + 1 frames have no pieces: compare them with each other directly.
  for (let i = 0; i < short.length; i++)
    for (let j = i + 1; j < short.length; j++) union(short[i]!, short[j]!);
  return parent;
}

/** Start positions of `count` disjoint q-grams of s, rarest first (greedy; falls back to a fixed tiling). */
function rarestDisjoint(s: Int32Array, q: number, count: number, frequency: (p: number) => number): number[] {
  const positions = Array.from({ length: s.length - q + 1 }, (_, p) => p);
  const f = positions.map(frequency);
  positions.sort((a, b) => f[a]! - f[b]! || a - b);
  const taken = new Uint8Array(s.length);
  const chosen: number[] = [];
  for (const p of positions) {
    if (chosen.length === count) break;
    let free = true;
    for (let t = p; t < p + q; t++) if (taken[t]) free = false;
    if (!free) continue;
    for (let t = p; t < p + q; t++) taken[t] = 1;
    chosen.push(p);
  }
  if (chosen.length === count) return chosen;
  return Array.from({ length: count }, (_, i) => i * q);
}
