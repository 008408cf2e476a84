// Node project's global setup: the CLI compiled once per test run into cli/.dist-test, for the tests that spawn
// it (test/support/cli.ts). A compiled run starts in about half the CPU of the sources through tsx.
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "../..");
export const TEST_DIST = join(ROOT, "cli", ".dist-test");

export default function buildCliOnce(): void {
  const script = `import(${JSON.stringify(join(ROOT, "cli/build-cli.mjs"))}).then((b) => b.buildCli(${JSON.stringify(TEST_DIST)}))`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`building the CLI into ${TEST_DIST} failed:\n${r.stderr}`);
}
