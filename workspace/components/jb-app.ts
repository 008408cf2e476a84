// <jb-app>: the workspace shell. Opens run bundles (the notebook's runs, beside it or among the samples;
// ?runs=URL,...; or a drop), registers them in DuckDB and shows the run overview with its first chart.
// State you can trust: the notebook's front matter decides the runs (opening another notebook
// replaces them), the URL holds the notebook and the runs (history.replaceState), adding runs re-runs the cells
// that read tables, and every failure says what was not found and where. Runs marked baseline and candidate (kept in
// the URL) open in notebooks/compare.md as its two sides, and are the starting values of any notebook's inputs
// named `baseline` and `candidate`.
import { LitElement, html, nothing } from "lit";
import { toastStyles } from "./toast-styles";
import { appStyles } from "./jb-app-styles";
import { NotebookFileController } from "./notebook-file-controller";
import { OverviewChartController } from "./overview-chart-controller";
import { ToastController } from "./toast-controller";
import { droppedSources, notServed, urlSource } from "../../bundle/browser-sources";
import { prepareBundle } from "../../bundle/prepare-bundle";
import { filesFromDrop } from "../app/dropped-files";
import { removeRun, type RunRemoval } from "../app/remove-run";
import { runsStatus } from "../app/runs-status";
import { Session } from "../app/session";
import { createBrowserEngine } from "../db/duckdb-browser";
import { listTables, tableExists, type SqlEngine, type TableInfo } from "../db/engine";
import { RemoteHttpEngine, serverEngineInfo } from "../db/remote-http-engine";
import { loadDraft } from "../app/autosave";
import { bundledNotebookFolders, bundledNotebooks, runsForNotebook } from "../app/notebook-sources";
import {
  bundledName,
  openedNotebook,
  rememberOpened,
  resolveNotebook,
  type ResolvedNotebook,
} from "../app/notebook-resolve";
import {
  markRun,
  marksParam,
  runsParam,
  runsToWrite,
  withUrlState,
  type RunMarks,
  type Side,
} from "../app/url-state";
import { explainLoadFailures } from "../notebook/load-failures";
import type { JbNotebook } from "./jb-notebook";
import "./jb-notebook-picker";
import "./jb-plot";
import "./jb-run-overview";
import "./jb-schema";
import "./jb-toc";
import type { TocHeading } from "./jb-toc";

export class JbApp extends LitElement {
  static override properties = {
    session: { attribute: false },
    status: { state: true },
    dragging: { state: true },
    notebookText: { state: true },
    notebookPath: { state: true },
    tables: { state: true },
    loading: { state: true },
    notebookError: { state: true },
    runsVersion: { state: true },
    dropped: { state: true },
    headings: { state: true },
    marks: { state: true },
  };
  /** runs (by run id) marked as the baseline and the candidate of a comparison */
  declare marks: RunMarks;
  /** the marks as the open notebook's `baseline` and `candidate` inputs (a new object only when they change) */
  private markInputs: Record<string, unknown> | undefined;
  /** the last run removed: its toast, with Undo when it came from a URL */
  private readonly removal = new ToastController<RunRemoval>(this);
  private readonly overview = new OverviewChartController(this);
  private readonly file = new NotebookFileController(this);
  /** the notebook's headings, for the table of contents (jb-notebook's "headings" event) */
  declare headings: TocHeading[];
  /** while runs load: how many, and how many are in */
  declare loading: { total: number; done: number } | undefined;
  /** why the notebook named in the URL could not be opened */
  declare notebookError: string | undefined;
  /** bumped when runs are added after the notebook opened: its cells that read tables re-run */
  declare runsVersion: number;
  /** runs added by a drop: they have no URL, so a reload cannot bring them back */
  declare dropped: number;
  /** `?notebook=` of the open notebook */
  private notebookName?: string;
  /** the URLs of the open notebook's own runs (what its front matter names) */
  private ownRuns: string[] = [];
  /** runs the notebook names that were found neither beside it nor among the samples */
  private missingRuns: string[] = [];
  /** labels of the runs that came from a URL, so the URL can list them */
  private urlLabels = new Set<string>();
  private runLists?: Promise<[string[], string[]]>;
  declare notebookText: string | undefined;
  declare notebookPath: string;
  declare tables: TableInfo[];
  declare session: Session | undefined;
  declare status: string;
  declare dragging: boolean;

