// The one run loader, for the browser session and the headless runner alike: one engine, the runs loaded into
// it, and what went wrong loading them. A packed run is attached when the engine can attach its database file,
// else its Arrow files stream in; a run whose run_id is already loaded is refused (docs/scaling.md, "Loading runs").
import { setTimeOrigin } from "../../bundle/time-origins";
import { runOrigin } from "./run-origin";
import { BundleError } from "../../bundle/manifest";
import type { Manifest } from "../../bundle/manifest";
import { prepareBundle, type PreparedBundle } from "../../bundle/prepare-bundle";
import type { BundleSource } from "../../bundle/read-bundle";
import { quoteIdent, type SqlEngine } from "./engine";
import { loadPreparedBundle } from "./load-prepared";
import { RunViews } from "./run-views";

export interface LoadedRun {
  label: string;
  manifest?: Manifest;
  rows: Record<string, number>;
  errors: string[];
  /** how its tables reached DuckDB: its database file attached read-only, or its Arrow files streamed in */
  path?: "attached" | "streamed";
  /** refused as a duplicate: the label of the loaded run with the same run_id (nothing of this one is loaded) */
  duplicateOf?: string;
}

/**
 * The duplicate policy: one run_id, one load. Two copies of a run could differ (one re-collected, one edited), and
 * silently keeping either hides which one the notebook read; so the second is refused and both places are named.
 */
export function duplicateRunError(label: string, runId: string, loadedFrom: string): BundleError {
  return new BundleError(
    label,
    `run ${runId} is already loaded from ${loadedFrom}; not loaded again (remove that one first to load this copy)`,
  );
}

/** What a RunLoader dispatches, so a listener reads `e.detail` typed. */
export interface RunLoaderEventMap {
  /** a run's frames and UI events are in DuckDB (its run id); the rest of its tables may not be yet */
  "overview-ready": CustomEvent<string>;
  /** a big table's rows so far, so a long load shows it is moving */
  progress: CustomEvent<{ run: string; table: string; rows: number }>;
  /** a run was added (loaded or failed) or removed */
  change: Event;
}

type Listener<K extends keyof RunLoaderEventMap> = (e: RunLoaderEventMap[K]) => void;

export class RunLoader extends EventTarget {
  runs: LoadedRun[] = [];
  private readonly views: RunViews;

  constructor(readonly engine: SqlEngine) {
    super();
    this.views = new RunViews(engine);
  }

  override addEventListener<K extends keyof RunLoaderEventMap>(type: K, listener: Listener<K>) {
    super.addEventListener(type, listener as EventListener);
  }

  override removeEventListener<K extends keyof RunLoaderEventMap>(type: K, listener: Listener<K>) {
    super.removeEventListener(type, listener as EventListener);
  }

