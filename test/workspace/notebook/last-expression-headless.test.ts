// The headless runner (jankbook run / publish) shows a ts cell's last expression too: same runtime.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createNodeEngine } from "../../../workspace/db/node/duckdb-node";
import { isMarkdown } from "../../../workspace/notebook/runtime";
import { cleanNotebookRun } from "../../support/clean-notebook-run";
import { suiteEngine } from "../../support/suite-engine";

const FIXTURE = join(import.meta.dirname, "../../fixtures/notebooks/state-last-expression.md");

const engine = suiteEngine(createNodeEngine);

describe("a ts cell's last expression, headless", () => {
  it("is the cell's display, computed from the run (1800 frames in synthetic-feed-scroll's manifest)", async () => {
    await cleanNotebookRun(FIXTURE, { engine }, async (r) => {
      const cell = r.runtime.states().find((s) => s.defines.includes("rows"))!;
      expect(cell.displays).toHaveLength(1);
      const shown = cell.displays[0];
      expect(isMarkdown(shown) && (shown as { text: string }).text).toContain("| frames | 1800 | 12600 |");
    });
  });
});
