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
      {
        kind: "ts",
        source: `const ddRun = view(Inputs.select(dd_runs.toArray().map((r) => r.run_id), {label: "run"}))`,
      },
      {
        kind: "ts",
        source: `const tau = view(Inputs.range([50, 2000], {label: "τ (ms)", value: 500, step: 10}))`,
      },
      { kind: "sql", name: "dd_tasks", source: "SELECT * FROM tasks WHERE run_id = ${ddRun}" },
      { kind: "sql", name: "dd_contexts", source: "SELECT * FROM contexts WHERE run_id = ${ddRun}" },
      {
        kind: "ts",
        source:
          "const ddGroups = jb.diagdroid.anomalousGroups(dd_tasks, dd_contexts, {tauMs: tau});\ndisplay(jb.diagdroid.anomalousGroupsPlot(ddGroups, {tauMs: tau}));\ndisplay(md`${jb.diagdroid.anomalyReport(ddGroups)}`);",
      },
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
      {
        kind: "ts",
        source:
          "const duneMetrics = jb.dune.frameMetrics(await sql`SELECT * FROM frames`, {runs: await sql`SELECT * FROM runs`});\ndisplay(jb.dune.frameMetricsPlot(duneMetrics));",
      },
    ],
  },
  {
    label: "DUNE: IQR flags of frame time across runs (outlier factor)",
    needs: ["frames"],
    cells: [
      {
        kind: "ts",
        source: `const outlierFactor = view(Inputs.range([0.5, 5], {label: "outlier factor", value: 1.5, step: 0.1}))`,
      },
      {
        kind: "sql",
        name: "run_frame_ms",
        source:
          "SELECT run_id, avg(duration) / 1e6 AS mean_ms FROM frames WHERE suspect IS NULL GROUP BY run_id ORDER BY run_id",
      },
      {
        kind: "ts",
        source:
          'const flags = jb.dune.iqrFlags(Float64Array.from(run_frame_ms.getChild("mean_ms").toArray()), {outlierFactor});\ndisplay(md`Q1 ${flags.q1.toFixed(2)} ms, Q3 ${flags.q3.toFixed(2)} ms; ${[...flags.flags].filter((f) => f !== 0).length} runs outside the fences`);',
      },
    ],
  },
  {
    label: "DUNE: a device lab from gfxinfo summaries (no per-frame data)",
    needs: ["gfxinfo_summaries", "gfxinfo_histogram", "runs"],
    cells: [
      // One row per run: its app's process-wide summary; mean frame time estimated from the HISTOGRAM buckets.
      {
        kind: "sql",
        name: "gl_metrics",
        source:
          'WITH app_summary AS (SELECT s.* FROM gfxinfo_summaries s JOIN runs r USING (run_id) WHERE s."window" IS NULL AND (s.package IS NULL OR r.app IS NULL OR s.package = r.app)),\nhist AS (SELECT run_id, pid, sum(bucket_ms * count) / nullif(sum(count), 0) AS mean_ms FROM gfxinfo_histogram WHERE kind = \'frame\' AND "window" IS NULL GROUP BY run_id, pid)\nSELECT a.run_id, r.device_model, r.sdk_release, r.app_version, r.scenario, a.total_frames::DOUBLE AS frames, 1 - a.janky_frames::DOUBLE / nullif(a.total_frames, 0) AS smooth_ratio, h.mean_ms, a.p90_ms, a.p99_ms\nFROM app_summary a JOIN runs r USING (run_id) LEFT JOIN hist h ON h.run_id = a.run_id AND h.pid IS NOT DISTINCT FROM a.pid ORDER BY a.run_id',
      },
      {
        kind: "ts",
        source:
          'const glRows = gl_metrics.toArray().map((r) => r.toJSON());\nconst glRun = view(Inputs.select(glRows.map((r) => r.run_id), {label: "run to judge", value: glRows.at(-1)?.run_id}))',
      },
      {
        kind: "ts",
        source:
          'const glAsRun = (r) => ({context: Object.fromEntries(["device_model", "sdk_release", "app_version", "scenario"].map((k) => [k, r[k] == null ? "" : String(r[k])])), metrics: {frames: r.frames ?? NaN, smoothRatio: r.smooth_ratio ?? NaN, meanFrameMs: r.mean_ms ?? NaN, p90FrameMs: r.p90_ms ?? NaN, p99FrameMs: r.p99_ms ?? NaN}});\nconst glHistory = glRows.filter((r) => r.run_id !== glRun);\nconst glLabels = jb.dune.deviationLabels(glAsRun(glRows.find((r) => r.run_id === glRun)), glHistory.map(glAsRun), {dimensions: ["device_model", "sdk_release", "scenario"], metrics: ["smoothRatio", "meanFrameMs", "p90FrameMs", "p99FrameMs"]});\ndisplay(md`**${glRun}**: ${glLabels.coarse.label} against ${glLabels.members.length} similar runs`);\ndisplay(jb.dune.deviationLabelsPlot(glLabels, {metric: "smoothRatio"}));',
      },
    ],
  },
  {
    label: "DUNE: context rules (Apriori)",
    needs: ["runs"],
    cells: [
      {
        kind: "sql",
        name: "rule_rows",
        source:
          "SELECT device_model, sdk_release, network, CASE WHEN complete THEN 'complete' ELSE 'partial' END AS state FROM runs",
      },
      {
        kind: "ts",
        source:
          'const rules = jb.dune.apriori(rule_rows.toArray().map((r) => Object.fromEntries(Object.entries({...r}).map(([k, v]) => [k, String(v ?? "?")]))), {minSupport: 0.1, minConfidence: 0.9});\ndisplay(jb.dune.aprioriPlot(rules));',
      },
    ],
  },
  {
    label: "DRAW: rendering efficiency (RES) ranking",
    needs: ["render_ops"],
    cells: [
      { kind: "sql", name: "draw_ops", source: "SELECT * FROM render_ops" },
      {
        kind: "sql",
        name: "draw_screen",
        source:
          "SELECT screen_width AS width, screen_height AS height FROM runs WHERE screen_width IS NOT NULL LIMIT 1",
      },
      {
        kind: "ts",
        source:
          "const res = jb.draw.renderingEfficiency(jb.draw.preprocessRenderOps(draw_ops), {screen: {width: draw_screen.get(0).width, height: draw_screen.get(0).height}});\ndisplay(jb.draw.renderingEfficiencyPlot(res));",
      },
    ],
  },
  {
    label: "AndroScope: method profile (method and class views)",
    needs: ["calls", "methods"],
    cells: [
      { kind: "sql", name: "prof_runs", source: "SELECT DISTINCT run_id FROM calls ORDER BY run_id" },
      {
        kind: "ts",
        source: `const profRun = view(Inputs.select(prof_runs.toArray().map((r) => r.run_id), {label: "run"}))`,
      },
      {
        kind: "ts",
        source: `const profBy = view(Inputs.radio(["method", "class"], {label: "view", value: "method"}))`,
      },
      {
        kind: "sql",
        name: "prof_calls",
        source: "SELECT * FROM calls WHERE run_id = ${profRun} ORDER BY call_id",
      },
      { kind: "sql", name: "prof_methods", source: "SELECT * FROM methods WHERE run_id = ${profRun}" },
      {
        kind: "ts",
        source:
          "const profRows = jb.androscope.methodProfile(prof_calls, jb.androscope.methodList(prof_methods), {by: profBy});\ndisplay(jb.androscope.methodProfilePlot(profRows, {top: 15}));",
      },
    ],
  },
  {
    label: "AndroScope: call tree of a method (threshold, critical path)",
    needs: ["calls", "methods"],
    cells: [
      { kind: "sql", name: "ct_runs", source: "SELECT DISTINCT run_id FROM calls ORDER BY run_id" },
      {
        kind: "ts",
        source: `const ctRun = view(Inputs.select(ct_runs.toArray().map((r) => r.run_id), {label: "run"}))`,
      },
      {
        kind: "sql",
        name: "ct_calls",
        source: "SELECT * FROM calls WHERE run_id = ${ctRun} ORDER BY call_id",
      },
      { kind: "sql", name: "ct_methods", source: "SELECT * FROM methods WHERE run_id = ${ctRun}" },
      // The busiest method (most inclusive time) is the first root offered.
      {
        kind: "ts",
        source:
          "const ctMethods = jb.androscope.methodList(ct_methods);\nconst ctBusiest = jb.androscope.methodProfile(ct_calls, ctMethods)[0]?.methodId;",
      },
      {
        kind: "ts",
        source: `const ctRoot = view(Inputs.select(jb.androscope.methodChoices(ctMethods), {label: "call tree of", value: ctBusiest}))`,
      },
      {
        kind: "ts",
        source: `const ctPercent = view(Inputs.range([0, 100], {label: "hide subtrees below (% of the root's time)", value: 5, step: 1}))`,
      },
      {
        kind: "ts",
        source:
          'const ctTree = jb.androscope.callTree(ct_calls, ctMethods, ctRoot, {thresholdPercent: ctPercent});\ndisplay(jb.androscope.callTreePlot(ctTree));\ndisplay(md`Critical path: ${ctTree.criticalPath.map((n) => n.name).join(" → ")}`);',
      },
    ],
  },
  {
    label: "AndroScope: call timeline (drag to select a window)",
    needs: ["calls", "methods", "threads"],
    cells: [
      { kind: "sql", name: "ctl_runs", source: "SELECT DISTINCT run_id FROM calls ORDER BY run_id" },
      {
        kind: "ts",
        source: `const ctlRun = view(Inputs.select(ctl_runs.toArray().map((r) => r.run_id), {label: "run"}))`,
      },
      { kind: "sql", name: "ctl_methods", source: "SELECT * FROM methods WHERE run_id = ${ctlRun}" },
      { kind: "sql", name: "ctl_threads", source: "SELECT * FROM threads WHERE run_id = ${ctlRun}" },
      // Level of detail in SQL from the run's summary (built once): every call where few are visible, else per-cell aggregates.
      {
        kind: "ts",
        source:
          "const ctlNames = {methods: jb.androscope.methodList(ctl_methods), threads: jb.androscope.threadList(ctl_threads)};\nlet ctlSummaryRows = null;\nfor (const q of jb.androscope.callTimelineSummaryQueries({runId: ctlRun})) ctlSummaryRows = await sql(q.parts, ...q.params);\nconst ctlSummary = jb.androscope.callTimelineSummary(ctlSummaryRows);\nconst ctlQuery = jb.androscope.callTimelineQuery({summary: ctlSummary, widthPx: 760});\nconst ctlRows = await sql(ctlQuery.parts, ...ctlQuery.params);",
      },
      {
        kind: "ts",
        source: `const ctlWindowMs = view(plot.brushX(jb.androscope.callTimelinePlot(ctlRows, {...ctlNames, title: "Calls per thread and depth (drag to select a window)"})))`,
      },
      {
        kind: "ts",
        source:
          'const ctlWindow = ctlWindowMs ? [ctlWindowMs[0] * 1e6, ctlWindowMs[1] * 1e6] : null;\nconst ctlDetailQuery = jb.androscope.callTimelineQuery({summary: ctlSummary, widthPx: 760, window: ctlWindow});\ndisplay(jb.androscope.callTimelinePlot(await sql(ctlDetailQuery.parts, ...ctlDetailQuery.params), {...ctlNames, window: ctlWindow, title: ctlWindow ? "The selected window" : "Whole trace (nothing selected)"}));',
      },
    ],
  },
  {
    label: "AndroScope: counters and heap linked to the call timeline, the window's profile with IPC",
    needs: ["calls", "methods", "threads", "hpc_samples", "heap_samples"],
    cells: [
      {
        kind: "sql",
        name: "hw_runs",
        source:
          "SELECT DISTINCT run_id FROM calls WHERE run_id IN (SELECT run_id FROM hpc_samples) ORDER BY run_id",
      },
      {
        kind: "ts",
        source: `const hwRun = view(Inputs.select(hw_runs.toArray().map((r) => r.run_id), {label: "run"}))`,
      },
      {
        kind: "sql",
        name: "hw_calls",
        source: "SELECT * FROM calls WHERE run_id = ${hwRun} ORDER BY call_id",
      },
      { kind: "sql", name: "hw_methods", source: "SELECT * FROM methods WHERE run_id = ${hwRun}" },
      { kind: "sql", name: "hw_threads", source: "SELECT * FROM threads WHERE run_id = ${hwRun}" },
      {
        kind: "sql",
        name: "hw_hpc",
        source: "SELECT * FROM hpc_samples WHERE run_id = ${hwRun} ORDER BY ts",
      },
      {
        kind: "sql",
        name: "hw_heap",
        source: "SELECT * FROM heap_samples WHERE run_id = ${hwRun} ORDER BY ts",
      },
      {
        kind: "ts",
        source:
          "const hwMethods = jb.androscope.methodList(hw_methods);\nconst hwExtentQuery = jb.androscope.callTimelineExtentQuery({runId: hwRun});\nconst hwExtent = (await sql(hwExtentQuery.parts, ...hwExtentQuery.params)).get(0);\nconst hwEnd = Number(hwExtent.t1);\nconst hwQuery = jb.androscope.callTimelineQuery({runId: hwRun, widthPx: 760, window: [Number(hwExtent.t0), hwEnd], lanes: hwExtent.lanes});\nconst hwTimeline = await sql(hwQuery.parts, ...hwQuery.params);",
      },
      {
        kind: "ts",
        source: `const hwWindowMs = view(plot.brushX(jb.androscope.callTimelinePlot(hwTimeline, {methods: hwMethods, threads: jb.androscope.threadList(hw_threads), title: "Calls (drag to select a window)"})))`,
      },
      // One shared window: the counters, the heap and the profile all take the timeline's selection.
      {
        kind: "ts",
        source:
          'const hwWindow = hwWindowMs ? [hwWindowMs[0] * 1e6, hwWindowMs[1] * 1e6] : [0, hwEnd];\nconst hwSeries = jb.androscope.counterSeries(hw_hpc, {window: hwWindow});\ndisplay(jb.androscope.counterSeriesPlot(hwSeries, "cpu-cycles", {window: hwWindow}));\ndisplay(jb.androscope.counterSeriesPlot(hwSeries, "IPC", {window: hwWindow}));\ndisplay(jb.androscope.heapSeriesPlot(jb.androscope.heapSeries(hw_heap, {window: hwWindow}), {window: hwWindow}));',
      },
      {
        kind: "ts",
        source:
          'const hwProfile = jb.androscope.methodProfile(hw_calls, hwMethods, {window: hwWindow, counters: jb.androscope.attributeCounters(hw_calls, hw_hpc, {window: hwWindow})});\ndisplay(md(hwProfile.slice(0, 15).map((r) => `- ${r.name}: ${r.calls} calls, ${(r.inclusive / 1e6).toFixed(1)} ms, IPC ${r.ipc === null ? "–" : r.ipc.toFixed(2)}`).join("\\n")));',
      },
    ],
  },
];
