// Property tests (names keep no trailing blanks: ftrace-line trims them, as Perfetto does): generated atrace marker streams written with every ftrace prefix variant come back as the
// slices and counters the generator made; random bytes and random cuts never throw anything but our error.
import fc from "fast-check";
import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { importSystrace } from "../../../collectors/import/systrace";
import { parseSystraceText } from "../../../collectors/sources/systrace/parse-systrace";

interface Gen {
  slices: { ts: number; dur: number | null; tid: number; name: string; depth: number }[];
  counters: { ts: number; name: string; value: number }[];
  lines: string[];
}

const op = fc.oneof(
  fc.record({
    k: fc.constant("B" as const),
    name: fc.stringMatching(/^[A-Za-z]([A-Za-z0-9 _.:#|-]{0,11}[A-Za-z0-9])?$/),
  }),
  fc.record({ k: fc.constant("E" as const) }),
  fc.record({
    k: fc.constant("C" as const),
    name: fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/),
    value: fc.integer({ min: -1000, max: 1000 }),
  }),
);
const thread = fc.record({
  tid: fc.integer({ min: 1, max: 40000 }),
  task: fc.constantFrom(
    "RenderThread",
    "main",
    "Binder:123_4",
    "my-thread-9",
    "<...>",
    "kworker/u16:1",
    "a b",
  ),
  ops: fc.array(op, { maxLength: 30 }),
});
const variant = fc.record({
  tgid: fc.constantFrom("num", "dash", "none"),
  flags: fc.constantFrom("d..3", "...1", ".N.1.", ""),
  event: fc.constantFrom("tracing_mark_write", "0", "print"),
  eSuffix: fc.boolean(),
});

/** Writes interleaved threads' ops at increasing microsecond times; returns the expected slices. */
function generate(
  threads: {
    tid: number;
    task: string;
    ops: ({ k: "B"; name: string } | { k: "E" } | { k: "C"; name: string; value: number })[];
  }[],
  v: { tgid: string; flags: string; event: string; eSuffix: boolean },
  pid: number,
): Gen {
  const g: Gen = { slices: [], counters: [], lines: ["# tracer: nop", "#"] };
  const seen = new Set<number>();
  const live = threads.filter((t) => !seen.has(t.tid) && seen.add(t.tid));
  const stacks = new Map<number, Gen["slices"]>();
  let us = 1_000_000n;
  const max = Math.max(0, ...live.map((t) => t.ops.length));
  for (let i = 0; i < max; i++)
    for (const t of live) {
      const o = t.ops[i];
      if (!o) continue;
      us += 7n;
      const ts = us * 1000n;
      const tg = v.tgid === "num" ? `(${String(pid).padStart(5)}) ` : v.tgid === "dash" ? "(-----) " : "";
      const secs = `${us / 1_000_000n}.${String(us % 1_000_000n).padStart(6, "0")}`;
      const prefix = `${t.task.padStart(16)}-${String(t.tid).padEnd(5)} ${tg}[00${i % 8}] ${v.flags ? v.flags + " " : ""}${secs}: ${v.event}: `;
      const stack = stacks.get(t.tid) ?? [];
      stacks.set(t.tid, stack);
      if (o.k === "B") {
        const s = {
          ts: Number(ts),
          dur: null as number | null,
          tid: t.tid,
          name: o.name,
          depth: stack.length,
        };
        stack.push(s);
        g.slices.push(s);
        g.lines.push(prefix + `B|${pid}|${o.name}`);
      } else if (o.k === "E") {
        const s = stack.pop();
        if (!s) continue; // the generator writes no unmatched ends here; that case has its own test
        s.dur = Number(ts) - s.ts;
        g.lines.push(prefix + (v.eSuffix ? `E|${pid}` : "E"));
      } else {
        g.counters.push({ ts: Number(ts), name: o.name, value: o.value });
        g.lines.push(prefix + `C|${pid}|${o.name}|${o.value}`);
      }
    }
  return g;
}

describe("parseSystraceText properties", () => {
  it("every prefix variant: slices (ts, dur, tid, name, depth) and counters as generated", () => {
    fc.assert(
      fc.property(
        fc.array(thread, { maxLength: 5 }),
        variant,
        fc.integer({ min: 1, max: 99999 }),
        (threads, v, pid) => {
          const g = generate(threads, v, pid);
          const p = parseSystraceText(g.lines.join("\n"), "gen.txt");
          expect(p.warnings.filter((w) => !/still open/.test(w) && !/no ftrace event lines/.test(w))).toEqual(
            [],
          );
          expect(
            p.rows.slices.map((s) => ({ ts: s.ts, dur: s.dur, tid: s.tid, name: s.name, depth: s.depth })),
          ).toEqual(g.slices);
          expect(p.rows.slices.every((s) => s.pid === pid)).toBe(true);
          expect(p.rows.counters.map((c) => ({ ts: c.ts, name: c.name, value: c.value }))).toEqual(
            g.counters,
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("random bytes, text and cuts of a real-shaped trace never throw anything but a named error", () => {
    const good = generate(
      [{ tid: 5, task: "main", ops: [{ k: "B", name: "a" }, { k: "C", name: "c", value: 1 }, { k: "E" }] }],
      { tgid: "num", flags: "...1", event: "tracing_mark_write", eSuffix: true },
      5,
    ).lines.join("\n");
    const z = new Uint8Array([...new TextEncoder().encode("TRACE:\n"), ...deflateSync(Buffer.from(good))]);
    const html = new TextEncoder().encode(
      `<html><script>var linuxPerfData = "${good.replace(/\n/g, "\\n\\\n")}";</script>`,
    );
    const cases = fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      fc.string({ maxLength: 300 }).map((s) => new TextEncoder().encode("# tracer: nop\n" + s)),
      fc.integer({ min: 0, max: z.length }).map((n) => z.subarray(0, n)),
      fc.integer({ min: 0, max: html.length }).map((n) => html.subarray(0, n)),
      fc
        .tuple(fc.integer({ min: 0, max: good.length }), fc.string({ maxLength: 20 }))
        .map(([n, s]) => new TextEncoder().encode(good.slice(0, n) + s + good.slice(n))),
    );
    fc.assert(
      fc.property(cases, (b) => {
        try {
          importSystrace(b, "fuzz.txt", "r");
        } catch (e) {
          expect((e as Error).message).toMatch(/^fuzz\.txt: /);
        }
      }),
      { numRuns: 500 },
    );
  });
});
