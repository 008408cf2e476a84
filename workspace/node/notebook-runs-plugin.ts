// Node only (vite.config.ts): serves the run bundles kept beside notebooks (any folder under notebooks/
// holding a manifest.json) to the workspace at notebooks/<path>/, listed in notebook-runs.json (paths
// relative to notebooks/), so the browser resolves `runs:` by step 1 of workspace/notebook/runs.ts too.
// Dev serves them from the repo as they are now; the build copies them into dist/ uncompressed (gzip on
// the fly made big tables load 18x slower: docs/architecture.md), where workspace/node/static-server.ts
// serves them like any other file.
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import type { Plugin } from "vite";

export const NOTEBOOK_RUNS_INDEX = "notebook-runs.json";
export const NOTEBOOK_RUNS_PREFIX = "notebooks/";

/** Every folder under `dir` holding a manifest.json, as a path relative to `dir` with `/`, sorted. */
export function findNotebookRuns(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (existsSync(join(d, "manifest.json"))) out.push(relative(dir, d).split(sep).join("/"));
    for (const e of readdirSync(d, { withFileTypes: true }))
      if (e.isDirectory() && e.name !== "node_modules" && !e.name.startsWith(".")) walk(join(d, e.name));
  };
  if (existsSync(dir)) walk(dir);
  return out.filter((p) => p !== "").sort();
}

/** The files of one run folder (a bundle is flat: manifest.json, *.arrows, run.duckdb). */
function runFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name)
    .sort();
}

const TYPES: Record<string, string> = {
  ".json": "application/json",
  ".arrows": "application/vnd.apache.arrow.stream",
  ".arrow": "application/vnd.apache.arrow.file",
};

export function notebookRunsPlugin(notebooksDir: string): Plugin {
  const root = resolve(notebooksDir);
  return {
    name: "jankbook-notebook-runs",
    configureServer(server) {
      // Read on every request, so a run added while `npm start` runs shows on the next reload.
      server.middlewares.use((req, res, next) => {
        const base = server.config.base;
        const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
        if (!path.startsWith(base)) return next();
        const rel = path.slice(base.length);
        if (rel === NOTEBOOK_RUNS_INDEX) {
          res.setHeader("content-type", "application/json");
          res.end(JSON.stringify(findNotebookRuns(root)));
          return;
        }
        if (!rel.startsWith(NOTEBOOK_RUNS_PREFIX)) return next();
        const file = rel.slice(NOTEBOOK_RUNS_PREFIX.length);
        const slash = file.lastIndexOf("/");
        // Only a file directly in a run folder: nothing else under notebooks/ is served this way.
        if (slash < 0 || !findNotebookRuns(root).includes(file.slice(0, slash))) return next();
        const abs = resolve(root, file);
        if (!abs.startsWith(root + sep) || !existsSync(abs) || !statSync(abs).isFile()) return next();
        const ext = abs.slice(abs.lastIndexOf("."));
        res.setHeader("content-type", TYPES[ext] ?? "application/octet-stream");
        res.setHeader("content-length", statSync(abs).size);
        res.setHeader("cache-control", "no-cache");
        createReadStream(abs).pipe(res);
      });
    },
    generateBundle() {
      const runs = findNotebookRuns(root);
      this.emitFile({ type: "asset", fileName: NOTEBOOK_RUNS_INDEX, source: JSON.stringify(runs) });
      for (const run of runs)
        for (const name of runFiles(join(root, run)))
          this.emitFile({
            type: "asset",
            fileName: `${NOTEBOOK_RUNS_PREFIX}${run}/${name}`,
            source: readFileSync(join(root, run, name)),
          });
    },
  };
}
