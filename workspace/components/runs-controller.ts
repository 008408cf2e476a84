// <jb-app>'s runs, as a Lit ReactiveController: the session (one engine and the runs loaded into it), the load
// under way and the status line that follows it, the runs added by URL or drop and removed from the runs table
// (with the removal's toast and Undo), the baseline and candidate marks, and the table list. Any change of runs
// bumps `runsVersion` (the notebook's cells that read tables re-run) and the URL's runs follow.
import type { ReactiveController, ReactiveControllerHost } from "lit";
import { notServed, urlSource } from "../../bundle/browser-sources";
import type { BundleSource } from "../../bundle/read-bundle";
import type { PreparedBundle } from "../../bundle/prepare-bundle";
import { runsForNotebook } from "../app/notebook-sources";
import { removeRun, type RunRemoval } from "../app/remove-run";
import { runsStatus } from "../app/runs-status";
import { Session } from "../app/session";
import { markRun, marksParam, runsParam, runsToWrite, type RunMarks, type Side } from "../app/url-state";
import { listTables, tableExists, type SqlEngine, type TableInfo } from "../db/engine";
import { serverEngineInfo } from "../db/remote-http-engine";
import { explainLoadFailures } from "../notebook/load-failures";
import type { OverviewChartController } from "./overview-chart-controller";
import { ToastController } from "./toast-controller";

export interface RunsOptions {
  /** the overview chart, redrawn as runs come and go */
  overview: OverviewChartController;
  /** the engine a fresh session opens */
  createEngine: () => Promise<SqlEngine>;
  /** the runs or marks the page's URL lists changed (`urlRuns`, `marks`) */
  urlChanged: () => void;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export class RunsController implements ReactiveController {
  session: Session | undefined;
  /** the status line: the load under way, the runs loaded, or what could not be done */
  status = "starting DuckDB…";
  /** while runs load: how many, and how many are in */
  loading: { total: number; done: number } | undefined;
  /** the engine's tables, for the table list */
  tables: TableInfo[] = [];
  /** under `jankbook serve`: the runs the server loaded (the page loads none itself) */
  served: { run_id: string; dir: string; errors: string[] }[] | undefined;
  /** bumped when runs are added or removed after the notebook opened: its cells that read tables re-run */
  runsVersion = 0;
  /** runs added by a drop: they have no URL, so a reload cannot bring them back */
  dropped = 0;
  /** runs (by run id) marked as the baseline and the candidate of a comparison */
  marks: RunMarks = marksParam(location.search);
  /** the marks as the notebook's `baseline` and `candidate` inputs (a new object only when they change) */
  markInputs = inputsOf(this.marks);
  /** the `runs=` the URL lists (undefined: the notebook's own) */
  urlRuns: readonly string[] | undefined = runsParam(location.search);
  /** the URLs of the open notebook's own runs (what its front matter names) */
  ownRuns: string[] = [];
  /** runs the notebook names that were found neither beside it nor among the samples */
  missingRuns: string[] = [];
  /** the last run removed: its toast, with Undo when it came from a URL */
  readonly removal: ToastController<RunRemoval>;
  /** labels of the runs that came from a URL, so the URL can list them */
  private readonly urlLabels = new Set<string>();
  private runLists?: Promise<[string[], string[]]>;
  private explaining = new WeakMap<Session, SqlEngine>();

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: RunsOptions,
  ) {
    host.addController(this);
    this.removal = new ToastController<RunRemoval>(host);
  }

  hostConnected() {}

  /** Shows `status` on the status line. */
  say(status: string) {
    this.status = status;
    this.host.requestUpdate();
  }

  /** `count` runs are on their way (fetched while the engine starts): the page says so before they load. */
  expect(count: number) {
    this.loading = { total: count, done: 0 };
    this.host.requestUpdate();
  }

  /** Something failed (starting, opening a notebook): no load is under way any more, the status says what. */
  fail(status: string) {
    this.loading = undefined;
    this.say(status);
  }

  /** A session on `engine`, with no runs yet. */
  begin(engine: SqlEngine) {
    this.session = new Session(engine);
    this.session.addEventListener("change", () => this.host.requestUpdate());
  }

  /** Sources for run URLs, remembered as such: the page's URL can name them. */
  urlSources(urls: readonly string[]): BundleSource[] {
    const sources = urls.map((u) => urlSource(u));
    for (const s of sources) this.urlLabels.add(s.label);
    return sources;
  }

