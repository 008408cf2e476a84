// Whether cli/dist (cli/build-cli.mjs) can run: it exists and no source it was built from changed since,
// so a developer's edit is never ignored. One stat per source (about 100), well under a millisecond each.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** {fresh: true}, or {fresh: false, reason} saying what is missing or newer than the build in `dist` (a folder
 * relative to `root`: cli/dist, or the test run's cli/.dist-test). */
export function buildState(root, dist = "cli/dist") {
  let built;
  try {
    built = JSON.parse(readFileSync(join(root, dist, "inputs.json"), "utf8"));
  } catch {
    return { fresh: false, reason: `no compiled CLI in ${dist}` };
  }
  for (const input of built.inputs) {
    let mtime;
    try {
      mtime = statSync(join(root, input)).mtimeMs;
    } catch {
      return { fresh: false, reason: `${input}, compiled into ${dist}, is gone` };
    }
    if (mtime > built.builtAt) return { fresh: false, reason: `${dist} is older than ${input}` };
  }
  return { fresh: true };
}
