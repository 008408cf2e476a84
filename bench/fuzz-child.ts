// One input of `npm run bench -- fuzz` at a time (bench/fuzz.bench.ts forks this and kills it past a deadline):
// imports a mutant with `jankbook import`'s importFile, reads the bundle back and judges it with checks that do
// not trust the parser: what it says about itself (complete, warnings) against what the rows say.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readBundleFolder } from "../bundle/node-io";
import { BundleError } from "../bundle/manifest";
import { importFile } from "../cli/commands/import";

export type Outcome = "parsed" | "flagged" | "refused" | "wrong" | "crashed" | "hung";
export interface Job {
  id: number;
  name: string;
  bytes: Uint8Array;
  /** a prefix of the original, cut inside a record or a line (not at a line end): complete would be wrong */
  cutInside: boolean;
  /** the unmutated file's warnings: a mutant is flagged by what it adds, not by what the original had */
  baseline: string[];
}
export interface Verdict {
  id: number;
  outcome: Outcome;
  kind?: string;
  detail?: string;
  warnings?: string[];
}

const col = (t: { getChild(n: string): { toArray(): ArrayLike<unknown> } | null }, n: string) =>
  t.getChild(n) ? Array.from(t.getChild(n)!.toArray()) : null;

/** Impossible values in the bundle's tables that no suspect flag covers. */
function impossible(
  tables: Map<string, { numRows: number; getChild(n: string): { toArray(): ArrayLike<unknown> } | null }>,
  size: number,
): string[] {
  const out: string[] = [];
  const frames = tables.get("frames");
  if (frames) {
    const d = col(frames, "duration") as bigint[];
    const s = col(frames, "suspect") as (string | null)[] | null;
    if (d.some((v, i) => BigInt(v) < 0n && !s?.[i]))
      out.push("frames: negative duration, not flagged suspect");
  }
  const calls = tables.get("calls");
  if (calls && (col(calls, "inclusive") as bigint[]).some((v) => BigInt(v) < 0n))
    out.push("calls: negative duration");
  const events = tables.get("method_events");
  if (events) {
    if (events.numRows > size / 9) out.push(`method_events: ${events.numRows} rows from ${size} bytes`);
    const tid = col(events, "thread_id") as number[];
    for (const clock of ["wall", "thread_cpu"]) {
      const t = col(events, clock) as bigint[] | null;
      if (!t) continue;
      const last = new Map<number, bigint>();
      for (let i = 0; i < tid.length; i++) {
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
  const hpc = tables.get("hpc_samples");
  if (hpc && (col(hpc, "value") as bigint[]).some((v) => BigInt(v) < 0n))
    out.push("hpc_samples: negative count");
  return out;
}

export async function judge(job: Job): Promise<Verdict> {
  const dir = mkdtempSync(join(tmpdir(), "jb-fuzz-"));
  try {
    const file = join(dir, job.name);
    writeFileSync(file, job.bytes);
    let r: Awaited<ReturnType<typeof importFile>>;
    try {
      r = await importFile(file, join(dir, "out"), "fuzz");
    } catch (e) {
      const ours = e instanceof BundleError || (e instanceof Error && e.constructor === Error);
      return {
        id: job.id,
        outcome: ours ? "refused" : "crashed",
        detail: String((e as Error).message ?? e).slice(0, 160),
      };
    }
    const b = await readBundleFolder(r.dir);
    const known = new Set(job.baseline);
    const flagged =
      !r.imported.complete || r.imported.warnings.some((w) => !known.has(w)) || b.errors.length > 0;
    const bad = impossible(b.tables as never, job.bytes.length);
    if (r.imported.complete && job.cutInside)
      bad.push("complete, though the file is cut inside a record or line");
    if (bad.length && r.imported.complete)
      return { id: job.id, outcome: "wrong", kind: r.kind, detail: bad.join("; ") };
    return {
      id: job.id,
      outcome: flagged ? "flagged" : "parsed",
      kind: r.kind,
      warnings: r.imported.warnings,
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