  /**
   * The run URLs a notebook's front matter names (all samples when it names none), by the rule in runs.ts.
   * `named`: a notebook was asked for; when it could not be opened (no text), it names no runs at all.
   */
  async runsOf(text: string | undefined, folder: string | undefined, named = true) {
    if (text === undefined && named) return { runs: [], missing: [] };
    this.runLists ??= Promise.all([jsonList("samples/index.json"), jsonList("notebook-runs.json")]);
    const [available, beside] = await this.runLists;
    return text
      ? runsForNotebook(text, available, { folder: folder ?? "", runs: folder === undefined ? [] : beside })
      : { runs: available.map((r) => `samples/${r}/`), missing: [] };
  }

  /** Does the session hold exactly the runs at `urls`, each loaded, none dropped? Then a notebook can keep it. */
  holdsExactly(urls: readonly string[]): boolean {
    const runs = this.session?.runs ?? [];
    const loaded = runs.map((r) => `${r.label}/`);
    return this.dropped === 0 && runs.every((r) => r.manifest) && runsToWrite(loaded, urls) === undefined;
  }

  /** A fresh engine with the runs at `urls`: DuckDB-WASM never gives memory back, and no old run lingers in a view. */
  async replace(urls: readonly string[]) {
    const old = this.session;
    this.session = undefined;
    this.urlLabels.clear();
    this.dropped = 0;
    this.options.overview.clear();
    this.say("starting DuckDB…");
    void old?.engine.close().catch(() => undefined);
    this.begin(await this.options.createEngine());
    await this.load(this.urlSources(urls));
  }

  /** Loads runs into the session; the status counts them in, the chart appears with the first run's frames. */
  async load(sources: readonly BundleSource[], reads?: readonly Promise<PreparedBundle>[]) {
    const session = this.session;
    if (!session) return;
    const before = session.runs.length;
    this.loading = { total: sources.length, done: 0 };
    const loading = `loading ${plural(sources.length, "run")}…`;
    this.say(loading);
    const onChange = () => {
      if (!this.loading) return;
      this.loading = { ...this.loading, done: session.runs.length - before };
      this.status = `${loading} (${this.loading.done} of ${this.loading.total} in)`;
    };
    // The chart appears with the first run that has frames, and is redrawn once every run is in.
    let early: Promise<void> | undefined;
    const onRun = () => {
      if (early) return;
      performance.mark("jb:overview-ready"); // the first run's overview tables are in DuckDB
      early = this.options.overview.refresh(session, true);
    };
    const onProgress = (e: CustomEvent<{ table: string; rows: number }>) => {
      const { table, rows } = e.detail;
      if (rows >= 1_000_000) this.say(`${loading} ${table}: ${rows.toLocaleString("en")} rows`);
    };
    session.addEventListener("change", onChange);
    session.addEventListener("overview-ready", onRun);
    session.addEventListener("progress", onProgress);
    await session.load(sources, reads);
    session.removeEventListener("progress", onProgress);
    session.removeEventListener("change", onChange);
    // The frames load benchmark reads this mark: every table of every run is in DuckDB.
    if (performance.getEntriesByName("jb:runs-loaded").length === 0) performance.mark("jb:runs-loaded");
    session.removeEventListener("overview-ready", onRun);
    await early;
    this.loading = undefined;
    await this.show(session);
  }

  /** The status line, the overview chart and the table list, from the runs now in the session. */
  private async show(session: Session) {
    await this.options.overview.refresh(session);
    // "N runs loaded" comes with the final chart, not before its redraw (a reader, or a test, may act on it)
    this.say(runsStatus(session.runs, this.missingRuns));
    this.tables = await listTables(session.engine).catch(() => []);
    this.host.requestUpdate();
  }

  /** The status line for the runs in the session, as after a load. */
  showStatus() {
    this.say(runsStatus(this.session?.runs ?? [], this.missingRuns));
  }

  /** Runs added after the notebook opened (URL, Undo): the cells that read tables re-run, the URL follows. */
  async add(sources: readonly BundleSource[]) {
    this.removal.clear();
    await this.load(sources);
    this.changed();
  }

  async addUrl(url: string) {
    await this.add(this.urlSources([url]));
  }

  /** Runs dropped on the page: counted, since the URL cannot name them. */
  async addDropped(sources: readonly BundleSource[]) {
    if (sources.length === 0)
      return this.say("dropped files hold no manifest.json: drop a run bundle folder");
    this.dropped += sources.length;
    await this.add(sources);
  }

