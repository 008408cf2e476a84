// The status line after runs load: only the runs that loaded are counted (a failed run is not data); each run
// that failed is listed with what was not found and where (its URL or path, or the notebook's name for it).
import type { LoadedRun } from "./session";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * "17 runs loaded, 1 with errors (streamed); 2 failed: samples/x: no run bundle at … · k9-*: named by …".
 * `missing`: names in the notebook's front matter that matched no run at all.
 */
export function runsStatus(runs: readonly LoadedRun[], missing: readonly string[] = []): string {
  const loaded = runs.filter((r) => r.manifest);
  const partial = loaded.filter((r) => r.errors.length).length;
  const failed = runs
    .filter((r) => !r.manifest)
    .map((r) => `${r.label}: ${r.errors.join("; ") || "not loaded"}`)
    .concat(
      missing.map(
        (m) =>
          `${m}: named by the notebook, found neither beside it (notebooks/) nor among the samples (samples/)`,
      ),
    );
  return (
    `${plural(loaded.length, "run")} loaded${partial ? `, ${partial} with errors` : ""}${loadPaths(loaded)}` +
    (failed.length ? `; ${failed.length} failed: ${failed.join(" · ")}` : "")
  );
}

/** Which path the runs took (docs/scaling.md): " (attached)", " (streamed)", or " (2 attached, 1 streamed)". */
function loadPaths(runs: readonly Pick<LoadedRun, "path">[]): string {
  const attached = runs.filter((r) => r.path === "attached").length;
  const streamed = runs.filter((r) => r.path === "streamed").length;
  if (attached + streamed === 0) return "";
  if (attached === 0 || streamed === 0) return ` (${attached ? "attached" : "streamed"})`;
  return ` (${attached} attached, ${streamed} streamed)`;
}
