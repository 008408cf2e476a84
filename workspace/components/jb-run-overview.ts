// <jb-run-overview>: the loaded runs with their device context, row counts per table, and load errors.
import { LitElement, css, html, nothing } from "lit";
import { TABLE_NAMES } from "../../bundle/schema";
import { openRunInPerfetto } from "../app/open-in-perfetto";
import type { LoadedRun } from "../app/session";
import type { SqlEngine } from "../db/engine";

export class JbRunOverview extends LitElement {
  static override properties = {
    runs: { attribute: false },
    engine: { attribute: false },
    perfetto: { state: true },
  };
  declare runs: LoadedRun[];
  declare engine: SqlEngine | undefined;
  /** run id -> why Open in Perfetto failed */
  declare perfetto: Record<string, string>;

  constructor() {
    super();
    this.runs = [];
    this.perfetto = {};
  }

  private openInPerfetto(run: LoadedRun) {
    const id = run.manifest?.run_id;
    if (!this.engine || !id) return;
    const { [id]: _, ...rest } = this.perfetto;
    this.perfetto = rest;
    openRunInPerfetto(this.engine, id, Object.keys(run.rows)).catch(
      (e: Error) => (this.perfetto = { ...this.perfetto, [id]: `Open in Perfetto: ${e.message}` }),
    );
  }

  static override styles = css`
    :host {
      display: block;
    }
    table {
      border-collapse: collapse;
      font-size: 13px;
      width: 100%;
    }
    th,
    td {
      border-bottom: 1px solid var(--jb-border, #dfe3ea);
      padding: 4px 8px;
      text-align: left;
      vertical-align: top;
    }
    th {
      color: var(--jb-muted, #5d6678);
      font-weight: 600;
    }
    td.num {
      text-align: right;
      font-variant-numeric: tabular-nums;
    }
    .badge {
      display: inline-block;
      border-radius: 4px;
      padding: 0 6px;
      font-size: 11px;
      margin-left: 6px;
    }
    .synthetic {
      background: var(--jb-note-bg, #fff3bf);
      color: var(--jb-note-fg, #7a5b00);
    }
    .incomplete {
      background: var(--jb-incomplete-bg, #ffe3e3);
      color: var(--jb-incomplete-fg, #a61e1e);
    }
    .errors {
      color: var(--jb-bad, #c92a2a);
      margin: 4px 0 0;
      padding-left: 18px;
      font-family: ui-monospace, monospace;
      font-size: 12px;
    }
    button.perfetto {
      margin-top: 4px;
      font-size: 12px;
      white-space: nowrap;
    }
    .warnings {
      color: var(--jb-warn, #b35c00);
      margin: 4px 0 0;
      padding-left: 18px;
      font-size: 12px;
    }
  `;

  override render() {
    const tables = TABLE_NAMES.filter((t) => t !== "runs" && this.runs.some((r) => r.rows[t] !== undefined));
    return html`<table>
      <thead>
        <tr>
          <th>run</th>
          <th>device</th>
          <th>app</th>
          ${tables.map((t) => html`<th class="num">${t}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${this.runs.map((run) => this.row(run, tables))}
      </tbody>
    </table>`;
  }

  private row(run: LoadedRun, tables: string[]) {
    const m = run.manifest;
    const c = m?.context;
    return html`<tr class="run" data-run=${m?.run_id ?? run.label}>
      <td>
        <strong>${m?.run_id ?? run.label}</strong>
        ${m?.synthetic ? html`<span class="badge synthetic" title="generated, not collected from a device">synthetic</span>` : nothing}
        ${m && !m.complete ? html`<span class="badge incomplete">incomplete</span>` : nothing}
        ${c?.scenario ? html`<div>${c.scenario}</div>` : nothing}
        ${m && this.engine ? html`<button class="perfetto" @click=${() => this.openInPerfetto(run)}>Open in Perfetto</button>` : nothing}
        ${
          m && this.perfetto[m.run_id]
            ? html`<ul class="errors">
                <li>${this.perfetto[m.run_id]}</li>
              </ul>`
            : nothing
        }
        ${
          run.errors.length
            ? html`<ul class="errors">
                ${run.errors.map((e) => html`<li>${e}</li>`)}
              </ul>`
            : nothing
        }
        ${
          m?.warnings.length
            ? html`<ul class="warnings">
                ${m.warnings.map((w) => html`<li>${w}</li>`)}
              </ul>`
            : nothing
        }
      </td>
      <td>
        ${
          c
            ? html`${c.manufacturer ?? ""} ${c.device_model ?? "?"}<br />Android ${c.sdk_release ?? "?"} (API
                ${c.api_level ?? "?"})
                ${c.screen_width ? html`<br />${c.screen_width}×${c.screen_height} @ ${c.refresh_hz ?? "?"} Hz` : nothing}`
            : nothing
        }
      </td>
      <td>${c ? html`${c.app} ${c.app_version ?? ""}` : nothing}</td>
      ${tables.map((t) => html`<td class="num">${run.rows[t] ?? "—"}</td>`)}
    </tr>`;
  }
}
customElements.define("jb-run-overview", JbRunOverview);