  constructor() {
    super();
    this.status = "starting DuckDB…";
    this.dragging = false;
    this.notebookPath = "triage.md";
    this.tables = [];
    this.runsVersion = 0;
    this.dropped = 0;
    this.headings = [];
    this.marks = marksParam(location.search);
    this.markInputs = this.inputsOf(this.marks);
  }

  private inputsOf(marks: RunMarks): Record<string, unknown> | undefined {
    const given = Object.entries(marks).filter(([, runs]) => (runs as string[]).length > 0);
    return given.length ? Object.fromEntries(given) : undefined;
  }

  private onMarkRun(e: CustomEvent<{ run: string; side: Side | null }>) {
    this.marks = markRun(this.marks, e.detail.run, e.detail.side);
    this.markInputs = this.inputsOf(this.marks);
    this.writeUrl(this.urlRuns);
  }

  /** "Open compare": notebooks/compare.md with exactly the marked runs loaded, baseline and candidate as its sides. */
  private async openCompare() {
    const runs = this.session?.runs ?? [];
    const marked = [...this.marks.baseline, ...this.marks.candidate];
    const picked = marked.map((id) => runs.find((r) => r.manifest?.run_id === id));
    const gone = marked.filter((_, i) => !picked[i]);
    if (gone.length) {
      this.status = `cannot open compare: ${gone.join(", ")} ${gone.length === 1 ? "is" : "are"} marked but not loaded (open ${gone.length === 1 ? "it" : "them"}, or unmark ${gone.length === 1 ? "it" : "them"})`;
      return;
    }
    const noUrl = marked.filter((_, i) => !this.urlLabels.has(picked[i]!.label));
    if (noUrl.length) {
      this.status = `cannot open compare: ${noUrl.join(", ")} ${noUrl.length === 1 ? "was" : "were"} dropped, not opened from a URL (the compare notebook loads its runs by URL); unmark ${noUrl.length === 1 ? "it" : "them"} or open ${noUrl.length === 1 ? "it" : "them"} by URL`;
      return;
    }
    const text = bundledNotebooks().compare;
    if (text === undefined) {
      this.status = "cannot open compare: the workspace was built without notebooks/compare.md";
      return;
    }
    await this.switchNotebook("compare", "compare.md", text, bundledNotebookFolders().compare, {
      runs: picked.map((r) => `${r!.label}/`),
    }).catch((e: Error) => {
      this.loading = undefined;
      this.status = `could not open compare: ${e.message}`;
    });
  }

  static override styles = [toastStyles, appStyles];

  override connectedCallback() {
    super.connectedCallback();
    this.addEventListener("dragover", (e) => {
      e.preventDefault();
      this.dragging = true;
    });
    this.addEventListener("dragleave", () => (this.dragging = false));
    this.addEventListener("drop", (e) => void this.onDrop(e));
    // The notebook (CodeMirror, the runtime, every cell) is its own chunk, fetched while DuckDB starts, so
    // the page's first script is short: no long main-thread task before the first chart (docs/budgets.md).
    void import("./jb-notebook");
    void this.start();
  }

  private async start() {
    try {
      const params = new URLSearchParams(location.search);
      // ?engine=server (the URL `jankbook serve` prints): the server's native DuckDB holds the runs and the lake.
      const server = params.get("engine") === "server";
      // DuckDB's 34 MB wasm compiles while the notebook is read and the bundles are fetched and decoded.
      const engineReady: Promise<SqlEngine> = server
        ? Promise.resolve(new RemoteHttpEngine(location.origin))
        : createBrowserEngine();
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
      const own = server ? { runs: [], missing: [] } : await this.runsOf(text, notebook?.folder, !!name);
      this.ownRuns = own.runs;
      const listed = server ? undefined : runsParam(location.search);
      this.missingRuns = listed ? [] : own.missing;
      const sources = this.urlSources(listed ?? own.runs);
      this.loading = { total: sources.length, done: 0 };
      performance.mark("jb:load-start"); // the frames load benchmark counts long tasks from here
      const reads = sources.map((source) => prepareBundle(source, { attach: true }));
      for (const r of reads) r.catch(() => undefined); // reported per run by Session.load
      this.session = new Session(await engineReady);
      if (performance.getEntriesByName("jb:engine-ready").length === 0) performance.mark("jb:engine-ready");
      this.session.addEventListener("change", () => this.requestUpdate());
      if (server) await this.openServer();
      else await this.open(sources, reads);
      this.notebookText = text;
    } catch (e) {
      this.loading = undefined;
      this.status = `could not start: ${(e as Error).message}`;
    }
  }

