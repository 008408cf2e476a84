// The reports of `jankbook compare`: the ranked list as text for the terminal, as JSON, and as a self-contained
// HTML page that runs nothing (the published pages' rule: a CSP that forbids scripts, the chart sanitised).
import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";
import type { CompareRow } from "../../cells/compare/compare-metric";
import type { Comparison } from "../../cells/compare/compare-runs";
import { whatChangedListPlot } from "../../cells/compare/what-changed";
import { plotSpecToOptions } from "../../charts/plot-spec";
import { nodeSanitize } from "./node-context";

const fmt = (x: number) =>
  !Number.isFinite(x)
    ? Number.isNaN(x)
      ? "–"
      : x > 0
        ? "∞"
        : "-∞"
    : Math.abs(x) >= 100
      ? x.toFixed(0)
      : Math.abs(x) >= 1
        ? x.toFixed(2)
        : x.toPrecision(2);
const pct = (x: number) => (Number.isNaN(x) ? "–" : x < 1e-4 ? x.toExponential(1) : x.toFixed(4));

/** The change in words: "×1.53 [1.49, 1.58]" or "+0.12 [0.05, 0.20]". */
export function changeText(r: CompareRow): string {
  const ci = Number.isNaN(r.ci[0]) ? "" : ` [${fmt(r.ci[0])}, ${fmt(r.ci[1])}]`;
  return r.scale === "ratio" ? `×${fmt(r.change)}${ci}` : `${r.change >= 0 ? "+" : ""}${fmt(r.change)}${ci}`;
}

/** One line per row: rank, verdict, subject and measure, A → B, change, δ, q, and what it rests on. */
export function rowLine(r: CompareRow, rank: number): string {
  const verdict = r.significant ? r.direction.toUpperCase() : r.status === "ok" ? "n.s." : r.status;
  return `${String(rank).padStart(3)}. ${verdict.padEnd(11)} [${r.analysis}] ${r.subject}: ${r.measure}  ${fmt(r.a)} → ${fmt(r.b)} ${r.unit}  ${changeText(r)}  δ=${fmt(r.delta)}  q=${pct(r.q)}  (${r.note})`;
}

export function compareText(c: Comparison, top = 20): string {
  const sig = c.rows.filter((r) => r.significant);
  const lines = [
    `A: ${c.sides.a.length} run(s) ${c.sides.a.slice(0, 5).join(", ")}${c.sides.a.length > 5 ? ", …" : ""}`,
    `B: ${c.sides.b.length} run(s) ${c.sides.b.slice(0, 5).join(", ")}${c.sides.b.length > 5 ? ", …" : ""}`,
    `${c.rows.length} measures compared, ${sig.length} significant (${sig.filter((r) => r.direction === "regression").length} regressions)`,
    ...(c.windowed.length
      ? [`no UI events in ${c.windowed.join(", ")}: cut into equal time windows for the block bootstrap`]
      : []),
    "what changed most:",
    ...c.rows.slice(0, top).map((r, i) => rowLine(r, i + 1)),
  ];
  return lines.join("\n") + "\n";
}

export function compareJson(c: Comparison, options: Record<string, unknown>): string {
  const clean = (x: number) =>
    Number.isFinite(x) ? x : Number.isNaN(x) ? null : x > 0 ? "Infinity" : "-Infinity";
  const rows = c.rows.map((r) => ({
    ...r,
    a: clean(r.a),
    b: clean(r.b),
    change: clean(r.change),
    ci: r.ci.map(clean),
    delta: clean(r.delta),
    p: clean(r.p),
    q: clean(r.q),
  }));
  return JSON.stringify({ sides: c.sides, options, windowed: c.windowed, rows }, null, 2) + "\n";
}

const escape = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export function compareHtml(
  c: Comparison,
  options: Record<string, unknown>,
  title = "jankbook compare",
): string {
  const { document } = parseHTML("<!doctype html><html><head></head><body></body></html>");
  const svg = (
    Plot.plot({
      ...plotSpecToOptions(whatChangedListPlot(c.rows)),
      document: document as unknown as Document,
    }) as unknown as { outerHTML: string }
  ).outerHTML;
  const rows = c.rows
    .map(
      (r, i) =>
        `<tr class="${r.significant ? r.direction : "ns"}"><td>${i + 1}</td><td>${escape(r.significant ? r.direction : r.status === "ok" ? "n.s." : r.status)}</td><td>${escape(r.analysis)}</td><td>${escape(r.subject)}</td><td>${escape(r.measure)}</td><td>${escape(`${fmt(r.a)} → ${fmt(r.b)} ${r.unit}`)}</td><td>${escape(changeText(r))}</td><td>${escape(fmt(r.delta))}</td><td>${escape(pct(r.q))}</td><td>${escape(r.note)}</td></tr>`,
    )
    .join("\n");
  return `<!doctype html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${escape(title)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{padding:2px 6px;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}tr.regression td:nth-child(2){color:#c92a2a;font-weight:600}tr.improvement td:nth-child(2){color:#2b8a3e;font-weight:600}</style>
</head><body>
<h1>${escape(title)}</h1>
<p>A (baseline): ${escape(c.sides.a.join(", "))}<br>B (candidate): ${escape(c.sides.b.join(", "))}</p>
<p>Options: ${escape(JSON.stringify(options))}. Statistics: docs/compare.md.</p>
${nodeSanitize(svg, "plot")}
<table><thead><tr><th>#</th><th>verdict</th><th>analysis</th><th>subject</th><th>measure</th><th>A → B</th><th>change [CI]</th><th>Cliff's δ</th><th>q (BH)</th><th>rests on</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</body></html>
`;
}
