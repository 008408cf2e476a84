// <jb-run-overview>: the loaded runs, compact: one summary line (runs, devices, frames, failures), and a table
// of the runs with their device, app, row counts and load errors, folded by default past 3 runs (the notebook
// stays in view); each run has a remove button (a `remove-run` event the app acts on) and baseline / candidate
// toggles (`mark-run`) that choose the two sides of a comparison; "Open compare" (`open-compare`) opens them.
import { appText, unnamedDeviceText } from "../../bundle/run-naming";
import { LitElement, css, html, nothing } from "lit";
import { lostByTable } from "../../bundle/lost-lines";
import { TABLE_NAMES } from "../../bundle/schema";
import { openRunInPerfetto, PerfettoUnreachable } from "../app/open-in-perfetto";
import type { LoadedRun } from "../app/session";
import type { SqlEngine } from "../db/engine";
import { SIDES, type RunMarks, type Side } from "../app/url-state";

export class JbRunOverview extends LitElement {
  static override properties = {
    runs: { attribute: false },
    served: { attribute: false },
    engine: { attribute: false },
    perfetto: { state: true },
    perfettoFile: { state: true },
    marks: { attribute: false },
  };
  /** run ids marked as each side of a comparison */
  declare marks: RunMarks;
  declare runs: LoadedRun[];
  /** under `jankbook serve`: the runs the server loaded, the page's own list being empty */
  declare served: { run_id: string; dir: string; errors: string[] }[] | undefined;
  declare engine: SqlEngine | undefined;
  /** run id -> why Open in Perfetto failed */
  declare perfetto: Record<string, string>;
  /** run id -> the trace Perfetto UI could not take, as an object URL to download instead */
  declare perfettoFile: Record<string, string>;

  constructor() {
    super();
    this.runs = [];
    this.perfetto = {};
    this.perfettoFile = {};
    this.marks = { baseline: [], candidate: [] };
  }

  /** Marks a run as one side, or unmarks it when it is that side already: `mark-run` {run, side}. */
  private toggleMark(run: string, side: Side) {
    const detail = { run, side: this.marks[side].includes(run) ? null : side };
    this.dispatchEvent(new CustomEvent("mark-run", { detail, bubbles: true, composed: true }));
  }

  private openCompare() {
    this.dispatchEvent(new CustomEvent("open-compare", { bubbles: true, composed: true }));
  }

  private openInPerfetto(run: LoadedRun) {
    const id = run.manifest?.run_id;
    if (!this.engine || !id) return;
    const { [id]: _, ...rest } = this.perfetto;
    this.perfetto = rest;
    openRunInPerfetto(this.engine, id, Object.keys(run.rows)).catch((e: Error) => {
      this.perfetto = { ...this.perfetto, [id]: `Open in Perfetto: ${e.message}` };
      if (!(e instanceof PerfettoUnreachable)) return;
      // Offline or blocked: the same trace as a file, to open in Perfetto UI (or `jankbook export`'s) later.
      const old = this.perfettoFile[id];
      if (old) URL.revokeObjectURL(old);
      const blob = new Blob([e.trace.slice().buffer], { type: "application/octet-stream" });
      this.perfettoFile = { ...this.perfettoFile, [id]: URL.createObjectURL(blob) };
    });
  }

  /** Asks the app to remove a run (failed ones too): `remove-run`, its label as detail, crosses shadow roots. */
  private askRemove(run: LoadedRun) {
    this.dispatchEvent(new CustomEvent("remove-run", { detail: run.label, bubbles: true, composed: true }));
  }

  /** the reader's choice; until they make one, the list is open for up to 3 runs */
  private userOpen: boolean | undefined;

  private toggle(e: Event, open: boolean) {
    e.preventDefault(); // the details element follows `open` from render, not the click's own toggle
    this.userOpen = !open;
    this.requestUpdate();
  }

