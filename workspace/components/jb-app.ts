// <jb-app>: the workspace shell. Opens run bundles (the notebook's runs, beside it or among the samples;
// ?runs=URL,...; or a drop), registers them in DuckDB and shows the run overview with its first chart.
// State you can trust: the notebook's front matter decides the runs (opening another notebook
// replaces them), the URL holds the notebook and the runs (history.replaceState), adding runs re-runs the cells
// that read tables, and every failure says what was not found and where. Runs marked baseline and candidate (kept in
// the URL) open in notebooks/compare.md as its two sides, and are the starting values of any notebook's inputs
// named `baseline` and `candidate`. Its jobs are controllers: the runs (runs-controller.ts), the overview chart,
// the notebook file (save, publish, recovered draft) and the drop target.
import { LitElement, html, nothing } from "lit";
import { toastStyles } from "./toast-styles";
import { appStyles } from "./jb-app-styles";
import { DropController } from "./drop-controller";
import { NotebookFileController } from "./notebook-file-controller";
import { OverviewChartController } from "./overview-chart-controller";
import { RunsController } from "./runs-controller";
import { removalToast, runsSections } from "./runs-view";
import { prepareBundle } from "../../bundle/prepare-bundle";
import type { Session } from "../app/session";
import { createBrowserEngine } from "../db/duckdb-browser";
import type { SqlEngine, TableInfo } from "../db/engine";
import { RemoteHttpEngine } from "../db/remote-http-engine";
import { loadDraft } from "../app/autosave";
import { bundledNotebookFolders, bundledNotebooks } from "../app/notebook-sources";
import {
  bundledName,
  openedNotebook,
  rememberOpened,
  resolveNotebook,
  type ResolvedNotebook,
} from "../app/notebook-resolve";
import { runsParam, runsToWrite, withUrlState } from "../app/url-state";
import { importInStages, whenIdle } from "../app/import-in-stages";
import type { JbNotebook } from "./jb-notebook";
import "./jb-notebook-picker";
import "./jb-plot";
import "./jb-run-overview";
import "./jb-schema";
import "./jb-toc";
import type { TocHeading } from "./jb-toc";

export class JbApp extends LitElement {
  static override properties = {
    notebookText: { state: true },
    notebookPath: { state: true },
    notebookError: { state: true },
    headings: { state: true },
  };
  /** the engine a session opens: DuckDB-WASM in a worker (the element tests give it DuckDB-WASM's Node build) */
  createEngine: () => Promise<SqlEngine> = createBrowserEngine;
  private readonly overview = new OverviewChartController(this);
  private readonly file = new NotebookFileController(this);
  readonly runs = new RunsController(this, {
    overview: this.overview,
    createEngine: () => this.createEngine(),
    urlChanged: () => this.writeUrl(),
  });
  private readonly drop = new DropController(this, (sources) => this.runs.addDropped(sources));
  /** the notebook's headings, for the table of contents (jb-notebook's "headings" event) */
  declare headings: TocHeading[];
  /** why the notebook named in the URL could not be opened */
  declare notebookError: string | undefined;
  /** `?notebook=` of the open notebook */
  private notebookName?: string;
  declare notebookText: string | undefined;
  declare notebookPath: string;

  constructor() {
    super();
    this.notebookPath = "triage.md";
    this.headings = [];
  }

  /** the runs' session (read by the browser tests) */
  get session(): Session | undefined {
    return this.runs.session;
  }

  /** the engine's tables, as the table list shows them (read by the browser tests) */
  get tables(): TableInfo[] {
    return this.runs.tables;
  }

  static override styles = [toastStyles, appStyles];

  override connectedCallback() {
    super.connectedCallback();
    void this.start().then(() => this.loadNotebook());
  }

  /**
   * The notebook (CodeMirror, the runtime, every cell) is its own chunk, evaluated once the runs are in (its text
   * is shown only then) and the main thread is idle, in stages: it never competes with DuckDB's start or the
   * first chart, and no stage is a long task (docs/budgets.md).
   */
  private async loadNotebook() {
    await whenIdle();
    await importInStages([
      () => import("@codemirror/view"),
      () => Promise.all([import("@codemirror/lang-javascript"), import("@codemirror/lang-sql")]),
      () => import("sucrase"),
      () => Promise.all([import("acorn"), import("markdown-it")]),
      () => Promise.all([import("@observablehq/runtime"), import("@observablehq/inputs")]),
      () => import("./jb-notebook"),
    ]);
  }

