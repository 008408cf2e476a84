// Publish: one self-contained HTML file of an investigation (docs/architecture.md, "Decisions"): prose, every
// plot as inline SVG, result tables (first rows; optionally the full data as a downloadable Arrow file), code
// folded in <details>, the input values at publish time and the provenance. It runs no code on open: a CSP
// meta forbids every script, and all rendered Markdown/HTML goes through DOMPurify (script tags, on*
// attributes and javascript: URLs come out inert).
//
//   publishNotebook(nb, states, context) -> string
// Host-independent: the browser passes its `document` and DOMPurify; Node uses node-context.ts (jsdom).
import * as Plot from "@observablehq/plot";
import type { Notebook } from "../notebook/format";
import { CHART_CSS, themePlot } from "../../charts/chart-theme";
import { classifyDisplay, type TableLike } from "../notebook/display-kind";
import { plotSpecToOptions } from "../../charts/plot-spec";
import { timelinePlot } from "../notebook/timeline-plot";
import { formatDuration, formatValue, isInstantColumn } from "../../charts/format-value";
import { timeOrigin } from "../../bundle/time-origins";
import { boundedJson, describeValue } from "./bounded-json";
import type { Sanitize } from "../../charts/sanitize";
import type { CellState } from "../notebook/runtime";
import { inputLabel } from "../notebook/view-input";
import { renderMarkdown } from "../notebook/markdown-render";
import { PreRendered } from "./pre-rendered";

export { PreRendered };

export interface RunProvenance {
  run_id: string;
  app?: string;
  app_version?: string;
  device_model?: string;
  manufacturer?: string;
  sdk_release?: string;
  api_level?: number;
  started_at?: string;
  synthetic?: boolean;
  complete?: boolean;
}

export interface PublishProvenance {
  notebook: string;
  title?: string;
  runs: RunProvenance[];
  jankbookVersion: string;
  generatedAt: string;
  inputs: { name: string; value: unknown; label?: string }[];
}

export interface PublishContext {
  /** a DOM document Plot renders into (browser: window.document; Node: jsdom or linkedom) */
  document: Document;
  /** sanitize.ts's sanitizer on the host's DOMPurify: HTML in, safe HTML out; used for every rendered fragment */
  sanitize: Sanitize;
  provenance: PublishProvenance;
  /** rows shown per result table before "show all" (default 10) */
  headRows?: number;
  /** rows of a result table written into the page, folded after headRows (default 200: reports stay small; embedData carries every row) */
  maxRows?: number;
  /** embed each result table in full as an Arrow IPC file (a download link); needs encodeArrow */
  embedData?: boolean;
  /** skip embedding tables larger than this many bytes (default 5 MB) */
  maxEmbedBytes?: number;
  encodeArrow?: (table: unknown) => Uint8Array;
  /** a text value longer than this many characters shows its beginning and its length (default 100,000) */
  maxChars?: number;
}

export { createSanitize, PURIFY_CONFIG, type Sanitize } from "../../charts/sanitize";

export const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'";

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}

function formatCell(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(Math.round(v * 1e6) / 1e6);
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "object") return jsonText(v, 0);
  return String(v);
}

/** JSON of a value for the page, up to 20,000 characters; a bigger one is described, never written out in full. */
function jsonText(v: unknown, indent = 2): string {
  try {
    return boundedJson(v, 20_000, indent) ?? `(${describeValue(v)}: too big to show here)`;
  } catch {
    return String(v);
  }
}