  static override styles = css`
    :host {
      display: block;
    }
    summary {
      cursor: pointer;
      font-size: 13px;
      color: var(--jb-muted, #5d6678);
      padding: 2px 0;
    }
    summary strong {
      color: var(--jb-fg, #1d2330);
    }
    summary .bad {
      color: var(--jb-bad, #c92a2a);
    }
    .wrap {
      overflow-x: auto;
      margin-top: 6px;
    }
    table {
      border-collapse: collapse;
      font-size: 12px;
      width: 100%;
    }
    th,
    td {
      border-bottom: 1px solid var(--jb-border, #dfe3ea);
      padding: 3px 6px;
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
    td.tables {
      color: var(--jb-muted, #5d6678);
      max-width: 260px;
    }
    .id {
      font-weight: 600;
      overflow-wrap: anywhere;
    }
    .scenario {
      color: var(--jb-muted, #5d6678);
    }
    .badge {
      display: inline-block;
      border-radius: 4px;
      padding: 0 5px;
      font-size: 11px;
      margin-left: 4px;
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
      margin: 2px 0 0;
      padding-left: 18px;
      font-family: ui-monospace, monospace;
      font-size: 11px;
      overflow-wrap: anywhere;
    }
    button.perfetto,
    button.remove,
    button.mark {
      font-size: 11px;
      white-space: nowrap;
      margin-left: 6px;
    }
    button.mark[aria-pressed="true"] {
      font-weight: 600;
      color: #fff;
      border-color: transparent;
    }
    button.mark.baseline[aria-pressed="true"] {
      background: #4575b4;
    }
    button.mark.candidate[aria-pressed="true"] {
      background: #d73027;
    }
    .compare {
      display: flex;
      gap: 8px;
      align-items: center;
      margin-top: 6px;
      font-size: 12px;
      color: var(--jb-muted, #5d6678);
    }
    .warnings {
      color: var(--jb-warn, #b35c00);
      margin: 2px 0 0;
      padding-left: 18px;
      font-size: 11px;
    }
  `;

  override render() {
    const runs = this.runs;
    const tables = TABLE_NAMES.filter((t) => t !== "runs" && runs.some((r) => r.rows[t] !== undefined));
    const hasFrames = tables.includes("frames");
    const others = tables.filter((t) => t !== "frames");
    const open = this.userOpen ?? runs.length <= 3;
    return html`<details ?open=${open}>
      <summary @click=${(e: Event) => this.toggle(e, open)}>${this.summary(runs)}</summary>
      <div class="wrap">
        <table>
          <thead>
            <tr>
              <th>run</th>
              <th>device</th>
              <th>app</th>
              ${hasFrames ? html`<th class="num">frames</th>` : nothing}
              ${others.length ? html`<th>other tables (rows)</th>` : nothing}
            </tr>
          </thead>
          <tbody>
            ${runs.map((run) => this.row(run, hasFrames, others))}
          </tbody>
        </table>
      </div>
      ${runs.length >= 2 ? this.compareBar() : nothing}
    </details>`;
  }

  /** How many runs each side has, and the button that opens them in notebooks/compare.md. */
  private compareBar() {
    const [b, c] = [this.marks.baseline.length, this.marks.candidate.length];
    const ready = b > 0 && c > 0;
    return html`<div class="compare">
      <button
        class="open-compare"
        ?disabled=${!ready}
        @click=${this.openCompare}
        title="open notebooks/compare.md with the marked runs as its two sides"
      >
        Open compare
      </button>
      <span
        >${ready ? `${b} baseline, ${c} candidate` : "mark runs as baseline and candidate to compare them"}</span
      >
    </div>`;
  }

  /** One line for the collapsed list: how many runs, devices and frames, and how many runs failed. */
  private summary(runs: LoadedRun[]) {
    if (runs.length === 0 && this.served) return this.servedSummary(this.served);
    if (runs.length === 0) return html`no runs loaded yet`;
    const devices = new Set(runs.map((r) => r.manifest?.context.device_model).filter(Boolean)).size;
    const frames = runs.reduce((n, r) => n + (r.rows.frames ?? 0), 0);
    const failed = runs.filter((r) => r.errors.length).length;
    const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;
    // counts a run's manifest or tables do not give (no device named, no frames table) are left out
    const parts = [devices ? plural(devices, "device") : "", frames ? plural(frames, "frame") : ""].filter(
      Boolean,
    );
    return html`<strong>${plural(runs.length, "run")}</strong>${parts.map((p) => ` · ${p}`)}${
        failed ? html` · <span class="bad">${failed} with errors</span>` : nothing
      }`;
  }

