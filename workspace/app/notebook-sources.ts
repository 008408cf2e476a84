// The notebooks bundled with the workspace (notebooks/**/*.md), and which runs a notebook asks for.
import { parseNotebook } from "../notebook/format";
import { hasGlob, matchRunNames } from "../notebook/runs";

const bundled = import.meta.glob("../../notebooks/**/*.md", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

export function bundledNotebooks(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, text] of Object.entries(bundled))
    out[path.replace(/^.*\//, "").replace(/\.md$/, "")] = text;
  return out;
}

/** Each bundled notebook's folder relative to notebooks/ ("" at its top), by its bundledNotebooks() name. */
export function bundledNotebookFolders(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const path of Object.keys(bundled)) {
    const rel = path.replace(/^.*?\/notebooks\//, "");
    out[rel.replace(/^.*\//, "").replace(/\.md$/, "")] = rel.includes("/") ? rel.replace(/\/[^/]*$/, "") : "";
  }
  return out;
}

/** The run bundles beside the notebooks, as notebook-runs.json lists them (workspace/node/notebook-runs-plugin.ts). */
export interface NotebookRuns {
  /** the notebook's folder, relative to notebooks/ ("" for notebooks/triage.md) */
  folder: string;
  /** every folder under notebooks/ holding a manifest.json, relative to notebooks/ */
  runs: readonly string[];
}

/** `a/../b` within notebooks/, or undefined when the path climbs out of it (nothing there is served). */
function underNotebooks(folder: string, path: string): string | undefined {
  const out: string[] = [];
  for (const seg of `${folder}/${path}`.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg !== "..") out.push(seg);
    else if (out.pop() === undefined) return undefined;
  }
  return out.join("/");
}

/** Step 1 of runs.ts, as headless.ts does it: a glob only in the last segment, over that folder's own runs. */
function besideNotebook(ref: string, local: NotebookRuns): string[] {
  if (!hasGlob(ref)) {
    const path = underNotebooks(local.folder, ref);
    return path !== undefined && local.runs.includes(path) ? [path] : [];
  }
  const cut = ref.lastIndexOf("/");
  const parent = underNotebooks(local.folder, cut < 0 ? "" : ref.slice(0, cut));
  if (parent === undefined) return [];
  const prefix = parent ? `${parent}/` : "";
  const children = local.runs
    .filter((r) => r.startsWith(prefix) && !r.slice(prefix.length).includes("/"))
    .map((r) => r.slice(prefix.length));
  return matchRunNames(ref.slice(cut + 1), children).map((n) => prefix + n);
}

/**
 * The URLs (relative to the workspace) of the runs a notebook's front matter names, by the rule in runs.ts:
 * each entry first beside the notebook (`notebooks/<path>/`), then among the samples (`samples/<name>/`).
 * All samples when it names none.
 */
export function runsForNotebook(
  text: string,
  samples: readonly string[],
  local: NotebookRuns = { folder: "", runs: [] },
): { runs: string[]; missing: string[] } {
  const sampleUrl = (name: string) => `samples/${name}/`;
  const refs = parseNotebook(text).frontMatter?.runs ?? [];
  if (refs.length === 0) return { runs: samples.map(sampleUrl), missing: [] };
  const runs = new Set<string>();
  const missing: string[] = [];
  for (const ref of refs) {
    let found = besideNotebook(ref, local).map((p) => `notebooks/${p}/`);
    if (found.length === 0) found = matchRunNames(ref, samples).map(sampleUrl);
    if (found.length === 0) missing.push(ref);
    found.forEach((r) => runs.add(r));
  }
  return { runs: [...runs], missing };
}
