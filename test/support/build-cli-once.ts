// Node project's global setup: the CLI compiled into cli/.dist-test for the tests that spawn it
// (test/support/cli.ts), unless that build is newer than every source it was built from (the launcher's own
// freshness check, cli/build-state.mjs), than the build script and than the installed packages (apache-arrow is
// bundled in). A compiled run starts in about half the CPU of the sources through tsx.
import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "../..");
const TEST_DIST = "cli/.dist-test";

export default async function buildCliOnce(): Promise<void> {
  const { buildState } = (await import(join(ROOT, "cli/build-state.mjs"))) as {
    buildState(root: string, dist: string): { fresh: boolean };
  };
  const mtimeOf = (path: string) => statSync(join(ROOT, path), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const built = mtimeOf(`${TEST_DIST}/inputs.json`);
  const fresh =
    buildState(ROOT, TEST_DIST).fresh &&
    ["cli/build-cli.mjs", "package-lock.json"].every((f) => mtimeOf(f) < built);
  if (fresh) return;
  const script = `import(${JSON.stringify(join(ROOT, "cli/build-cli.mjs"))}).then((b) => b.buildCli(${JSON.stringify(join(ROOT, TEST_DIST))}))`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`building the CLI into ${TEST_DIST} failed:\n${r.stderr}`);
}
