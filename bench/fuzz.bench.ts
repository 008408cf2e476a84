// `npm run bench -- fuzz` (not in CI; docs/budgets.md): N mutants (FUZZ_N, default 24; FUZZ_SEED, default 15)
// of every file in every folder of test/fixtures, of any kind (binary ones too: detection goes through the
// importer registry, so a new kind's fixtures are fuzzed once its importer is registered), through
// `jankbook import`'s importFiles; meminfo dumps, which `collect` reads, through parseMeminfo. Each is judged
// in a child process (bench/fuzz-child.ts) that is killed past a per-input deadline. Prints the table of
// outcomes per fixture: parsed (complete, no warning the original did not have), partial and flagged
// (incomplete, or a new warning or load error), refused (our error: see ourError in fuzz-child.ts), wrong
// silently (complete, yet an independent check in fuzz-child.ts finds an impossible value or a cut file),
// crashed (any other exception, or the process died), hung (past the deadline). The measured value is the
// count of the last three (the goal is 0).
import { fork, type ChildProcess } from "node:child_process";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { MUTATION_KINDS, mutate, rng } from "../test/support/mutants";
import type { Job, Outcome, Verdict } from "./fuzz-child";
import { cutInside } from "./fuzz-cut";
import type { Benchmark } from "./harness";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = join(ROOT, "test/fixtures");
const CHILD = fileURLToPath(new URL("./fuzz-child.ts", import.meta.url));
const OUTCOMES: Outcome[] = ["parsed", "flagged", "refused", "wrong", "crashed", "hung"];
const HEAD = ["parsed", "partial+flagged", "refused", "wrong silently", "crashed", "hung"];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

/** One child at a time; a job past its deadline kills the child, which is started again for the next job. */
class Judge {
  private child: ChildProcess | null = null;
  private ready: Promise<void> | null = null;
  private pending: ((v: Verdict) => void) | null = null;

  private start() {
    const child = fork(CHILD, [], {
      execArgv: ["--import", "tsx"],
      serialization: "advanced",
      stdio: "ignore",
    });
    this.child = child;
    this.ready = new Promise((resolve) => {
      child.once("message", () => resolve());
    });
    child.on("message", (v: Verdict) => {
      if (v.id >= 0) this.pending?.(v);
    });
    child.on("exit", () => {
      if (this.child === child) this.child = null;
      this.pending?.({ id: -2, outcome: "crashed", detail: "the importer's process died" });
    });
  }

  async run(job: Job, deadlineMs: number): Promise<Verdict> {
    if (!this.child) this.start();
    await this.ready;
    const child = this.child!;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending = null;
        this.child = null;
        child.kill("SIGKILL");
        resolve({ id: job.id, outcome: "hung", detail: `over ${deadlineMs} ms` });
      }, deadlineMs);
      this.pending = (v) => {
        clearTimeout(timer);
        this.pending = null;
        resolve({ ...v, id: job.id });
      };
      child.send(job);
    });
  }

  close() {
    this.child?.kill();
    this.child = null;
  }
}

export async function fuzzCampaign(
  n = Number(process.env.FUZZ_N ?? 24),
  seed = Number(process.env.FUZZ_SEED ?? 15),
) {
  const judge = new Judge();
  const rows = new Map<string, Record<Outcome, number>>();
  const examples: string[] = [];
  let id = 0;
  try {
    for (const path of files(FIXTURES)) {
      const name = relative(FIXTURES, path);
      const src = new Uint8Array(readFileSync(path));
      const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
      const random = rng(seed + id);
      const fileName = name.replace(/\//g, "_");
      // meminfo dumps are read by `collect` (collectors/sources/meminfo.ts), not by `import`: fuzz that parser.
      const meminfo = name.split("/")[0] === "meminfo";
      const original = await judge.run(
        {
          id: id++,
          name: fileName,
          bytes: src,
          cutInside: false,
          baseline: [],
          meminfo: meminfo ? { original: src, truncated: false } : undefined,
        },
        10_000 + src.length / 100,
      );
      const baseline = original.warnings ?? [];
      for (let k = 0; k < n; k++) {
        const m = mutate(src, MUTATION_KINDS[k % MUTATION_KINDS.length]!, random);
        const cut = m.kind === "truncate" && cutInside(name, src, m.at);
        const v = await judge.run(
          {
            id: id++,
            name: fileName,
            bytes: m.bytes,
            cutInside: cut,
            baseline,
            meminfo: meminfo ? { original: src, truncated: m.kind === "truncate" } : undefined,
          },
          10_000 + m.bytes.length / 100,
        );
        counts[v.outcome]++;
        if (["wrong", "crashed", "hung"].includes(v.outcome) && examples.length < 30)
          examples.push(
            `${name} ${m.kind}@${m.at}: ${v.outcome}${v.kind ? ` (${v.kind})` : ""}: ${v.detail ?? ""}`,
          );
      }
      rows.set(name, counts);
    }
  } finally {
    judge.close();
  }
  return { rows, examples, n };
}

export function outcomeTable(rows: Map<string, Record<Outcome, number>>): string {
  const total = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  const lines = [`| fixture | ${HEAD.join(" | ")} |`, `|---|${HEAD.map(() => "---:").join("|")}|`];
  for (const [name, c] of rows) {
    lines.push(`| ${name} | ${OUTCOMES.map((o) => c[o]).join(" | ")} |`);
    for (const o of OUTCOMES) total[o] += c[o];
  }
  lines.push(`| **all** | ${OUTCOMES.map((o) => `**${total[o]}**`).join(" | ")} |`);
  return lines.join("\n");
}

export const benchmarks: Benchmark[] = [
  {
    name: "fuzz/mutants of every fixture: wrong silently + crashed + hung (count)",
    unit: "count",
    budget: 0,
    runs: 1,
    async measure() {
      const { rows, examples, n } = await fuzzCampaign();
      process.stderr.write(`\n${n} mutants per fixture\n${outcomeTable(rows)}\n`);
      if (examples.length) process.stderr.write(`${examples.join("\n")}\n`);
      let bad = 0;
      for (const c of rows.values()) bad += c.wrong + c.crashed + c.hung;
      return bad;
    },
  },
];
