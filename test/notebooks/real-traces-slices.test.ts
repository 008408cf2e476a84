// Every notebook under notebooks/ on the real traces whose imports fill slices and counters (catapult's atrace
// capture with app markers) or counters alone (old systrace HTML): nothing fails, what they lack is not
// applicable. With real-traces.test.ts this covers every table set a real trace in the fixtures imports to.
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { everyNotebookOn, REAL_TRACES } from "./real-traces-support";
import { importFiles } from "../../cli/commands/import";
import { ROOT } from "../support/cli";

const TRACES = {
  "atrace with app markers": "systrace/catapult_decompressed_atrace_data.txt",
  "systrace HTML": "systrace/third_party/catapult_counter_tracks.html",
} as const;

everyNotebookOn(TRACES);

describe("the real traces in the fixtures", () => {
  it("each imports to a table set one of the two files runs every notebook on", async () => {
    const covered = new Set([
      "", // winscope_shell_transitions_trace (real-traces.test.ts)
      "thread_states threads", // catapult_atrace_data (real-traces.test.ts)
      "counter_samples processes slices threads",
      "counter_samples processes threads",
    ]);
    const fixtures = [
      ...readdirSync(join(ROOT, "test/fixtures/perfetto"))
        .filter((n) => n.startsWith("winscope_"))
        .map((n) => `perfetto/${n}`),
      ...readdirSync(join(ROOT, "test/fixtures/systrace"))
        .filter((n) => n.startsWith("catapult_"))
        .map((n) => `systrace/${n}`),
      ...readdirSync(join(ROOT, "test/fixtures/systrace/third_party")).map(
        (n) => `systrace/third_party/${n}`,
      ),
    ].sort();
    expect(fixtures).toEqual(Object.keys(REAL_TRACES).sort());
    const out = mkdtempSync(join(tmpdir(), "jankbook-real-tables-"));
    for (const f of fixtures) {
      const [run] = await importFiles([join(ROOT, "test/fixtures", f)], join(out, f.replace(/\W/g, "_")));
      const tables = readdirSync(run!.dir)
        .filter((n) => n.endsWith(".arrows"))
        .map((n) => n.replace(/\.arrows$/, ""))
        .sort()
        .join(" ");
      expect(tables, f).toBe(REAL_TRACES[f]);
      expect(covered.has(tables), f).toBe(true);
    }
  }, 120_000);
});
