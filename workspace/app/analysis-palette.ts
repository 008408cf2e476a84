// The "insert analysis" palette: a ready, wired set of cells for each analysis in cells/, inserted where
// the user is. Each entry names the tables it reads, so it works on whatever runs are loaded.
import type { CellKind } from "../notebook/format";

export interface PaletteEntry {
  label: string;
  /** tables the cells query; the palette greys out entries whose tables are not loaded */
  needs: string[];
  cells: { kind: CellKind; name?: string; source: string }[];
}

export const ANALYSES: PaletteEntry[] = [
  {
    label: "DiagDroid: anomalous task groups (τ)",
    needs: ["tasks", "contexts"],
    cells: [
      { kind: "sql", name: "dd_runs", source: "SELECT DISTINCT run_id FROM tasks ORDER BY run_id" },
      // Context ids are per run (DiagDroid analyses one run's execution contexts), so pick the run.
      { kind: "ts", source: `const ddRun = view(Inputs.select(dd_runs.toArray().map((r) => r.run_id), {label: "run"}))` },
      { kind: "ts", source: `const tau = view(Inputs.range([50, 2000], {label: "τ (ms)", value: 500, step: 10}))` },
      { kind: "sql", name: "dd_tasks", source: "SELECT * FROM tasks WHERE run_id = ${ddRun}" },
      { kind: "sql", name: "dd_contexts", source: "SELECT * FROM contexts WHERE run_id = ${ddRun}" },
      { kind: "ts", source: "const ddGroups = jb.diagdroid.anomalousGroups(dd_tasks, dd_contexts, {tauMs: tau});\ndisplay(jb.diagdroid.anomalousGroupsPlot(ddGroups, {tauMs: tau}));\ndisplay(md`${jb.diagdroid.anomalyReport(ddGroups)}`);" },
    ],
  },
  {
    label: "DiagDroid: queued vs running timeline",
    needs: ["tasks"],
    cells: [
      { kind: "sql", name: "tl_tasks", source: "SELECT * FROM tasks" },
      { kind: "ts", source: "jb.diagdroid.queueTimelinePlot(jb.diagdroid.queueTimeline(tl_tasks))" },
    ],
  },
  {
    label: "DUNE: frame metrics per run",
    needs: ["frames"],
    cells: [
      { kind: "ts", source: "const duneMetrics = jb.dune.frameMetrics(await sql`SELECT * FROM frames`, {runs: await sql`SELECT * FROM runs`});\ndisplay(jb.dune.frameMetricsPlot(duneMetrics));" },
    ],
  },
  {
    label: "DUNE: IQR flags of frame time across runs (outlier factor)",
    needs: ["frames"],
    cells: [
      { kind: "ts", source: `const outlierFactor = view(Inputs.range([0.5, 5], {label: "outlier factor", value: 1.5, step: 0.1}))` },
      { kind: "sql", name: "run_frame_ms", source: "SELECT run_id, avg(duration) / 1e6 AS mean_ms FROM frames GROUP BY run_id ORDER BY run_id" },
      { kind: "ts", source: "const flags = jb.dune.iqrFlags(Float64Array.from(run_frame_ms.getChild(\"mean_ms\").toArray()), {outlierFactor});\ndisplay(md`Q1 ${flags.q1.toFixed(2)} ms, Q3 ${flags.q3.toFixed(2)} ms; ${[...flags.flags].filter((f) => f !== 0).length} runs outside the fences`);" },
    ],
  },
  {
    label: "DUNE: context rules (Apriori)",
    needs: ["runs"],
    cells: [
      { kind: "sql", name: "rule_rows", source: "SELECT device_model, sdk_release, network, CASE WHEN complete THEN 'complete' ELSE 'partial' END AS state FROM runs" },
      { kind: "ts", source: "const rules = jb.dune.apriori(rule_rows.toArray().map((r) => Object.fromEntries(Object.entries({...r}).map(([k, v]) => [k, String(v ?? \"?\")]))), {minSupport: 0.1, minConfidence: 0.9});\ndisplay(jb.dune.aprioriPlot(rules));" },
    ],
  },
  {
    label: "DRAW: rendering efficiency (RES) ranking",
    needs: ["render_ops"],
    cells: [
      { kind: "sql", name: "draw_ops", source: "SELECT * FROM render_ops" },
      { kind: "sql", name: "draw_screen", source: "SELECT screen_width AS width, screen_height AS height FROM runs WHERE screen_width IS NOT NULL LIMIT 1" },
      { kind: "ts", source: "const res = jb.draw.renderingEfficiency(jb.draw.preprocessRenderOps(draw_ops), {screen: {width: draw_screen.get(0).width, height: draw_screen.get(0).height}});\ndisplay(jb.draw.renderingEfficiencyPlot(res));" },
    ],
  },
];