function base64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function renderTable(t: TableLike, label: string, ctx: PublishContext): string {
  const head = Math.min(ctx.headRows ?? 10, t.numRows);
  // The rest (up to a bound) is in the page, folded behind a "show all" box: readable without any script.
  const n = Math.min(Math.max(head, ctx.maxRows ?? 200), t.numRows);
  const fields = t.schema.fields;
  const cols = fields.map((f) => ({ name: f.name, vec: t.getChild(f.name) }));
  const numeric = cols.map((c) => ["number", "bigint"].includes(typeof c.vec?.get(0)));
  const runIds = t.getChild("run_id");
  // moments from the row's run's start (bundle/time-origins.ts), the trace's own clock on hover
  const cell = (c: (typeof cols)[number], i: number) => {
    const v = c.vec?.get(i);
    const origin = timeOrigin(runIds?.get(i) ?? undefined);
    const text = formatValue(v, c.name, origin);
    const absolute =
      origin !== undefined &&
      isInstantColumn(c.name) &&
      (typeof v === "number" || typeof v === "bigint") &&
      Number(v) >= origin;
    return absolute
      ? `<span title="${escapeHtml(`${formatDuration(v)} on the trace's clock`)}">${escapeHtml(text)}</span>`
      : escapeHtml(text);
  };
  const row = (i: number) =>
    `<tr>${cols.map((c, k) => `<td${numeric[k] ? ' class="num"' : ""}>${cell(c, i)}</td>`).join("")}</tr>`;
  let html = `<div class="table"><table><thead><tr>${fields.map((f) => `<th title="${escapeHtml(String(f.type))}">${escapeHtml(f.name)}</th>`).join("")}</tr></thead><tbody>`;
  for (let i = 0; i < head; i++) html += row(i);
  html += "</tbody>";
  if (n > head) {
    html += '<tbody class="more">';
    for (let i = head; i < n; i++) html += row(i);
    html += "</tbody>";
  }
  html += `</table><p class="rows">`;
  if (n > head)
    html += `<label><input type="checkbox" class="more"> show ${n < t.numRows ? `the first ${n.toLocaleString("en-US")} of` : "all"} ${t.numRows.toLocaleString("en-US")} rows</label>`;
  else html += `${t.numRows.toLocaleString("en-US")} row${t.numRows === 1 ? "" : "s"}`;
  if (ctx.embedData && ctx.encodeArrow) {
    const bytes = ctx.encodeArrow(t);
    if (bytes.length <= (ctx.maxEmbedBytes ?? 5_000_000))
      html += ` · <a download="${escapeHtml(label)}.arrow" href="data:application/vnd.apache.arrow.file;base64,${base64(bytes)}">all rows as Arrow (${bytes.length} bytes)</a>`;
    else html += ` · full data not embedded (${bytes.length} bytes > limit)`;
  }
  return html + "</p></div>";
}

/** The rows of a headless Inputs.table stand-in (headless-inputs.ts) as a table, its chosen columns in order. */
function tableInputRows(input: unknown): TableLike | undefined {
  const o = input as { kind?: unknown; options?: unknown; columns?: unknown };
  if (o.kind !== "table" || !Array.isArray(o.options)) return undefined;
  const rows = o.options as Record<string, unknown>[];
  const names = Array.isArray(o.columns)
    ? (o.columns as string[])
    : [...new Set(rows.flatMap((r) => (r && typeof r === "object" ? Object.keys(r) : [])))];
  return {
    numRows: rows.length,
    schema: { fields: names.map((name) => ({ name, type: "" })) },
    getChild: (name) => ({ get: (i) => rows[i]?.[name] }),
  };
}

function addXmlns(root: Element) {
  const svgs = [
    ...(root.tagName.toLowerCase() === "svg" ? [root] : []),
    ...Array.from(root.querySelectorAll("svg")),
  ];
  for (const s of svgs) s.setAttribute("xmlns", "http://www.w3.org/2000/svg");
}

export function renderPlot(
  options: Plot.PlotOptions,
  ctx: Pick<PublishContext, "document" | "sanitize">,
): string {
  // The workspace's chart theme; ramp legends only where the document can draw on a canvas (not linkedom).
  const canvas = ctx.document.createElement("canvas") as { getContext?: (kind: string) => unknown };
  const rampLegends = typeof canvas.getContext === "function" && !!safely(() => canvas.getContext!("2d"));
  const themed = themePlot(options, { rampLegends });
  const el = Plot.plot({ ...themed, document: ctx.document }) as unknown as Element;
  addXmlns(el);
  return `<div class="plot">${ctx.sanitize(el.outerHTML, "plot")}</div>`;
}

