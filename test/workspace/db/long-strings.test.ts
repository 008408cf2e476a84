// planReads (workspace/db/node/long-strings.ts) on made-up string_t entries: only the plan is computed, nothing is
// read, so any address can be tried. Each read must touch only 4 KiB pages that hold a byte of one of its strings,
// hold each of its strings whole, stay near the bytes it needs, and strings lying together must share a read.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_SPAN, PAGE, planReads, type ReadPlan } from "../../../workspace/db/node/long-strings";
import { fcRuns } from "../../support/fc-runs";

interface Str {
  address: number;
  length: number;
}

/** string_t entries of 16 bytes (length, 4-byte prefix, 8-byte pointer), one per string, as a vector holds them. */
function vectorOf(strings: readonly Str[]): [Uint8Array, Int32Array] {
  // the vector's bytes start 8 bytes into their buffer, and the entries 16 bytes into them
  const data = new Uint8Array(new ArrayBuffer(strings.length * 16 + 32), 8);
  const view = new DataView(data.buffer, data.byteOffset);
  const entries = Int32Array.from(strings, (_, k) => 16 + k * 16);
  strings.forEach((s, k) => {
    view.setUint32(entries[k]!, s.length, true);
    view.setBigUint64(entries[k]! + 8, BigInt(s.address), true);
  });
  return [data, entries];
}

/** Bytes covered by the strings, each byte once. */
function unionBytes(strings: readonly Str[]): number {
  const sorted = [...strings].sort((a, b) => a.address - b.address);
  let total = 0;
  let end = -Infinity;
  for (const { address, length } of sorted) {
    total += Math.max(0, address + length - Math.max(address, end));
    end = Math.max(end, address + length);
  }
  return total;
}

/** The reads as [start, span, strings], in plan order. */
function readsOf(
  plan: ReadPlan,
  strings: readonly Str[],
): { start: number; span: number; members: number[] }[] {
  const reads = [];
  for (let r = 0; r + 1 < plan.groups.length; r++) {
    const members = Array.from(plan.order.subarray(plan.groups[r]!, plan.groups[r + 1]!));
    reads.push({ start: strings[members[0]!]!.address, span: plan.span[r]!, members });
  }
  return reads;
}

/** Every property a plan must have, checked by brute force over the strings and pages. */
function checkPlan(strings: readonly Str[], plan: ReadPlan): void {
  const reads = readsOf(plan, strings);
  const seen = new Set<number>();
  for (const { start, span, members } of reads) {
    for (const k of members) {
      expect(seen.has(k), `string ${k} in two reads`).toBe(false);
      seen.add(k);
      const s = strings[k]!;
      // the read starts at its lowest string (it is anchored at that string's pointer) and holds each whole
      expect(s.address, `string ${k} below its read`).toBeGreaterThanOrEqual(start);
      expect(plan.at[k], `string ${k}'s offset`).toBe(s.address - start);
      expect(s.address + s.length, `string ${k} past its read`).toBeLessThanOrEqual(start + span);
    }
    // the read's last byte is some string's last byte
    expect(Math.max(...members.map((k) => strings[k]!.address + strings[k]!.length))).toBe(start + span);
    // every 4 KiB page the read touches holds a byte of one of its strings
    for (let page = Math.floor(start / PAGE); page * PAGE < start + span; page++) {
      const held = members.some((k) => {
        const s = strings[k]!;
        return s.address < (page + 1) * PAGE && s.address + s.length > page * PAGE;
      });
      expect(held, `page ${page} of the read at ${start} holds no string byte`).toBe(true);
    }
    // near the bytes it needs: the union of its strings
    if (members.length > 1) {
      expect(span).toBeLessThanOrEqual(2 * unionBytes(members.map((k) => strings[k]!)) + 2 * PAGE);
      expect(span).toBeLessThanOrEqual(MAX_SPAN);
    }
  }
  expect(seen.size).toBe(strings.length);
}

const A = 0x7f12_3450_0000; // a page-aligned user-space address, as x86-64 Linux hands out

