// The case-study notebooks (notebooks/cases/*.md, found by listing the folder) run headless, as `jankbook run`
// runs them, for test/notebooks/cases*.test.ts (split in two files so that the two halves run side by side). On its
// own runs every check of a notebook passes; with the runs its front matter calls `healthy:` (the same scenario
// without the bug) in place of them, every check of a finding fails and every guard (a check named `guard: …`,
// something that must hold with or without the bug) passes; never a run or a cell fails. A file's notebooks share
// one DuckDB (shared-headless.ts).
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { main } from "../../cli/main";
import type { HeadlessResult } from "../../workspace/node/headless";
import { parseNotebook } from "../../workspace/notebook/format";
import { hasGlob, matchRunNames } from "../../workspace/notebook/runs";
import { createNativeEngine } from "../../workspace/db/node/duckdb-native";
import { snapshotNotebook } from "../../workspace/notebook/snapshot";
import { sharedHeadless } from "./shared-headless";
import { differences } from "./snapshot-diff";
import { unfinishedCells } from "./notebook-paths";

export const CASES_DIR = join(import.meta.dirname, "../../notebooks/cases");
export const CASE_NOTEBOOKS = readdirSync(CASES_DIR)
  .filter((n) => n.endsWith(".md"))
  .sort();
const out = mkdtempSync(join(tmpdir(), "jankbook-cases-"));

/** `jankbook run <nb> [--runs dir]...` in this process: its exit code and the names of the checks that failed. */
export async function cli(nb: string, ...args: string[]): Promise<{ code: number; failed: string[] }> {
  const report = join(out, "report.json");
  const spy = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  try {
    const code = await main(["node", "jankbook", "run", nb, "--out", report, ...args]);
    const r = JSON.parse(readFileSync(report, "utf8")) as { checks: { name: string; ok: boolean }[] };
    return { code, failed: r.checks.filter((c) => !c.ok).map((c) => c.name) };
  } finally {
    spy.mockRestore();
  }
}

/** The `healthy:` runs of a notebook as folders, by the rule `runs:` follows (relative to the notebook). */
export function healthyRuns(nb: string): string[] {
  const field = parseNotebook(readFileSync(nb, "utf8")).frontMatter?.fields.find(([k]) => k === "healthy");
  if (!field) return [];
  const list = parseNotebook(`---\nruns:${field[1]}\n---\n`).frontMatter!.runs;
  return list.flatMap((entry) => {
    const path = join(dirname(nb), entry);
    if (!hasGlob(entry)) return [path];
    const parent = dirname(path);
    return matchRunNames(entry.split("/").pop()!, readdirSync(parent)).map((n) => join(parent, n));
  });
}

/** A check that must hold on both the case's runs and the healthy ones (docs/papers.md, "Case notebooks"). */
export const isGuard = (name: string) => name.startsWith("guard: ");

const loadErrors = (r: HeadlessResult) =>
  r.provenance.runs.flatMap((x) => x.errors.map((e) => `${x.run_id}: ${e}`));
const failedCells = (r: HeadlessResult) =>
  r.failedCells.map((c) => `${c.name ?? c.defines.join(",")}: ${c.error}`);

/** For each notebook named: its checks pass on its runs, on DuckDB-WASM and native DuckDB alike, every cell with
 * the same value on both (the engines' parity for the case notebooks: test/workspace/db/native-parity.test.ts has
 * the others); on its healthy runs its findings fail, its guards pass. */
export function describeCases(names: string[]): void {
  const headless = sharedHeadless();
  const nativeHeadless = sharedHeadless(createNativeEngine);

  describe.each(names)("%s", (name) => {
    const nb = join(CASES_DIR, name);
    let passed: string[] = [];
    it("on its runs: every check passes, and every cell has the same value on both engines", async () => {
      const r = await headless(nb);
      const native = await nativeHeadless(nb);
      try {
        for (const x of [r, native]) {
          expect(loadErrors(x)).toEqual([]);
          expect(failedCells(x)).toEqual([]);
          expect(x.failedChecks.map((c) => `${c.name}: ${c.detail}`)).toEqual([]);
        }
        expect(r.checks.length).toBeGreaterThan(0);
        passed = r.checks.filter((c) => c.ok).map((c) => c.name);
        const [a, b] = [await snapshotNotebook(r.runtime), await snapshotNotebook(native.runtime)];
        expect(unfinishedCells(a)).toEqual([]);
        expect(differences(a, b, "", [], 20, ["wasm", "native"])).toEqual([]);
      } finally {
        await r.close();
        await native.close();
      }
    }, 240_000);

    it("on its healthy runs: every finding-check fails, every guard passes, no run or cell fails", async () => {
      const r = await headless(nb, { runs: healthyRuns(nb) });
      try {
        expect(r.provenance.runs.map((x) => x.dir).sort()).toEqual(healthyRuns(nb).sort());
        expect(loadErrors(r)).toEqual([]);
        expect(failedCells(r)).toEqual([]);
        // the same checks ran, each listed with its verdict on both: findings pass then fail, guards pass twice
        expect(r.checks.map((c) => c.name)).toEqual(passed);
        const verdicts = r.checks.map((c) => ({
          check: c.name,
          buggy: passed.includes(c.name) ? "pass" : "fail",
          healthy: c.ok ? "pass" : `fail (${c.detail ?? ""})`,
        }));
        const failed = (v: { healthy: string }) => v.healthy.startsWith("fail");
        expect(verdicts.filter((v) => isGuard(v.check) === failed(v))).toEqual([]);
        expect(verdicts.filter((v) => !isGuard(v.check)).length).toBeGreaterThan(0);
      } finally {
        await r.close();
      }
    }, 180_000);
  });
}