  /**
   * The run URLs a notebook's front matter names (all samples when it names none), by the rule in runs.ts.
   * `named`: a notebook was asked for; when it could not be opened (no text), it names no runs at all.
   */
  private async runsOf(
    text: string | undefined,
    folder: string | undefined,
    named = true,
  ): Promise<{ runs: string[]; missing: string[] }> {
    if (text === undefined && named) return { runs: [], missing: [] };
    this.runLists ??= Promise.all([this.jsonList("samples/index.json"), this.jsonList("notebook-runs.json")]);
    const [available, beside] = await this.runLists;
    return text
      ? runsForNotebook(text, available, { folder: folder ?? "", runs: folder === undefined ? [] : beside })
      : { runs: available.map((r) => `samples/${r}/`), missing: [] };
  }

  /** samples/index.json, or notebook-runs.json (the runs beside notebooks: workspace/node/notebook-runs-plugin.ts) */
  private async jsonList(url: string): Promise<string[]> {
    const response = await fetch(url).catch(() => undefined);
    // Absent (or a dev server's HTML fallback page in its place): no such runs.
    if (!response || notServed(response, url) !== undefined) return [];
    const list = (await response.json().catch(() => [])) as unknown;
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === "string") : [];
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
    await this.switchNotebook(file.name, file.name, file.text, folder).catch((e: Error) => {
      this.loading = undefined;
      this.status = `could not open ${file.name}: ${e.message}`;
    });
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
    if (server || !this.session) {
      this.notebookText = text;
      this.writeUrl(undefined);
      return;
    }
    const own = await this.runsOf(text, folder);
    this.ownRuns = own.runs;
    this.missingRuns = override ? [] : own.missing;
    const wanted = override?.runs ?? own.runs;
    const loaded = this.session.runs.map((r) => `${r.label}/`);
    const keep =
      this.dropped === 0 &&
      this.session.runs.every((r) => r.manifest) &&
      runsToWrite(loaded, wanted) === undefined;
    if (keep) {
      this.status = runsStatus(this.session.runs, this.missingRuns);
      this.notebookText = text;
    } else {
      // A fresh engine: DuckDB-WASM never gives memory back, and nothing of the old runs can linger in a view.
      this.notebookText = undefined;
      const old = this.session;
      this.session = undefined;
      this.urlLabels.clear();
      this.dropped = 0;
      this.overview.clear();
      this.status = "starting DuckDB…";
      void old.engine.close().catch(() => undefined);
      this.session = new Session(await createBrowserEngine());
      this.session.addEventListener("change", () => this.requestUpdate());
      await this.open(this.urlSources(wanted));
      this.notebookText = text;
    }
    this.writeUrl(override ? runsToWrite(wanted, own.runs) : undefined);
  }

  /** Sources for run URLs, remembered as such: the page's URL can name them. */
  private urlSources(urls: readonly string[]) {
    const sources = urls.map((u) => urlSource(u));
    for (const s of sources) this.urlLabels.add(s.label);
    return sources;
  }

  /** The URL says which notebook is open and, unless they are its own, which runs (a reload restores both). */
  private writeUrl(runs: readonly string[] | undefined) {
    this.urlRuns = runs;
    history.replaceState(
      history.state,
      "",
      withUrlState(location.href, { notebook: this.notebookName, runs, marks: this.marks }),
    );
  }

  /** the `runs=` last written (undefined: the notebook's own) */
  private urlRuns: readonly string[] | undefined = runsParam(location.search);

  /** After runs were added: the URL lists every run loaded from a URL, unless they are the notebook's own. */
  private writeRunsToUrl() {
    const loaded = (this.session?.runs ?? [])
      .filter((r) => r.manifest && this.urlLabels.has(r.label))
      .map((r) => `${r.label}/`);
    this.writeUrl(runsToWrite(loaded, this.ownRuns));
  }

  private async saveFile() {
    const nb = this.notebookElement();
    if (nb) await this.file.save(nb, this.notebookPath);
  }

  private explaining = new WeakMap<Session, SqlEngine>();

  /** The session's engine for cells: a query on a table that failed to load shows why, not "no such table". */
  private notebookEngine(session: Session): SqlEngine {
    let engine = this.explaining.get(session);
    if (!engine) {
      engine = explainLoadFailures(session.engine, () =>
        session.runs.map((r) => ({
          run_id: r.manifest?.run_id ?? r.label,
          dir: r.label,
          errors: r.errors,
          failed: !r.manifest && r.errors.length > 0,
        })),
      );
      this.explaining.set(session, engine);
    }
    return engine;
  }

  private async publish() {
    const nb = this.notebookElement();
    if (nb) await this.file.publish(nb, this.notebookPath, this.session?.runs ?? []);
  }

  private discardRecovered() {
    this.file.discard(this.notebookPath);
    this.notebookText = bundledNotebooks()[this.notebookPath.replace(/\.md$/, "")] ?? this.notebookText;
  }

  private async open(sources: Parameters<Session["load"]>[0], reads?: Parameters<Session["load"]>[1]) {
    if (!this.session) return;
    const before = this.session.runs.length;
    this.loading = { total: sources.length, done: 0 };
    this.status = `loading ${sources.length} run${sources.length === 1 ? "" : "s"}…`;
    const loading = this.status;
    const onChange = () => {
      if (!this.loading) return;
      this.loading = { ...this.loading, done: this.session!.runs.length - before };
      this.status = `${loading} (${this.loading.done} of ${this.loading.total} in)`;
    };
    this.session.addEventListener("change", onChange);
    // The chart appears with the first run that has frames, and is redrawn once every run is in.
    let early: Promise<void> | undefined;
    const onRun = () => {
      if (early) return;
      performance.mark("jb:overview-ready"); // the first run's overview tables are in DuckDB
      early = this.refreshChart(true);
    };
    const onProgress = (e: Event) => {
      const { table, rows } = (e as CustomEvent<{ table: string; rows: number }>).detail;
      if (rows >= 1_000_000) this.status = `${loading} ${table}: ${rows.toLocaleString("en")} rows`;
    };
    this.session.addEventListener("overview-ready", onRun);
    this.session.addEventListener("progress", onProgress);
    await this.session.load(sources, reads);
    this.session.removeEventListener("progress", onProgress);
    this.session.removeEventListener("change", onChange);
    // The frames load benchmark reads this mark: every table of every run is in DuckDB.
    if (performance.getEntriesByName("jb:runs-loaded").length === 0) performance.mark("jb:runs-loaded");
    this.session.removeEventListener("overview-ready", onRun);
    await early;
    this.loading = undefined;
    await this.showRuns(this.session);
  }

  /** The status line, the overview chart and the table list, from the runs now in the session. */
  private async showRuns(session: Session) {
    await this.refreshChart();
    // "N runs loaded" comes with the final chart, not before its redraw (a reader, or a test, may act on it)
    this.status = runsStatus(session.runs, this.missingRuns);
    this.tables = await listTables(session.engine).catch(() => []);
  }

  /** After runs were added or removed: the notebook's cells that read tables re-run, the URL follows. */
  private runsChanged() {
    this.runsVersion++;
    this.writeRunsToUrl();
  }

  /** Runs added after the notebook opened (drop, URL). */
  private async add(sources: Parameters<Session["load"]>[0]) {
    this.removal.clear();
    await this.open(sources);
    this.runsChanged();
  }

  /** A run's remove button: as after an add, the cells that read tables re-run and the URL, status, chart follow. */
  private async onRemoveRun(e: CustomEvent<string>) {
    const session = this.session;
    if (!session) return;
    // A run is removed only between loads: Session.load is still adding rows and listing runs.
    if (this.loading) {
      this.removal.show({
        message: `${e.detail} stays: runs are still loading, remove it once they are in`,
        dropped: false,
      });
      return;
    }
    const id = session.runs.find((r) => r.label === e.detail)?.manifest?.run_id;
    const removal = await removeRun(session, e.detail, this.urlLabels.has(e.detail));
    if (!removal) return;
    // a removed run is no side of a comparison any more
    if (id !== undefined) this.marks = markRun(this.marks, id, null);
    this.markInputs = this.inputsOf(this.marks);
    if (removal.dropped) this.dropped = Math.max(0, this.dropped - 1);
    this.removal.show(removal);
    this.runsChanged();
    await this.showRuns(session);
  }

  private undoRemoval(url: string) {
    this.removal.clear();
    void this.add(this.urlSources([url]));
  }

  /** Under `jankbook serve`: the runs are the server's; the chart and the tables come from its engine. */
  private async openServer() {
    const engine = this.session!.engine;
    const info = await serverEngineInfo(location.href);
    if (!info) throw new Error(`the jankbook serve at ${location.origin} is not answering`);
    const runs = (info.runs as unknown[]).length;
    const lake = (info.lake as string[]).length ? `, lake: ${(info.lake as string[]).join(", ")}` : "";
    this.status = `engine: jankbook serve at ${location.origin} (native DuckDB, ${runs} run${runs === 1 ? "" : "s"}${lake})`;
    if (await tableExists(engine, "frames")) await this.refreshChart(true);
    this.tables = await listTables(engine).catch(() => []);
  }

  private refreshChart(overviewReady = false) {
    return this.overview.refresh(this.session, overviewReady);
  }

  private async onDrop(e: DragEvent) {
    e.preventDefault();
    this.dragging = false;
    if (!e.dataTransfer) return;
    const sources = droppedSources(await filesFromDrop(e.dataTransfer));
    if (sources.length === 0) {
      this.status = "dropped files hold no manifest.json: drop a run bundle folder";
      return;
    }
    this.dropped += sources.length;
    await this.add(sources);
  }

  private onUrl(e: SubmitEvent) {
    e.preventDefault();
    const input = (e.target as HTMLFormElement).elements.namedItem("url") as HTMLInputElement;
    if (input.value) void this.add(this.urlSources([input.value]));
    input.value = "";
  }

  override render() {
    const runs = this.session?.runs ?? [];
    const toc = html`<jb-toc
      .headings=${this.headings}
      .target=${this.notebookElement() ?? undefined}
    ></jb-toc>`;
    return html`
      <header>
        <h1><img src="favicon.svg" alt="" />jankbook</h1>
        <jb-notebook-picker .current=${this.notebookPath.replace(/\.md$/, "")}></jb-notebook-picker>
        <span class="status" role="status">${this.status}</span>
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
          <section id="overview" aria-label="runs" @remove-run=${this.onRemoveRun}>
            <jb-run-overview
              .runs=${runs}
              .engine=${this.session?.engine}
              .marks=${this.marks}
              @mark-run=${this.onMarkRun}
              @open-compare=${() => void this.openCompare()}
            ></jb-run-overview>
            ${
              this.dropped
                ? html`<p class="hint dropped" role="note">
                    ${this.dropped} dropped run${this.dropped === 1 ? " is" : "s are"} not in the page's URL:
                    a reload will not bring ${this.dropped === 1 ? "it" : "them"} back (runs added by URL
                    stay).
                  </p>`
                : nothing
            }
          </section>
          <section id="frames">
            <h2>Frames</h2>
            ${this.overview.error ? html`<div class="error">${this.overview.error}</div>` : nothing}
            ${
              this.overview.chart
                ? html`<jb-plot .options=${this.overview.chart}></jb-plot>`
                : this.loading
                  ? html`<p class="hint loading" role="status">
                      loading ${this.loading.total} run${this.loading.total === 1 ? "" : "s"}…
                      (${this.loading.done} of ${this.loading.total} in)
                    </p>`
                  : html`<p class="hint">No frames loaded.</p>`
            }
          </section>
          <details id="schema">
            <summary>Tables</summary>
            <jb-schema .tables=${this.tables}></jb-schema>
          </details>
          ${
            this.notebookError
              ? html`<section id="notebook">
                  <div class="error" role="alert">${this.notebookError}</div>
                </section>`
              : nothing
          }
          ${
            this.notebookText !== undefined && this.session
              ? html`<section id="notebook">
                  <jb-notebook
                    .engine=${this.notebookEngine(this.session)}
                    .text=${this.notebookText}
                    .path=${this.notebookPath}
                    .runsVersion=${this.runsVersion}
                    .inputs=${this.markInputs}
                    @headings=${(e: CustomEvent<TocHeading[]>) => (this.headings = e.detail)}
                  ></jb-notebook>
                </section>`
              : nothing
          }
        </main>
      </div>
      ${
        this.removal.value
          ? html`<div class="toast" role="status">
              ${this.removal.value.message}
              ${this.removal.value.undo ? html`<button @click=${() => this.undoRemoval(this.removal.value!.undo!)}>Undo</button>` : nothing}
              <button aria-label="dismiss" @click=${() => this.removal.clear()}>×</button>
            </div>`
          : nothing
      }
      ${this.dragging ? html`<div class="drop">Drop run bundles to open them</div>` : nothing}
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