describe("planReads", () => {
  it("reads strings lying one after the other, in any row order, in one call", () => {
    const strings = [40, 13, 27, 100, 13].reduce<Str[]>((out, length) => {
      const last = out[out.length - 1];
      return [...out, { address: last ? last.address + last.length : A + 5, length }];
    }, []);
    const rows = [3, 0, 4, 1, 2].map((k) => strings[k]!);
    const plan = planReads(...vectorOf(rows));
    expect(readsOf(plan, rows)).toEqual([{ start: A + 5, span: 193, members: [1, 3, 4, 0, 2] }]);
    checkPlan(rows, plan);
  });

  it("puts blocks of rows, each in address order, in order whole", () => {
    // rows 0-2 lie in a block above rows 3-5's (a chunk gathered from two heap blocks), the pages between empty
    const strings = [
      { address: A + 9 * PAGE, length: 20 },
      { address: A + 9 * PAGE + 20, length: 30 },
      { address: A + 9 * PAGE + 50, length: 13 },
      { address: A + 64, length: 100 },
      { address: A + 164, length: 40 },
      { address: A + 204, length: 13 },
    ];
    const plan = planReads(...vectorOf(strings));
    checkPlan(strings, plan);
    expect(readsOf(plan, strings)).toEqual([
      { start: A + 64, span: 153, members: [3, 4, 5] },
      { start: A + 9 * PAGE, span: 63, members: [0, 1, 2] },
    ]);
  });

  it("splits where a whole page between two strings holds none of their bytes", () => {
    const cases: [string, Str[], number[][]][] = [
      // the first string ends on page 0 and the next starts on page 1: no page in between
      [
        "next page",
        [
          { address: A + 4000, length: 50 },
          { address: A + 2 * PAGE - 20, length: 20 },
        ],
        [[0, 1]],
      ],
      // the next starts on page 2, page 1 holds nothing
      [
        "a page skipped",
        [
          { address: A + 100, length: 50 },
          { address: A + 2 * PAGE, length: 20 },
        ],
        [[0], [1]],
      ],
      // a string over two pages reaches page 1, so page 2 follows it
      [
        "across a page",
        [
          { address: A + 4090, length: 20 },
          { address: A + 2 * PAGE + 9, length: 13 },
        ],
        [[0, 1]],
      ],
      // a long first string covers what a later one would skip
      [
        "covered by the first",
        [
          { address: A, length: 3 * PAGE },
          { address: A + 20, length: 13 },
          { address: A + 4 * PAGE - 13, length: 13 },
        ],
        [[0, 1, 2]],
      ],
    ];
    for (const [name, strings, groups] of cases) {
      const plan = planReads(...vectorOf(strings));
      expect(
        readsOf(plan, strings).map((r) => r.members),
        name,
      ).toEqual(groups);
      checkPlan(strings, plan);
    }
  });

  it("keeps a read near its strings' bytes when they are sparse, and under MAX_SPAN", () => {
    // one 13-byte string a page: every page holds a byte, but a read of them all would copy 300 times their size;
    // three a read (8,205 bytes for 39) is the most within twice their bytes plus two pages
    const sparse = Array.from({ length: 64 }, (_, k) => ({ address: A + k * PAGE, length: 13 }));
    const plan = planReads(...vectorOf(sparse));
    checkPlan(sparse, plan);
    expect(plan.groups.length - 1).toBe(22);
    // the same pages, each string repeated in a hundred rows (one value, one pointer): its bytes count once
    const repeated = sparse.flatMap((s) => Array.from({ length: 100 }, () => s));
    expect(planReads(...vectorOf(repeated)).groups.length - 1).toBe(22);
    // 2,000-byte strings 3,000 bytes apart: reads of 11 strings, at most twice their bytes plus two pages
    const spaced = Array.from({ length: 40 }, (_, k) => ({ address: A + k * 5000, length: 2000 }));
    const spacedPlan = planReads(...vectorOf(spaced));
    checkPlan(spaced, spacedPlan);
    expect(Array.from(spacedPlan.groups)).toEqual([0, 11, 22, 33, 40]);
    // 20 MiB of strings one after the other: more than one read, each under MAX_SPAN
    const dense = Array.from({ length: 320 }, (_, k) => ({ address: A + k * 65536, length: 65536 }));
    const big = planReads(...vectorOf(dense));
    checkPlan(dense, big);
    expect(big.groups.length - 1).toBe(2);
    expect(Array.from(big.span)).toEqual([MAX_SPAN, 320 * 65536 - MAX_SPAN]);
  });

  it("reads a string longer than MAX_SPAN alone, in one call", () => {
    const strings = [
      { address: A, length: 100 },
      { address: A + 100, length: MAX_SPAN + 5 },
      { address: A + 100 + MAX_SPAN + 5, length: 30 },
    ];
    const plan = planReads(...vectorOf(strings));
    checkPlan(strings, plan);
    expect(readsOf(plan, strings).map((r) => [r.members, r.span])).toEqual([
      [[0], 100],
      [[1], MAX_SPAN + 5],
      [[2], 30],
    ]);
  });

  it("shares one read between strings at the same address, and counts their bytes once", () => {
    const strings = [
      { address: A + 64, length: 30 },
      { address: A + 64, length: 30 },
      { address: A + 64, length: 20 },
      { address: A + 94, length: 15 },
    ];
    const plan = planReads(...vectorOf(strings));
    checkPlan(strings, plan);
    expect(Array.from(plan.span)).toEqual([45]);
  });

  it("reads one string a call when a pointer is beyond 2^53, where a double would round the address", () => {
    // 2^56 and 2^56 + 32 are exact doubles; the strings lie one after the other, yet each is read alone
    const strings = [
      { address: 2 ** 56, length: 32 },
      { address: 2 ** 56 + 32, length: 32 },
    ];
    const plan = planReads(...vectorOf(strings));
    expect(Array.from(plan.groups)).toEqual([0, 1, 2]);
    expect(Array.from(plan.span)).toEqual([32, 32]);
    expect(Array.from(plan.at)).toEqual([0, 0]);
  });

  it("gives every layout of strings a plan with those properties, and one read to strings packed together", () => {
    // addresses in a few clusters (a heap's blocks), lengths from 13 bytes to several pages, in any order
    const layout = fc.array(
      fc.record({
        cluster: fc.integer({ min: 0, max: 3 }),
        gap: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 3 * PAGE })),
        length: fc.oneof(fc.integer({ min: 13, max: 64 }), fc.integer({ min: 13, max: 3 * PAGE })),
      }),
      { minLength: 1, maxLength: 120 },
    );
    fc.assert(
      fc.property(
        layout,
        fc.boolean(),
        fc.constantFrom("written", "reversed", "shuffled"),
        fc.nat(),
        (specs, packed, rowOrder, seed) => {
          const ends = [A + 7, A + 2 ** 24 + 3, A + 2 ** 30, A + 2 ** 36 + 4093];
          const strings = specs.map(({ cluster, gap, length }) => {
            const address = ends[cluster]! + (packed ? 0 : gap);
            ends[cluster] = address + length;
            return { address, length };
          });
          // the rows as written (each cluster ascending, clusters interleaved), reversed, or shuffled
          const rows = rowOrder === "reversed" ? [...strings].reverse() : [...strings];
          if (rowOrder === "shuffled")
            for (let i = rows.length - 1, x = seed; i > 0; i--) {
              x = (x * 1103515245 + 12345) % 2 ** 31;
              const j = x % (i + 1);
              [rows[i], rows[j]] = [rows[j]!, rows[i]!];
            }
          const plan = planReads(...vectorOf(rows));
          checkPlan(rows, plan);
          // packed: a read per cluster used (each is far under MAX_SPAN)
          if (packed) expect(plan.groups.length - 1).toBe(new Set(specs.map((s) => s.cluster)).size);
        },
      ),
      { numRuns: fcRuns(400), seed: 20261129 },
    );
  });
});
