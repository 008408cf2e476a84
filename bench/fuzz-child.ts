// One input of `npm run bench -- fuzz` at a time (bench/fuzz.bench.ts forks this and kills it past a deadline):
// imports a mutant with `jankbook import`'s importFile, reads the bundle back and judges it with checks that do
// not trust the parser: what it says about itself (complete, warnings) against what the rows say.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readBundleFolder } from "../bundle/node-io";
import { BundleError } from "../bundle/manifest";
import { importFiles } from "../cli/commands/import";
import { ImportError } from "../collectors/import/importers";
import { BenchmarkDataError } from "../collectors/sources/macrobenchmark";
import { parseMeminfo } from "../collectors/sources/meminfo";

export type Outcome = "parsed" | "flagged" | "refused" | "wrong" | "crashed" | "hung";
export interface Job {
  id: number;
  name: string;
  bytes: Uint8Array;
  /** a prefix of the original, cut inside a record or a line (not at a line end): complete would be wrong */
  cutInside: boolean;
  /** the unmutated file's warnings: a mutant is flagged by what it adds, not by what the original had */
  baseline: string[];
  /** meminfo: files `collect` reads with parseMeminfo, not import kinds; judged against the original's figures */
  meminfo?: { original: Uint8Array; truncated: boolean };
}
export interface Verdict {
  id: number;
  outcome: Outcome;
  kind?: string;
  detail?: string;
  warnings?: string[];
}

// The vector's iterator, not toArray(): toArray() gives a nullable bigint column's nulls as 0n.
const col = (t: { getChild(n: string): Iterable<unknown> | null }, n: string) =>
  t.getChild(n) ? Array.from(t.getChild(n)!) : null;

const DAY_NS = 86_400e9;

/** Impossible values in the bundle's tables that no suspect flag covers. */
function impossible(
  tables: Map<string, { numRows: number; getChild(n: string): Iterable<unknown> | null }>,
  size: number,
): string[] {
  const out: string[] = [];
  const frames = tables.get("frames");
  if (frames) {
    const d = col(frames, "duration") as (bigint | null)[];
    const s = col(frames, "suspect") as (string | null)[] | null;
    if (d.some((v, i) => v !== null && BigInt(v) < 0n && !s?.[i]))
      out.push("frames: negative duration, not flagged suspect");
  }
  const calls = tables.get("calls");
  if (calls && (col(calls, "inclusive") as (bigint | null)[]).some((v) => v !== null && BigInt(v) < 0n))
    out.push("calls: negative duration");
  const events = tables.get("method_events");
  if (events) {
    if (events.numRows > size / 9) out.push(`method_events: ${events.numRows} rows from ${size} bytes`);
    const tid = col(events, "thread_id") as number[];
    for (const clock of ["wall", "thread_cpu"]) {
      const t = col(events, clock) as (bigint | null)[] | null;
      if (!t) continue;
      const last = new Map<number, bigint>();
      for (let i = 0; i < tid.length; i++) {
        if (t[i] === null) continue; // a clock the trace does not record (dmtrace v1: wall or cpu only)
        const prev = last.get(tid[i]!);
        if (prev !== undefined && BigInt(t[i]!) < prev) {
          out.push(`method_events: thread ${tid[i]}'s ${clock} goes back at row ${i}`);
          break;
        }
        last.set(tid[i]!, BigInt(t[i]!));
      }
    }
  }
  const tasks = tables.get("tasks");
  if (tasks) {
    const started = col(tasks, "started") as (bigint | null)[] | null;
    const ended = col(tasks, "ended") as (bigint | null)[] | null;
    if (
      started &&
      ended &&
      ended.some((e, i) => e !== null && started[i] !== null && BigInt(e) < BigInt(started[i]!))
    )
      out.push("tasks: a task ends before it starts");
  }
  // Perfetto and systrace tables (and the frames made from them): no negative interval, no time a day or more
  // from the run's median time (a corrupt packet timestamp: 0x4000000000000000 ns is 146 years).
  const traceTables = ["frame_timeline", "slices", "thread_states", "counter_samples"];
  const times: number[] = [];
  for (const name of traceTables) {
    const t = tables.get(name);
    const ts = t ? (col(t, "ts") as (bigint | null)[] | null) : null;
    for (const v of ts ?? []) if (v !== null) times.push(Number(v));
  }
  times.sort((a, b) => a - b);
  const median = times[times.length >> 1];
  for (const name of traceTables) {
    const t = tables.get(name);
    if (!t) continue;
    const dur = col(t, "dur") as (bigint | null)[] | null;
    if (dur?.some((v) => v !== null && BigInt(v) < 0n)) out.push(`${name}: negative dur`);
    const ts = col(t, "ts") as (bigint | null)[] | null;
    const far = (ts ?? []).findIndex((v) => v !== null && Math.abs(Number(v) - median!) > DAY_NS);
    if (far >= 0) out.push(`${name}: row ${far} at ${ts![far]} ns, a day or more from the run's median time`);
    if (dur?.some((v) => v !== null && Number(v) > DAY_NS)) out.push(`${name}: a dur over a day`);
  }
  if (frames && median !== undefined) {
    const s = col(frames, "suspect") as (string | null)[] | null;
    for (const c of ["intended_vsync", "vsync", "frame_completed"]) {
      const v = col(frames, c) as (bigint | null)[] | null;
      const i = (v ?? []).findIndex((x, k) => x !== null && !s?.[k] && Math.abs(Number(x) - median) > DAY_NS);
      if (i >= 0)
        out.push(`frames: ${c} of row ${i} a day or more from the trace's median time, not flagged suspect`);
    }
  }
  const hpc = tables.get("hpc_samples");
  if (hpc && (col(hpc, "value") as (bigint | null)[]).some((v) => v !== null && BigInt(v) < 0n))
    out.push("hpc_samples: negative count");
  return out;
}

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** Errors our code throws on purpose: plain Error or one of our classes, never a TypeError, RangeError, ... */
const OUR_CLASSES: Function[] = [Error, ImportError, BundleError, BenchmarkDataError];