  /** The runs `jankbook serve` loaded: how many, their ids, and how many failed. */
  private servedSummary(served: { run_id: string; dir: string; errors: string[] }[]) {
    if (!served.length) return html`no runs on this jankbook serve (started without --runs)`;
    const failed = served.filter((r) => r.errors.length).length;
    const ids = served.map((r) => r.run_id || r.dir);
    const shown = ids.length > 5 ? [...ids.slice(0, 5), `… ${ids.length - 5} more`] : ids;
    return html`<strong>${served.length} run${served.length === 1 ? "" : "s"}</strong> loaded by jankbook
      serve: ${shown.join(", ")}${failed ? html` · <span class="bad">${failed} with errors</span>` : nothing}`;
  }

  private row(run: LoadedRun, hasFrames: boolean, others: string[]) {
    const m = run.manifest;
    const c = m?.context;
    const screen = c?.screen_width ? `${c.screen_width}×${c.screen_height} @ ${c.refresh_hz ?? "?"} Hz` : "";
    // Agent lines logd dropped, beside the table they would have filled (docs/agent-protocol.md, "Lost lines").
    const lost = lostByTable(m?.lost_lines);
    return html`<tr class="run" data-run=${m?.run_id ?? run.label}>
      <td>
        <span class="id">${m?.run_id ?? run.label}</span>
        ${m?.synthetic ? html`<span class="badge synthetic" title="generated, not collected from a device">synthetic</span>` : nothing}
        ${m && !m.complete ? html`<span class="badge incomplete">incomplete</span>` : nothing}
        ${m && this.engine ? html`<button class="perfetto" @click=${() => this.openInPerfetto(run)}>Open in Perfetto</button>` : nothing}
        ${
          m
            ? SIDES.map(
                (side) =>
                  html`<button
                    class="mark ${side}"
                    aria-pressed=${this.marks[side].includes(m.run_id) ? "true" : "false"}
                    aria-label=${`${side} ${m.run_id}`}
                    title=${`mark this run as a ${side} of a comparison`}
                    @click=${() => this.toggleMark(m.run_id, side)}
                  >
                    ${side}
                  </button>`,
              )
            : nothing
        }
        <button
          class="remove"
          aria-label=${`remove ${run.label}`}
          title="remove this run from the workspace"
          @click=${() => this.askRemove(run)}
        >
          remove
        </button>
        ${c?.scenario ? html`<div class="scenario">${c.scenario}</div>` : nothing}
        ${this.list("errors", [...(m && this.perfetto[m.run_id] ? [this.perfetto[m.run_id]!] : []), ...run.errors])}
        ${
          m && this.perfettoFile[m.run_id]
            ? html`<a
                class="perfetto-file"
                href=${this.perfettoFile[m.run_id]!}
                download=${`${m.run_id}.perfetto-trace`}
                >Download the trace</a
              >`
            : nothing
        }
        ${this.list("warnings", m?.warnings ?? [])}
      </td>
      <td title=${screen}>
        ${m && unnamedDeviceText(m) ? unnamedDeviceText(m) : c ? html`${c.manufacturer ?? ""} ${c.device_model ?? "?"} · Android ${c.sdk_release ?? "?"} (API ${c.api_level ?? "?"})` : nothing}
      </td>
      <td>${m ? appText(m) : nothing}</td>
      ${hasFrames ? html`<td class="num">${run.rows.frames ?? "—"}</td>` : nothing}
      ${
        others.length
          ? html`<td class="tables">
              ${others
                .filter((t) => run.rows[t] !== undefined)
                .map(
                  (t) =>
                    `${t} ${run.rows[t]!.toLocaleString("en-US")}${lost[t] ? ` (${lost[t]!.toLocaleString("en-US")} lines lost)` : ""}`,
                )
                .join(" · ")}
            </td>`
          : nothing
      }
    </tr>`;
  }

  private list(kind: "errors" | "warnings", items: string[]) {
    if (items.length === 0) return nothing;
    return html`<ul class=${kind}>
      ${items.map((e) => html`<li>${e}</li>`)}
    </ul>`;
  }
}
customElements.define("jb-run-overview", JbRunOverview);

declare global {
  interface HTMLElementEventMap {
    /** <jb-run-overview>: the user asks to remove the run with this label */
    "remove-run": CustomEvent<string>;
    /** <jb-run-overview>: mark a run (by run id) as a side of a comparison, or unmark it (side null) */
    "mark-run": CustomEvent<{ run: string; side: Side | null }>;
    /** <jb-run-overview>: open the marked runs in the compare notebook */
    "open-compare": CustomEvent<undefined>;
  }
}