  /**
   * Loads bundles: all start downloading at once; each table goes into DuckDB chunk by chunk as it arrives,
   * run after run. "overview-ready"
   * fires once a run's frames and UI events are in, so the first chart need not wait for the rest; "change"
   * after each run. A bundle that fails entirely is listed with its error, never thrown.
   */
  async load(
    sources: readonly BundleSource[],
    started?: readonly Promise<PreparedBundle>[],
  ): Promise<LoadedRun[]> {
    // `started`: downloads already under way for these sources (begun while the engine was starting).
    // Attach only where the engine can (every DuckDB here can; a remote engine cannot): else the run streams.
    const attach = this.engine.registerDatabaseFile !== undefined;
    const reads = sources.map((source, i) =>
      (started?.[i] ?? prepareBundle(source, { attach })).then(
        (bundle) => ({ bundle }),
        (error: Error) => ({ error }),
      ),
    );
    const added: LoadedRun[] = [];
    for (let i = 0; i < sources.length; i++) {
      const run: LoadedRun = { label: sources[i]!.label, rows: {}, errors: [] };
      try {
        const read = await reads[i]!;
        if ("error" in read) throw read.error;
        let bundle = read.bundle;
        const first = this.runs.find((r) => r.manifest?.run_id === bundle.manifest.run_id);
        if (first) {
          bundle.cancel();
          run.duplicateOf = first.label;
          throw duplicateRunError(run.label, bundle.manifest.run_id, first.label);
        }
        run.manifest = bundle.manifest;
        if (bundle.database) {
          try {
            const report = await this.views.attach(
              bundle.manifest.run_id,
              run.label,
              bundle.database,
              bundle.manifest.database!,
              bundle.manifest,
            );
            for (const t of report.tables) run.rows[t.name] = t.rows;
            run.errors.push(...report.errors);
            run.path = "attached";
            if (report.tables.some((t) => t.name === "frames"))
              this.dispatchEvent(new CustomEvent("overview-ready", { detail: bundle.manifest.run_id }));
            continue;
          } catch (e) {
            // A database file that will not attach (damaged, or too new for this DuckDB): the Arrow files still load.
            run.errors.push(
              `${run.label}/${bundle.manifest.database!.file}: could not attach (${(e as Error).message}); streamed the Arrow files instead`,
            );
            bundle = await prepareBundle(sources[i]!);
          }
        }
        run.path = "streamed";
        // "overview-ready": this run's frames and UI events are in DuckDB (they go first), the rest may not be yet.
        let announced = false;
        const hasFrames = bundle.tables.some((t) => t.name === "frames");
        const report = await loadPreparedBundle(
          this.engine,
          bundle,
          (name, remaining) => {
            if (announced || !hasFrames || remaining.includes("frames") || remaining.includes("ui_events"))
              return;
            announced = true;
            this.dispatchEvent(new CustomEvent("overview-ready", { detail: bundle.manifest.run_id }));
          },
          // "progress": a big table's rows so far, so a long load shows it is moving
          (table, rows) =>
            this.dispatchEvent(new CustomEvent("progress", { detail: { run: run.label, table, rows } })),
          (table) => this.views.streamTarget(table),
        );
        await this.views.streamed(report.tables.map((t) => t.name));
        for (const t of report.tables) run.rows[t.name] = t.rows;
        run.errors.push(...report.errors);
      } catch (e) {
        run.errors.push((e as Error).message);
      } finally {
        // the run's start, for tables that show its moments from it; never a reason for a load to fail
        const id = run.manifest?.run_id;
        if (id !== undefined && !run.duplicateOf)
          setTimeOrigin(
            id,
            await runOrigin(
              this.engine,
              id,
              Object.keys(run.rows).filter((t) => (run.rows[t] ?? 0) > 0),
            ).catch(() => null),
          );
        added.push(run);
        this.runs = [...this.runs, run];
        this.dispatchEvent(new Event("change"));
      }
    }
    return added;
  }

  /**
   * Removes a run: its rows leave every table it loaded rows into (an attached run's database is detached), it
   * leaves `runs` and "change" fires. Other runs' rows stay. A run that failed to load is just dropped from the
   * list. Returns the removed run; undefined when no run has this label, or when some of its rows could not be
   * deleted (the run then stays listed, those failures among its errors).
   */
  async remove(label: string): Promise<LoadedRun | undefined> {
    // The latest of that label: a failed duplicate (same URL loaded twice) goes before the run it repeats.
    const run = this.runs.findLast((r) => r.label === label);
    if (!run) return undefined;
    const id = run.manifest?.run_id;
    const problems: string[] = [];
    if (id !== undefined && run.path === "attached") await this.views.detach(id);
    else if (id !== undefined)
      for (const table of Object.keys(run.rows)) {
        // The rows streamed in: the table itself, or its streamed part once an attached run took its name.
        const target = quoteIdent(this.views.streamTarget(table));
        await this.engine
          .query(`DELETE FROM ${target} WHERE run_id = $1`, [id])
          .catch((e: Error) => problems.push(`${label}: could not remove its ${table} rows: ${e.message}`));
      }
    // Rows that would not go stay listed under the run with why, rather than lingering unseen.
    if (problems.length) run.errors.push(...problems);
    else {
      this.runs = this.runs.filter((r) => r !== run);
      if (id !== undefined && !run.duplicateOf) setTimeOrigin(id, null);
    }
    this.dispatchEvent(new Event("change"));
    return problems.length ? undefined : run;
  }

  hasTable(name: string): boolean {
    return this.runs.some((r) => (r.rows[name] ?? 0) > 0);
  }
}
