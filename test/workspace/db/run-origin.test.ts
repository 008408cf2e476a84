// A run's start (workspace/db/run-origin.ts) on a real bundle, Perfetto's jank-CUJ test trace as imported into the
// perfetto-frames sample: the earliest moment of its frames and trace tables by a brute-force reading of the
// bundle's rows; tables then show its moments from that start with the trace's clock on hover, per run.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Table } from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBundleFolder } from "../../../bundle/node-io";
import { formatDuration } from "../../../charts/format-value";
import { timeOrigin } from "../../../bundle/time-origins";
import { absoluteTitle, cellText } from "../../../workspace/app/table-rows";
import type { SqlEngine } from "../../../workspace/db/engine";
import { ORIGIN_COLUMNS } from "../../../workspace/db/run-origin";
import { createNodeEngine } from "../../../workspace/db/node/duckdb-node";
import { loadRuns, runLoaderOf } from "../../../workspace/node/headless";
import { jankbookInProcess } from "../../support/cli";

const RUN = join(import.meta.dirname, "../../../notebooks/examples/runs/perfetto-jank-cuj");
let engine: SqlEngine;
beforeAll(async () => {
  engine = await createNodeEngine();
  await loadRuns([RUN], engine);
});
afterAll(() => engine?.close());

describe("a run's start", () => {
  it("is the earliest moment of its frames and trace tables", async () => {
    const bundle = await readBundleFolder(RUN);
    let want = Infinity;
    for (const [table, column] of ORIGIN_COLUMNS) {
      const t = bundle.tables.get(table as never) as Table | undefined;
      for (const r of t?.toArray() ?? [])
        want = Math.min(want, Number((r as Record<string, unknown>)[column]));
    }
    expect(Number.isFinite(want)).toBe(true);
    expect(timeOrigin("perfetto-jank-cuj")).toBe(want);
    // the only run loaded: a table without run_id counts from it too
    expect(timeOrigin()).toBe(want);
  });

  it("a table shows moments from it, durations as they are, and the trace's clock on hover", async () => {
    const t = await engine.query(
      "SELECT run_id, ts, dur, name FROM slices WHERE run_id = 'perfetto-jank-cuj' ORDER BY ts LIMIT 3",
    );
    const origin = timeOrigin("perfetto-jank-cuj")!;
    for (let i = 0; i < t.numRows; i++) {
      const ts = Number(t.getChild("ts")!.get(i));
      expect(cellText(t, "ts", i)).toBe(`+${formatDuration(ts - origin)}`);
      expect(cellText(t, "dur", i)).not.toMatch(/^\+/);
      expect(absoluteTitle(t, "ts", i)).toBe(
        `+${formatDuration(ts - origin)} from the run's start; ${formatDuration(ts)} on the trace's clock`,
      );
      expect(absoluteTitle(t, "dur", i)).toBeNull();
    }
  });

  it("a published report shows them so too: the headless runner hands each run's start to its cell worker", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "jb-origin-report-")), "report.html");
    const r = await jankbookInProcess(
      "run",
      join(import.meta.dirname, "../../../notebooks/examples/perfetto-frames.md"),
      "--out",
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(out, "utf8");
    const origin = timeOrigin("perfetto-jank-cuj")!;
    // the chosen frame's slices: each ts from the run's start, the trace's clock in its title (a span only a
    // known start gives: the worker without the starts would print the bare time)
    const cells = [
      ...html.matchAll(
        /<span title="([\d,.]+ (?:ms|s)) on the trace&#39;s clock">\+([\d,.]+ (?:ms|s))<\/span>/g,
      ),
    ];
    expect(cells.length).toBeGreaterThan(0);
    const slices = await engine.query("SELECT DISTINCT ts FROM slices WHERE run_id = 'perfetto-jank-cuj'");
    const shown = new Set(
      Array.from({ length: slices.numRows }, (_, i) => {
        const ts = Number(slices.getChild("ts")!.get(i));
        return `${formatDuration(ts)}|${formatDuration(ts - origin)}`;
      }),
    );
    expect(cells.some(([, abs, rel]) => shown.has(`${abs}|${rel}`))).toBe(true);
  }, 120_000);

  it("is dropped with the run", async () => {
    await runLoaderOf(engine).remove(RUN);
    expect(timeOrigin("perfetto-jank-cuj")).toBeUndefined();
  });
});