  private async start() {
    try {
      const params = new URLSearchParams(location.search);
      // ?engine=server (the URL `jankbook serve` prints): the server's native DuckDB holds the runs and the lake.
      const server = params.get("engine") === "server";
      // DuckDB's 34 MB wasm compiles while the notebook is read and the bundles are fetched and decoded.
      const engineReady: Promise<SqlEngine> = server
        ? Promise.resolve(new RemoteHttpEngine(location.origin))
        : this.createEngine();
      engineReady.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled
      const notebooks = bundledNotebooks();
      const name = params.get("notebook") ?? (notebooks.triage ? "triage" : Object.keys(notebooks)[0]);
      let notebook: ResolvedNotebook | undefined;
      if (name !== undefined)
        notebook = await resolveNotebook(name, {
          bundled: notebooks,
          folders: bundledNotebookFolders(),
          opened: (n) => openedNotebook(sessionStorage, n),
          fetch: (url) => fetch(url),
          base: location.href,
        }).catch((e: Error) => {
          this.notebookError = e.message;
          return undefined;
        });
      this.notebookName = name;
      this.notebookPath = notebook?.path ?? "untitled.md";
      // A draft typed before a crash or reload wins over the bundled text: nothing typed is lost.
      const original = notebook?.text;
      const draft = notebook ? loadDraft(this.notebookPath) : undefined;
      const text = draft && draft.text !== original ? draft.text : original;
      if (draft && draft.text !== original) this.file.setRecovered(draft.at);
      // ?runs= (also what the page writes once runs are added) replaces the notebook's own runs.
      const own = server ? { runs: [], missing: [] } : await this.runs.runsOf(text, notebook?.folder, !!name);
      this.runs.ownRuns = own.runs;
      const listed = server ? undefined : runsParam(location.search);
      this.runs.missingRuns = listed ? [] : own.missing;
      const sources = this.runs.urlSources(listed ?? own.runs);
      this.runs.expect(sources.length);
      performance.mark("jb:load-start"); // the frames load benchmark counts long tasks from here
      const reads = sources.map((source) => prepareBundle(source, { attach: true }));
      for (const r of reads) r.catch(() => undefined); // reported per run by Session.load
      this.runs.begin(await engineReady);
      if (performance.getEntriesByName("jb:engine-ready").length === 0) performance.mark("jb:engine-ready");
      if (server) await this.runs.showServer();
      else await this.runs.load(sources, reads);
      this.notebookText = text;
    } catch (e) {
      this.runs.fail(`could not start: ${(e as Error).message}`);
    }
  }

  private notebookElement(): JbNotebook | null {
    return this.renderRoot.querySelector("jb-notebook");
  }

  /** "Open notebook": the file's front matter decides the runs; the previous notebook's runs go. */
  private async openFile() {
    const file = await this.file.open();
    if (!file) return;
    rememberOpened(sessionStorage, file.name, file.text);
    const same = bundledName(file.name, bundledNotebooks());
    const folder = same === undefined ? undefined : bundledNotebookFolders()[same];
    await this.switchNotebook(file.name, file.name, file.text, folder).catch((e: Error) =>
      this.runs.fail(`could not open ${file.name}: ${e.message}`),
    );
  }

  /** "Open compare": notebooks/compare.md with exactly the marked runs loaded, baseline and candidate as its sides. */
  private async openCompare() {
    const marked = this.runs.compareRuns();
    if ("error" in marked) return this.runs.say(`cannot open compare: ${marked.error}`);
    const text = bundledNotebooks().compare;
    if (text === undefined)
      return this.runs.say("cannot open compare: the workspace was built without notebooks/compare.md");
    await this.switchNotebook("compare", "compare.md", text, bundledNotebookFolders().compare, marked).catch(
      (e: Error) => this.runs.fail(`could not open compare: ${e.message}`),
    );
  }

  /** Opens a notebook with exactly its own runs: the session is replaced unless it holds just those already. */
  private async switchNotebook(
    name: string,
    path: string,
    text: string,
    folder: string | undefined,
    override?: { runs: string[] },
  ) {
    this.notebookError = undefined;
    this.file.setRecovered(undefined);
    this.notebookName = name;
    this.notebookPath = path;
    const server = new URLSearchParams(location.search).get("engine") === "server";
    if (server || !this.runs.session) {
      this.notebookText = text;
      this.runs.urlRuns = undefined;
      return this.writeUrl();
    }
    const own = await this.runs.runsOf(text, folder);
    this.runs.ownRuns = own.runs;
    this.runs.missingRuns = override ? [] : own.missing;
    const wanted = override?.runs ?? own.runs;
    if (this.runs.holdsExactly(wanted)) this.runs.showStatus();
    else {
      this.notebookText = undefined;
      await this.runs.replace(wanted);
    }
    this.notebookText = text;
    this.runs.urlRuns = override ? runsToWrite(wanted, own.runs) : undefined;
    this.writeUrl();
  }