function safely<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/** One display value as safe HTML. */
export function renderDisplay(v: unknown, label: string, ctx: PublishContext): string {
  try {
    if (v instanceof PreRendered) return v.html;
    const d = classifyDisplay(v);
    switch (d.kind) {
      case "timeline":
        return renderPlot(timelinePlot(d.value), ctx);
      case "brush":
      case "plot-options":
        return renderPlot(d.value, ctx);
      case "plot-spec":
        return renderPlot(plotSpecToOptions(d.value), ctx);
      case "table":
        return renderTable(d.value, label, ctx);
      case "markdown":
        return `<div class="md">${renderMarkdown(d.value.text, ctx.sanitize)}</div>`;
      case "input": {
        const lab = inputLabel(d.value as unknown as Record<string, unknown>) ?? "";
        const input = `<div class="input"><span class="label">${escapeHtml(lab)}</span> <output>${escapeHtml(formatCell(d.value.value))}</output></div>`;
        // A headless Inputs.table holds its rows: the page lists them, as the workspace's table does.
        const rows = tableInputRows(d.value);
        return rows ? input + renderTable(rows, label, ctx) : input;
      }
      case "node":
        if (typeof d.value.outerHTML === "string")
          return `<div class="node">${ctx.sanitize(d.value.outerHTML, "prose")}</div>`;
    }
    if (typeof v === "string") {
      const max = ctx.maxChars ?? 100_000;
      if (v.length <= max) return `<pre class="value">${escapeHtml(v)}</pre>`;
      return `<pre class="value">${escapeHtml(v.slice(0, 2_000))} …</pre><p class="rows">first 2,000 of ${v.length.toLocaleString("en-US")} characters</p>`;
    }
    return `<pre class="value">${escapeHtml(typeof v === "object" ? jsonText(v) : formatCell(v))}</pre>`;
  } catch (e) {
    return `<div class="error">could not render this output: ${escapeHtml((e as Error).message)}</div>`;
  }
}

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;max-width:980px;margin:2rem auto;padding:0 1rem;color:#1b1b1f}
pre,code{font:13px/1.4 ui-monospace,monospace}
details.code{margin:.5rem 0;border-left:3px solid #ddd;padding-left:.5rem}
details.code summary{cursor:pointer;color:#666;font-size:13px}
.cell{margin:1rem 0}
.error{color:#a00;background:#fee;padding:.4rem .6rem;border-radius:4px;white-space:pre-wrap}
.not-applicable{color:#555;border:1px dashed #bbb;padding:.4rem .6rem;border-radius:4px}
.table{overflow-x:auto}
table{border-collapse:collapse;font-size:13px}
th,td{border-bottom:1px solid #eee;padding:2px 8px;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.table tbody.more{display:none}
.table:has(input.more:checked) tbody.more{display:table-row-group}
.rows{color:#666;font-size:12px;margin:.2rem 0}
.verdict{font-weight:600;padding:.3rem .6rem;border-radius:4px}
.verdict.ok{color:#070;background:#efe}
.verdict.fail{color:#a00;background:#fee}
.checks li.ok::marker{content:"✓ ";color:#070}
.checks li.fail::marker{content:"✗ ";color:#a00}
.input output{font-weight:600}
footer{margin-top:3rem;border-top:1px solid #ddd;font-size:13px;color:#444}
.plot svg{max-width:100%;height:auto}
`;

export function publishNotebook(nb: Notebook, states: readonly CellState[], ctx: PublishContext): string {
  const byId = new Map(states.map((s) => [s.id, s]));
  const p = ctx.provenance;
  const title = p.title ?? nb.frontMatter?.title ?? "jankbook notebook";
  const body: string[] = [];
  const firstProse = nb.blocks.find((b) => b.type === "prose");
  if (!(firstProse && /^#\s/m.test(firstProse.text))) body.push(`<h1>${escapeHtml(title)}</h1>`);
  // The checks' verdict, before any prose: prose cannot style the page (sanitize.ts), and this comes first.
  const checks = states.flatMap((s) => s.checks);
  const failed = checks.filter((c) => !c.ok);
  if (checks.length)
    body.push(
      `<p class="verdict ${failed.length ? "fail" : "ok"}">${failed.length ? `✗ ${failed.length} of ${checks.length} checks failed: ${failed.map((c) => escapeHtml(c.name)).join("; ")}` : `✓ all ${checks.length} checks passed`}</p>`,
    );
  let index = 0;
  for (const block of nb.blocks) {
    if (block.type === "prose") {
      body.push(renderMarkdown(block.text, ctx.sanitize));
      continue;
    }
    index++;
    const s = byId.get(block.id);
    const label =
      block.kind === "sql"
        ? `sql ${block.name ?? ""}`.trim()
        : `ts${s?.defines.length ? " " + s.defines.join(", ") : ""}`;
    const parts = [
      `<details class="code"><summary>${escapeHtml(label)}</summary><pre><code>${escapeHtml(block.source)}</code></pre></details>`,
    ];
    if (!s) parts.push(`<div class="error">not run</div>`);
    else {
      const tableLabel = (block.name ?? `cell-${index}`).replace(/[^\w.-]/g, "_");
      for (const d of s.displays) parts.push(renderDisplay(d, tableLabel, ctx));
      if (s.checks.length)
        parts.push(
          `<ul class="checks">${s.checks.map((c) => `<li class="${c.ok ? "ok" : "fail"}">${escapeHtml(c.name)}${c.detail ? `: ${escapeHtml(c.detail)}` : ""}</li>`).join("")}</ul>`,
        );
      if (s.status === "rejected" && s.notApplicable !== undefined)
        parts.push(
          `<div class="not-applicable">not applicable to these runs: ${escapeHtml(s.notApplicable)}</div>`,
        );
      else if (s.status === "rejected")
        parts.push(`<div class="error">${escapeHtml(s.error ?? "failed")}</div>`);
      if (s.status === "pending") parts.push(`<div class="error">still running when published</div>`);
    }
    body.push(`<section class="cell" data-kind="${block.kind}">${parts.join("\n")}</section>`);
  }
  const inputs = p.inputs.length
    ? `<h3>Inputs at publish time</h3><table><tbody>${p.inputs.map((i) => `<tr><th>${escapeHtml(i.label || i.name)}</th><td><code>${escapeHtml(i.name)}</code></td><td>${escapeHtml(formatCell(i.value))}</td></tr>`).join("")}</tbody></table>`
    : "";
  const runs = `<h3>Runs</h3><table><thead><tr><th>run</th><th>app</th><th>device</th><th>Android</th><th>collected</th><th></th></tr></thead><tbody>${p.runs
    .map(
      (r) =>
        `<tr><td>${escapeHtml(r.run_id)}</td><td>${escapeHtml([r.app, r.app_version].filter(Boolean).join(" "))}</td><td>${escapeHtml([r.manufacturer, r.device_model].filter(Boolean).join(" "))}</td><td>${escapeHtml(
          [r.sdk_release, r.api_level !== undefined ? `(API ${r.api_level})` : ""].filter(Boolean).join(" "),
        )}</td><td>${escapeHtml(r.started_at ?? "")}</td><td>${r.synthetic ? "synthetic" : ""}${r.complete === false ? " incomplete" : ""}</td></tr>`,
    )
    .join("")}</tbody></table>`;
  const footer = `<footer><h2>Provenance</h2>${runs}${inputs}<p>Notebook <code>${escapeHtml(p.notebook)}</code>, published ${escapeHtml(p.generatedAt)} by jankbook ${escapeHtml(p.jankbookVersion)}. This page runs no code.</p></footer>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="jankbook ${escapeHtml(p.jankbookVersion)}">
<title>${escapeHtml(title)}</title>
<style>${STYLE}${CHART_CSS}</style>
</head>
<body>
<main>
${body.join("\n")}
</main>
${footer}
</body>
</html>
`;
}
