// Every notebook under notebooks/ on imported real traces (test/fixtures/SOURCES.md): one engine per trace, kept
// across notebooks (the runner loads a run once per engine), so a test file costs one import and load per trace.
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { tableSource } from "../../bundle/table-sources";
import { importFiles } from "../../cli/commands/import";
import type { SqlEngine } from "../../workspace/db/engine";
import { createNodeEngine } from "../../workspace/db/node/duckdb-node";
import { runNotebookFile } from "../../workspace/node/headless";
import { ROOT } from "../support/cli";

/** Every real trace in the fixtures, by the tables its import fills (besides `runs`). */
export const REAL_TRACES: Record<string, string> = {
  "perfetto/winscope_shell_transitions_trace.perfetto-trace": "",
  "perfetto/winscope_input-events.perfetto-trace": "",
  "perfetto/winscope_no_winscope_traces.perfetto-trace": "",
  "perfetto/winscope_protolog.perfetto-trace": "",
  "perfetto/winscope_transactions_trace.perfetto-trace": "",
  "systrace/catapult_atrace_data.txt": "thread_states threads",
  "systrace/catapult_android_systrace_js-escaped.txt": "thread_states threads",
  "systrace/catapult_decompressed_atrace_data.txt": "counter_samples processes slices threads",
  "systrace/catapult_compressed_atrace_data.ctrace": "counter_samples processes slices threads",
  "systrace/third_party/catapult_counter_tracks.html": "counter_samples processes threads",
  "systrace/third_party/catapult_trivial_systrace.html": "counter_samples processes threads",
};

export function notebooks(dir = join(ROOT, "notebooks")): string[] {
  return readdirSync(dir)
    .filter((n) => n !== "runs")
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? notebooks(path) : name.endsWith(".md") ? [path] : [];
    });
}

/**
 * Imports the traces once and declares, for each notebook and trace, a test that nothing fails and that every
 * cell that did not run says what the run would need. Returns the imported run folders by trace.
 */
export function everyNotebookOn<K extends string>(traces: Record<K, string>): Record<K, string> {
  const out = mkdtempSync(join(tmpdir(), "jankbook-real-traces-"));
  const dirs = {} as Record<K, string>;
  // The runner closes the engine it is given, so it gets a view whose close() leaves it open; afterAll closes it.
  const engines = {} as Record<K, SqlEngine>;
  const opened: SqlEngine[] = [];
  const kinds = Object.keys(traces) as K[];
  beforeAll(async () => {
    for (const kind of kinds) {
      const [run] = await importFiles([join(ROOT, "test/fixtures", traces[kind])], join(out, kind));
      dirs[kind] = run!.dir;
      const engine = await createNodeEngine();
      opened.push(engine);
      engines[kind] = { ...engine, close: async () => {} };
    }
  }, 180_000);
  afterAll(async () => {
    for (const e of opened) await e.close();
  });

  const all = notebooks().map((p) => p.slice(ROOT.length + 1));
  const cases = all.flatMap((nb) => kinds.map((kind) => [nb, kind] as const));
  it("finds the notebooks", () => expect(all.length).toBeGreaterThan(10));
  it.each(cases)("%s on the %s trace: nothing fails; what it lacks is not applicable", async (nb, kind) => {
    const r = await runNotebookFile(join(ROOT, nb), { runs: [dirs[kind]], engine: engines[kind] });
    try {
      expect(r.failedCells.map((c) => `${c.name ?? c.defines.join(",")}: ${c.error}`)).toEqual([]);
      expect(r.failedChecks).toEqual([]);
      // every cell that did not run says what the run would need, in the words of bundle/table-sources.ts
      for (const c of r.notApplicableCells) expect(c.notApplicable).toMatch(/^no [^:]+: /);
      // a notebook that needs the method table says so; one that reads it only if there (compare.md's `maybe(...)`)
      // says in place which tables its runs lack
      const source = readFileSync(join(ROOT, nb), "utf8");
      if (source.includes("FROM methods") && !source.includes("maybe(sql`SELECT * FROM methods"))
        expect(r.notApplicableCells.map((c) => c.notApplicable)).toContain(tableSource("methods"));
    } finally {
      await r.close();
    }
  });
  return dirs;
}