/** Where an error was raised: the first stack frame's file. */
function thrownFrom(e: Error): string {
  const frame = (e.stack ?? "").split("\n").find((l) => /^\s+at /.test(l)) ?? "";
  return /\(?(?:file:\/\/)?([^()\s]+?):\d+:\d+\)?$/.exec(frame)?.[1] ?? "";
}

/** Our error: an ImportError or BundleError naming the file, whose origin (its cause, else itself) is an
 * error class of ours thrown from our own source (not node_modules, not the runtime). Anything else crashed. */
export function ourError(e: unknown, file: string): boolean {
  if (!(e instanceof ImportError || e instanceof BundleError) || !e.message.includes(file)) return false;
  const origin = e.cause instanceof Error ? e.cause : e;
  const at = thrownFrom(origin);
  return OUR_CLASSES.includes(origin.constructor) && at.startsWith(ROOT) && !at.includes("node_modules");
}

/** One run of an import judged against its own claims. */
async function judgeRun(
  r: Awaited<ReturnType<typeof importFiles>>[number],
  job: Job,
): Promise<{ outcome: Outcome; detail?: string }> {
  const b = await readBundleFolder(r.dir);
  const known = new Set(job.baseline);
  const flagged = !r.complete || r.warnings.some((w) => !known.has(w)) || b.errors.length > 0;
  // A table with no suspect column (frame_timeline, slices, ...) is flagged by a new warning naming it and its
  // impossible time; anything else impossible in a complete import is wrong.
  const warnedTables = new Set(
    r.warnings
      .filter((w) => !known.has(w) && /impossible time/.test(w))
      .map((w) => /: (\w+): \d+ rows? with an impossible time/.exec(w)?.[1]),
  );
  const bad = impossible(b.tables as never, job.bytes.length).filter((x) => {
    const table = x.split(":")[0];
    return table === "frames" || !warnedTables.has(table);
  });
  // A last line read whole without its newline is complete with a warning saying the file may be cut there.
  const warnedCut = r.warnings.some((w) => !known.has(w) && /no newline at the end/.test(w));
  if (r.complete && job.cutInside && !warnedCut)
    bad.push("complete, though the file is cut inside a record or line");
  if (bad.length && r.complete) return { outcome: "wrong", detail: `${r.runId}: ${bad.join("; ")}` };
  return { outcome: flagged ? "flagged" : "parsed" };
}

/** A meminfo dump has no complete flag (a sample holds what was read): wrong is an impossible figure, or a
 * cut one (a truncation reading a figure the original does not have, e.g. a number that lost digits) unwarned. */
function judgeMeminfo(job: Job, m: NonNullable<Job["meminfo"]>): Verdict {
  const dec = (b: Uint8Array) => new TextDecoder().decode(b);
  const r = parseMeminfo(dec(job.bytes), job.name);
  const o = parseMeminfo(dec(m.original), job.name);
  const known = new Set(job.baseline);
  const flagged = r.failure !== null || r.warnings.some((w) => !known.has(w));
  const bad: string[] = [];
  r.samples.forEach((s, i) => {
    for (const [kind, v] of s.values) {
      if (!Number.isSafeInteger(v) || v < 0) bad.push(`sample ${i}: ${kind} = ${v}`);
      const was = o.samples[i]?.values.get(kind);
      if (m.truncated && v !== was) bad.push(`sample ${i}: ${kind} = ${v}, the original has ${was}`);
    }
  });
  if (bad.length && !flagged)
    return { id: job.id, outcome: "wrong", kind: "meminfo", detail: bad.join("; ") };
  return { id: job.id, outcome: flagged ? "flagged" : "parsed", kind: "meminfo", warnings: r.warnings };
}

export async function judge(job: Job): Promise<Verdict> {
  if (job.meminfo) return judgeMeminfo(job, job.meminfo);
  const dir = mkdtempSync(join(tmpdir(), "jb-fuzz-"));
  try {
    const file = join(dir, job.name);
    writeFileSync(file, job.bytes);
    let runs: Awaited<ReturnType<typeof importFiles>>;
    try {
      runs = await importFiles([file], join(dir, "out"), { runId: "fuzz" });
    } catch (e) {
      const cause = e instanceof Error && e.cause instanceof Error ? ` [${e.cause.constructor.name}]` : "";
      return {
        id: job.id,
        outcome: ourError(e, job.name) ? "refused" : "crashed",
        detail: `${String((e as Error).message ?? e).slice(0, 160)}${cause}`,
      };
    }
    const kind = runs[0]?.kinds[0];
    const verdicts = await Promise.all(runs.map((r) => judgeRun(r, job)));
    const wrong = verdicts.find((v) => v.outcome === "wrong");
    if (wrong) return { id: job.id, outcome: "wrong", kind, detail: wrong.detail };
    return {
      id: job.id,
      outcome: verdicts.some((v) => v.outcome === "flagged") ? "flagged" : "parsed",
      kind,
      warnings: runs.flatMap((r) => r.warnings),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.send) {
  process.on("message", (job: Job) => {
    judge({ ...job, bytes: new Uint8Array(job.bytes) })
      .then((v) => process.send!(v))
      .catch((e: Error) =>
        process.send!({ id: job.id, outcome: "crashed", detail: e.message } satisfies Verdict),
      );
  });
  process.send({ id: -1, outcome: "parsed" } satisfies Verdict); // ready
}