  /** The URL says which notebook is open and, unless they are its own, which runs (a reload restores both). */
  private writeUrl() {
    const state = { notebook: this.notebookName, runs: this.runs.urlRuns, marks: this.runs.marks };
    history.replaceState(history.state, "", withUrlState(location.href, state));
  }

  private async saveFile() {
    const nb = this.notebookElement();
    if (nb) await this.file.save(nb, this.notebookPath);
  }

  private async publish() {
    const nb = this.notebookElement();
    if (nb) await this.file.publish(nb, this.notebookPath, this.runs.session?.runs ?? []);
  }

  /** Publish's outcome: the download's name and size, or why there is none. */
  private publishToast() {
    const outcome = this.file.published.value;
    if (!outcome) return nothing;
    return html`<div class="toast publish ${outcome.ok ? "" : "bad"}" role=${outcome.ok ? "status" : "alert"}>
      ${outcome.message}
      <button aria-label="dismiss" @click=${() => this.file.published.clear()}>×</button>
    </div>`;
  }

  private discardRecovered() {
    this.file.discard(this.notebookPath);
    this.notebookText = bundledNotebooks()[this.notebookPath.replace(/\.md$/, "")] ?? this.notebookText;
  }

  private onUrl(e: SubmitEvent) {
    e.preventDefault();
    const input = (e.target as HTMLFormElement).elements.namedItem("url") as HTMLInputElement;
    if (input.value) void this.runs.addUrl(input.value);
    input.value = "";
  }

  override render() {
    const runs = this.runs;
    const session = runs.session;
    const toc = html`<jb-toc
      .headings=${this.headings}
      .target=${this.notebookElement() ?? undefined}
    ></jb-toc>`;
    return html`
      <header>
        <h1><img src="favicon.svg" alt="" />jankbook</h1>
        <jb-notebook-picker .current=${this.notebookPath.replace(/\.md$/, "")}></jb-notebook-picker>
        <span class="status" role="status">${runs.status}</span>
        <span class="actions">
          <button @click=${this.openFile} title="open a notebook (.md)">Open notebook</button>
          <button @click=${this.saveFile} title="save the notebook (.md)">Save</button>
          <button @click=${this.publish} title="download a self-contained HTML report">Publish</button>
        </span>
        <form
          @submit=${this.onUrl}
          title="or drop a run bundle folder (manifest.json + .arrows files) on the page"
        >
          <input
            type="url"
            name="url"
            placeholder="run bundle URL, or drop a folder…"
            aria-label="run bundle URL"
          />
          <button>Open</button>
        </form>
      </header>
      <div class="layout">
        ${this.wideToc() ? toc : nothing}
        <main>
          ${this.wideToc() ? nothing : toc}
          ${
            this.file.recovered
              ? html`<div class="recovered" role="status">
                  Recovered unsaved edits from ${this.file.recovered}.
                  <button @click=${this.discardRecovered}>Discard them</button>
                </div>`
              : nothing
          }
          ${runsSections(runs, this.overview, () => void this.openCompare())}
          ${
            this.notebookError
              ? html`<section id="notebook">
                  <div class="error" role="alert">${this.notebookError}</div>
                </section>`
              : nothing
          }
          ${
            this.notebookText !== undefined && session
              ? html`<section id="notebook">
                  <jb-notebook
                    .engine=${runs.notebookEngine(session)}
                    .text=${this.notebookText}
                    .path=${this.notebookPath}
                    .runsVersion=${runs.runsVersion}
                    .inputs=${runs.markInputs}
                    @headings=${(e: CustomEvent<TocHeading[]>) => (this.headings = e.detail)}
                  ></jb-notebook>
                </section>`
              : nothing
          }
        </main>
      </div>
      ${removalToast(runs)} ${this.publishToast()}
      ${this.drop.dragging ? html`<div class="drop">Drop run bundles to open them</div>` : nothing}
    `;
  }

  private wide = matchMedia("(min-width: 1200px)");
  private wideToc(): boolean {
    if (!this.wideWatched) {
      this.wideWatched = true;
      this.wide.addEventListener("change", () => this.requestUpdate());
    }
    return this.wide.matches;
  }
  private wideWatched = false;
}
customElements.define("jb-app", JbApp);
