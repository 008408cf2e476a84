// `jankbook --version` from another package's `npm run` script prints jankbook's version, not that package's:
// npm sets npm_package_version to the running package's, so nothing may read it.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const OTHER_VERSION = "9.9.9";

describe("jankbook --version under another package's npm run", () => {
  let dir: string;

  beforeAll(() => {
    // A package that depends on jankbook the way npm links a bin: node_modules/.bin/jankbook -> cli/jankbook.js.
    dir = mkdtempSync(join(tmpdir(), "jb-other-package-"));
    mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
    symlinkSync(join(ROOT, "cli", "jankbook.js"), join(dir, "node_modules", ".bin", "jankbook"));
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({
        name: "other-app",
        version: OTHER_VERSION,
        scripts: { v: "jankbook --version", env: "node -p process.env.npm_package_version" },
      }),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const npmRun = (script: string, env: Record<string, string> = {}) =>
    spawnSync("npm", ["run", "--silent", script], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, ...env },
    });

  it("npm does set the other package's version in the environment (the trap this guards against)", () => {
    expect(VERSION).not.toBe(OTHER_VERSION);
    const r = npmRun("env");
    expect(r.stdout.trim()).toBe(OTHER_VERSION);
  });

  for (const [how, env] of [
    ["the compiled CLI or its fallback", {}],
    ["the sources", { JANKBOOK_FROM_SOURCES: "1" }],
  ] as const)
    it(`prints jankbook's own version (${how})`, () => {
      const r = npmRun("v", env);
      expect(r.status).toBe(0);
      expect(r.stdout.trim()).toBe(VERSION);
    });
});
