// Which runs a notebook loads. Front matter `runs:` lists run folder names, paths or globs; each entry resolves
// by this rule, the same in every host:
//   1. relative to the notebook's folder: `runs/pixel4a-*` or `../data/run-17` (a folder holding manifest.json);
//   2. otherwise, against the sample runs (workspace/public/samples/<run_id>/, listed in samples/index.json):
//      `synthetic-feed-scroll` or `synthetic-*`.
// An entry that matches nothing is an error naming it. Globs: `*` any characters within one path segment,
// `?` one character. `jankbook run --runs <dir> ...` replaces the front matter's list: a <dir> holding a
// manifest.json is one run, otherwise each sub-folder of it that holds one is a run.
// The browser applies both over lists: the runs beside the notebooks (notebook-runs.json, served by
// workspace/node/notebook-runs-plugin.ts) then samples/index.json (workspace/app/notebook-sources.ts runsForNotebook).

export function hasGlob(pattern: string): boolean {
  return /[*?]/.test(pattern);
}

export function globToRegExp(glob: string): RegExp {
  let re = "";
  for (const c of glob) {
    if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

/** The names in `available` that `ref` names (itself, or its glob matches), in `available` order. */
export function matchRunNames(ref: string, available: readonly string[]): string[] {
  if (!hasGlob(ref)) return available.includes(ref) ? [ref] : [];
  const re = globToRegExp(ref);
  return available.filter((n) => re.test(n));
}
