// What <jb-app> shows of its runs (runs-controller.ts): the runs table with its remove buttons and marks, the
// note on dropped runs, the overview chart or the load's progress, the table list and the removed-run toast.
import { html, nothing } from "lit";
import type { OverviewChartController } from "./overview-chart-controller";
import type { RunsController } from "./runs-controller";

const them = (n: number) => (n === 1 ? "it" : "them");

/**
 * The runs table, the overview chart (or the load's progress) and the table list. A child's `remove-run` and
 * `mark-run` go to the runs controller, `open-compare` to `openCompare`.
 */
export function runsSections(
  runs: RunsController,
  overview: OverviewChartController,
  openCompare: () => unknown,
) {
  const loading = runs.loading;
  return html`<section
      id="overview"
      aria-label="runs"
      @remove-run=${(e: HTMLElementEventMap["remove-run"]) => void runs.remove(e.detail)}
    >
      <jb-run-overview
        .runs=${runs.session?.runs ?? []}
        .served=${runs.served}
        .engine=${runs.session?.engine}
        .marks=${runs.marks}
        @mark-run=${(e: HTMLElementEventMap["mark-run"]) => runs.mark(e.detail.run, e.detail.side)}
        @open-compare=${openCompare}
      ></jb-run-overview>
      ${
        runs.dropped
          ? html`<p class="hint dropped" role="note">
              ${runs.dropped} dropped run${runs.dropped === 1 ? " is" : "s are"} not in the page's URL: a
              reload will not bring ${them(runs.dropped)} back (runs added by URL stay).
            </p>`
          : nothing
      }
    </section>
    <section id="frames">
      <h2>Frames</h2>
      ${overview.error ? html`<div class="error">${overview.error}</div>` : nothing}
      ${
        overview.chart
          ? html`<jb-plot .options=${overview.chart}></jb-plot>`
          : loading
            ? html`<p class="hint loading" role="status">
                loading ${loading.total} run${loading.total === 1 ? "" : "s"}… (${loading.done} of
                ${loading.total} in)
              </p>`
            : html`<p class="hint">No frames loaded.</p>`
      }
    </section>
    <details id="schema">
      <summary>Tables</summary>
      <jb-schema .tables=${runs.tables}></jb-schema>
    </details>`;
}

/** The last removal, with Undo when the run came from a URL. */
export function removalToast(runs: RunsController) {
  const removal = runs.removal.value;
  if (!removal) return nothing;
  return html`<div class="toast" role="status">
    ${removal.message}
    ${removal.undo ? html`<button @click=${() => runs.undoRemoval()}>Undo</button>` : nothing}
    <button aria-label="dismiss" @click=${() => runs.removal.clear()}>×</button>
  </div>`;
}