  /** A run's remove button: as after an add, the cells that read tables re-run and the URL, status, chart follow. */
  async remove(label: string) {
    const session = this.session;
    if (!session) return;
    // A run is removed only between loads: Session.load is still adding rows and listing runs.
    if (this.loading)
      return this.removal.show({
        message: `${label} stays: runs are still loading, remove it once they are in`,
        dropped: false,
      });
    const id = session.runs.find((r) => r.label === label)?.manifest?.run_id;
    const removal = await removeRun(session, label, this.urlLabels.has(label));
    if (!removal) return;
    // a removed run is no side of a comparison any more
    if (id !== undefined) this.marks = markRun(this.marks, id, null);
    this.markInputs = inputsOf(this.marks);
    if (removal.dropped) this.dropped = Math.max(0, this.dropped - 1);
    this.removal.show(removal);
    this.changed();
    await this.show(session);
  }

  /** The removal toast's Undo: the run comes back from its URL. */
  undoRemoval() {
    const url = this.removal.value?.undo;
    this.removal.clear();
    if (url !== undefined) void this.add(this.urlSources([url]));
  }

  /** Marks a run (by run id) as one side of a comparison, or unmarks it (side null); the URL keeps the marks. */
  mark(run: string, side: Side | null) {
    this.marks = markRun(this.marks, run, side);
    this.markInputs = inputsOf(this.marks);
    this.host.requestUpdate();
    this.options.urlChanged();
  }

  /** The marked runs' URLs, baseline first, for the compare notebook; or why they cannot be compared. */
  compareRuns(): { runs: string[] } | { error: string } {
    const runs = this.session?.runs ?? [];
    const marked = [...this.marks.baseline, ...this.marks.candidate];
    const picked = marked.map((id) => runs.find((r) => r.manifest?.run_id === id));
    const them = (n: number) => (n === 1 ? "it" : "them");
    const gone = marked.filter((_, i) => !picked[i]);
    if (gone.length)
      return {
        error: `${gone.join(", ")} ${gone.length === 1 ? "is" : "are"} marked but not loaded (open ${them(gone.length)}, or unmark ${them(gone.length)})`,
      };
    const noUrl = marked.filter((_, i) => !this.urlLabels.has(picked[i]!.label));
    if (noUrl.length)
      return {
        error: `${noUrl.join(", ")} ${noUrl.length === 1 ? "was" : "were"} dropped, not opened from a URL (the compare notebook loads its runs by URL); unmark ${them(noUrl.length)} or open ${them(noUrl.length)} by URL`,
      };
    return { runs: picked.map((r) => `${r!.label}/`) };
  }

  /** After runs were added or removed: the notebook's cells re-run, the URL lists every run loaded from a URL. */
  private changed() {
    this.runsVersion++;
    const loaded = (this.session?.runs ?? [])
      .filter((r) => r.manifest && this.urlLabels.has(r.label))
      .map((r) => `${r.label}/`);
    this.urlRuns = runsToWrite(loaded, this.ownRuns);
    this.host.requestUpdate();
    this.options.urlChanged();
  }

  /** The session's engine for cells: a query on a table that failed to load shows why, not "no such table". */
  notebookEngine(session: Session): SqlEngine {
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

  /** Under `jankbook serve`: the runs are the server's; the chart and the tables come from its engine. */
  async showServer() {
    const engine = this.session!.engine;
    const info = await serverEngineInfo(location.href);
    if (!info) throw new Error(`the jankbook serve at ${location.origin} is not answering`);
    this.served = info.runs as NonNullable<RunsController["served"]>;
    const runs = this.served.length;
    const lake = (info.lake as string[]).length ? `, lake: ${(info.lake as string[]).join(", ")}` : "";
    this.say(`engine: jankbook serve at ${location.origin} (native DuckDB, ${plural(runs, "run")}${lake})`);
    if (await tableExists(engine, "frames")) await this.options.overview.refresh(this.session, true);
    this.tables = await listTables(engine).catch(() => []);
    this.host.requestUpdate();
  }
}

/** The marks as notebook inputs: only the sides with runs; undefined when none is marked. */
function inputsOf(marks: RunMarks): Record<string, unknown> | undefined {
  const given = Object.entries(marks).filter(([, runs]) => (runs as string[]).length > 0);
  return given.length ? Object.fromEntries(given) : undefined;
}

/** samples/index.json, or notebook-runs.json (the runs beside notebooks: workspace/node/notebook-runs-plugin.ts) */
async function jsonList(url: string): Promise<string[]> {
  const response = await fetch(url).catch(() => undefined);
  // Absent (or a dev server's HTML fallback page in its place): no such runs.
  if (!response || notServed(response, url) !== undefined) return [];
  const list = (await response.json().catch(() => [])) as unknown;
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === "string") : [];
}
