// The workspace session: one engine, the runs loaded into it, and what went wrong loading them.
import { BundleError } from "../../bundle/manifest";
import { readBundle, type BundleSource } from "../../bundle/read-bundle";
import type { Manifest } from "../../bundle/manifest";
import { loadBundleIntoEngine, type SqlEngine } from "../db/engine";

export interface LoadedRun {
  label: string;
  manifest?: Manifest;
  rows: Record<string, number>;
  errors: string[];
}

export class Session extends EventTarget {
  runs: LoadedRun[] = [];

  constructor(readonly engine: SqlEngine) {
    super();
  }

  /** Loads bundles one by one; a bundle that fails entirely is listed with its error, never thrown. */
  async load(sources: readonly BundleSource[]): Promise<LoadedRun[]> {
    const added: LoadedRun[] = [];
    for (const source of sources) {
      const run: LoadedRun = { label: source.label, rows: {}, errors: [] };
      try {
        const bundle = await readBundle(source);
        if (this.runs.some((r) => r.manifest?.run_id === bundle.manifest.run_id))
          throw new BundleError(source.label, `run ${bundle.manifest.run_id} is already loaded`);
        run.manifest = bundle.manifest;
        const report = await loadBundleIntoEngine(this.engine, bundle);
        for (const t of report.tables) run.rows[t.name] = t.rows;
        run.errors.push(...report.errors);
      } catch (e) {
        run.errors.push((e as Error).message);
      }
      added.push(run);
      this.runs = [...this.runs, run];
      this.dispatchEvent(new Event("change"));
    }
    return added;
  }

  hasTable(name: string): boolean {
    return this.runs.some((r) => (r.rows[name] ?? 0) > 0);
  }
}
