// Test support: calls tables built by hand from nested call specs, and random ones for fast-check.
import fc from "fast-check";
import type { Table } from "apache-arrow";
import { makeBundleTable } from "../../../bundle/table-builder";

/** [method id, enter ns, exit ns, callees] */
export type CallSpec = [number, number, number, CallSpec[]?];

/** The hand-worked example: thread 1: A 0..1000 { B 100..110, B 120..125, C 300..900 { B 310..312 } }, thread 2: C 50..60 */
export const HAND_THREADS: Readonly<Record<number, CallSpec[]>> = {
  1: [
    [
      1,
      0,
      1000,
      [
        [2, 100, 110],
        [2, 120, 125],
        [3, 300, 900, [[2, 310, 312]]],
      ],
    ],
  ],
  2: [[3, 50, 60]],
};

export interface FlatCall {
  thread: number;
  method: number;
  depth: number;
  parent: number;
  enter: number;
  exit: number;
}

/** Rows in the calls table's order (thread by first appearance, then depth-first = entry order). */
export function flatten(threads: Record<number, CallSpec[]>): FlatCall[] {
  const out: FlatCall[] = [];
  const walk = (thread: number, spec: CallSpec, depth: number, parent: number) => {
    const id = out.length;
    out.push({ thread, method: spec[0], depth, parent, enter: spec[1], exit: spec[2] });
    for (const child of spec[3] ?? []) walk(thread, child, depth + 1, id);
  };
  for (const [thread, tops] of Object.entries(threads))
    for (const top of tops) walk(Number(thread), top, 0, -1);
  return out;
}

const SPAN = /^(-?\d+)\.\.(-?\d+)$/;

function span(text: string, where: string): [number, number] {
  const m = SPAN.exec(text);
  if (!m) throw new Error(`${where}: bad span ${JSON.stringify(text)} (expected enter..exit)`);
  return [Number(m[1]), Number(m[2])];
}

/**
 * One lane of calls, one after another at depth 0 on `thread`, written "enter..exit" apart by spaces in the
 * order they run ("0..3 4..6 6..6"); their methods are numbered 1, 2, 3... in that order.
 */
export function oneLaneCalls(thread: number, spans: string): Record<number, CallSpec[]> {
  const calls = spans
    .trim()
    .split(/\s+/)
    .map((text, i): CallSpec => [i + 1, ...span(text, "oneLaneCalls")]);
  return { [thread]: calls };
}

/**
 * A thread's call tree written one call a line, "method enter..exit", callees indented under their caller:
 * easier to check against a trace by eye than nested arrays.
 */
export function callTree(thread: number, text: string): Record<number, CallSpec[]> {
  const tops: CallSpec[] = [];
  const open: { indent: number; callees: CallSpec[] }[] = [];
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    const fields = line.trim().split(/\s+/);
    const method = Number(fields[0]);
    if (fields.length !== 2 || !Number.isInteger(method))
      throw new Error(`callTree line ${i + 1}: expected "method enter..exit", got ${JSON.stringify(line)}`);
    const indent = line.length - line.trimStart().length;
    while (open.length && open[open.length - 1]!.indent >= indent) open.pop();
    const call: CallSpec = [method, ...span(fields[1]!, `callTree line ${i + 1}`), []];
    (open.length ? open[open.length - 1]!.callees : tops).push(call);
    open.push({ indent, callees: call[3]! });
  });
  return { [thread]: tops };
}

export function callsTable(threads: Record<number, CallSpec[]>, runId = "test", cpuFactor?: number): Table {
  return callsTableOf(flatten(threads), runId, cpuFactor);
}

export function callsTableOf(calls: FlatCall[], runId = "test", cpuFactor?: number): Table {
  const inc = calls.map((c) => c.exit - c.enter);
  const childSum = calls.map(() => 0);
  calls.forEach((c, i) => c.parent >= 0 && (childSum[c.parent] = childSum[c.parent]! + inc[i]!));
  const exc = inc.map((v, i) => v - childSum[i]!);
  return makeBundleTable("calls", runId, {
    call_id: calls.map((_, i) => i),
    thread_id: calls.map((c) => c.thread),
    method_id: calls.map((c) => c.method),
    depth: calls.map((c) => c.depth),
    parent: calls.map((c) => (c.parent < 0 ? null : c.parent)),
    enter: calls.map((c) => c.enter),
    exit: calls.map((c) => c.exit),
    inclusive: inc,
    exclusive: exc,
    ...(cpuFactor !== undefined
      ? {
          cpu_inclusive: inc.map((v) => Math.round(v * cpuFactor)),
          cpu_exclusive: exc.map((v) => Math.round(v * cpuFactor)),
        }
      : {}),
    synthetic_exit: calls.map(() => false),
  });
}

/**
 * Random properly nested calls: per thread, a sequence of top-level calls; each call splits its span among
 * children separated by gaps. Methods from a small set so recursion and merging happen. Times are integers.
 */
export function arbitraryCalls(
  options: { threads?: number; methods?: number; maxDepth?: number; span?: number } = {},
): fc.Arbitrary<Record<number, CallSpec[]>> {
  const methods = options.methods ?? 4;
  const maxDepth = options.maxDepth ?? 4;
  const span = options.span ?? 200;
  return fc
    .tuple(
      fc.integer({ min: 1, max: options.threads ?? 2 }),
      fc.array(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { minLength: 64, maxLength: 64 }),
    )
    .map(([threadCount, seeds]) => {
      let k = 0;
      const next = () => seeds[k++ % seeds.length]! ^ (k * 2654435761);
      const build = (from: number, to: number, depth: number): CallSpec[] => {
        const out: CallSpec[] = [];
        let at = from;
        const count = depth === 0 ? 1 + (Math.abs(next()) % 3) : depth >= maxDepth ? 0 : Math.abs(next()) % 4;
        for (let i = 0; i < count && at < to; i++) {
          const start = at + (Math.abs(next()) % Math.max(1, Math.floor((to - at) / 3)));
          const end = Math.min(to, start + (Math.abs(next()) % Math.max(1, to - start + 1)));
          out.push([(Math.abs(next()) % methods) + 1, start, end, build(start, end, depth + 1)]);
          at = end;
        }
        return out;
      };
      const threads: Record<number, CallSpec[]> = {};
      for (let t = 1; t <= threadCount; t++) threads[t] = build(0, span, 0);
      return threads;
    });
}
