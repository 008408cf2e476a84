// The workspace's state in its URL: `?notebook=NAME` and, when the runs are not the notebook's own,
// `&runs=url1,url2` (every run that came from a URL), so a reload or a shared link opens the same thing; runs
// marked baseline or candidate in the runs table as `&baseline=id1,id2&candidate=id3` (run ids).
// Runs dropped from disk have no URL and cannot be restored; the page says so. A comma inside a run's URL is
// written %2C (and a % as %25) within the list, so it does not split the run in two.

export interface UrlState {
  notebook?: string;
  /** undefined: the notebook's own runs (no `runs=`); [] an explicit empty list (`runs=`) */
  runs?: readonly string[];
  /** run ids marked as each side of a comparison; absent or empty: none marked */
  marks?: RunMarks;
}

export interface RunMarks {
  baseline: readonly string[];
  candidate: readonly string[];
}

export const SIDES = ["baseline", "candidate"] as const;
export type Side = (typeof SIDES)[number];

/** The runs a `runs=` parameter lists, or undefined when there is none. */
export function runsParam(search: string): string[] | undefined {
  const params = new URLSearchParams(search);
  if (!params.has("runs")) return undefined;
  return params.get("runs")!.split(",").filter(Boolean).map(unescapeRun);
}

/** The runs marked in `baseline=` and `candidate=` (empty lists when absent); a run on both sides stays a baseline. */
export function marksParam(search: string): RunMarks {
  const params = new URLSearchParams(search);
  const list = (side: Side) => (params.get(side) ?? "").split(",").filter(Boolean).map(unescapeRun);
  const baseline = [...new Set(list("baseline"))];
  return { baseline, candidate: [...new Set(list("candidate"))].filter((r) => !baseline.includes(r)) };
}

/** Marks `run` as `side` (or unmarks it, side null): a run is on one side at most; order of marking is kept. */
export function markRun(marks: RunMarks, run: string, side: Side | null): RunMarks {
  const out = {
    baseline: marks.baseline.filter((r) => r !== run),
    candidate: marks.candidate.filter((r) => r !== run),
  };
  if (side) out[side] = [...out[side], run];
  return out;
}

const escapeRun = (run: string) => run.replace(/[%,]/g, (c) => (c === "," ? "%2C" : "%25"));
const unescapeRun = (run: string) =>
  run.replace(/%(2C|25)/gi, (_, code: string) => (code === "25" ? "%" : ","));

/** `href` with its notebook and runs replaced by `state`; every other parameter (engine=server, ...) is kept. */
export function withUrlState(href: string, state: UrlState): string {
  const url = new URL(href);
  const params = url.searchParams;
  if (state.notebook === undefined) params.delete("notebook");
  else params.set("notebook", state.notebook);
  if (state.runs === undefined) params.delete("runs");
  else params.set("runs", state.runs.map(escapeRun).join(","));
  for (const side of SIDES) {
    const marked = state.marks?.[side] ?? [];
    if (marked.length) params.set(side, marked.map(escapeRun).join(","));
    else params.delete(side);
  }
  // Paths read better unescaped, and `/`, `:` and `,` are legal in a query (RFC 3986 section 3.4).
  const query = params.toString().replace(/%2F/gi, "/").replace(/%3A/gi, ":").replace(/%2C/gi, ",");
  url.search = query ? `?${query}` : "";
  return url.href;
}

/** The URL runs to write: undefined when they are exactly the notebook's own (in any order). */
export function runsToWrite(loaded: readonly string[], own: readonly string[]): string[] | undefined {
  const norm = (u: string) => u.replace(/\/+$/, "");
  const a = new Set(loaded.map(norm));
  const b = new Set(own.map(norm));
  const same = a.size === b.size && [...a].every((u) => b.has(u));
  return same ? undefined : [...a];
}
