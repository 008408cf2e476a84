// The compiled CLI (cli/build-cli.mjs into cli/dist) and the sources through tsx give the same answers; the
// launcher takes the build only while it is newer than its sources, and says once when it falls back.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, renameSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandsFor } from "../../cli/main";
import { commands } from "../../cli/commands/index";

const ROOT = join(import.meta.dirname, "../..");
const DIST = join(ROOT, "cli", "dist");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const SAMPLE = join(ROOT, "workspace/public/samples/k9-nexus-5x-android6.0.1-r1");
const MARK = "[compiled]\n";
const WORKER_MARK = "[compiled worker]\n";

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function jankbook(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const base = { ...process.env };
  delete base.JANKBOOK_FROM_SOURCES;
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [join(ROOT, "cli/jankbook.js"), ...args], {
      cwd: ROOT,
      env: { ...base, ...env },
    });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d) => (stdout += d));
    p.stderr.on("data", (d) => (stderr += d));
    p.on("error", reject);
    p.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function build() {
  const r = spawnSync(process.execPath, [join(ROOT, "cli/build-cli.mjs")], { cwd: ROOT, encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  // Marks the compiled entry, so a test sees which of the two ran.
  const main = join(DIST, "main.js");
  writeFileSync(main, `process.stderr.write(${JSON.stringify(MARK)});\n` + readFileSync(main, "utf8"));
  // and the compiled notebook worker (straight to fd 2: its process.stderr goes through the runner's pipe)
  const worker = join(DIST, "cell-worker.js");
  const mark = `import { writeSync as markSync } from "node:fs";\nmarkSync(2, ${JSON.stringify(WORKER_MARK)});\n`;
  writeFileSync(worker, mark + readFileSync(worker, "utf8"));
}

beforeAll(build, 60_000);
afterAll(() => {
  spawnSync(process.execPath, [join(ROOT, "cli/build-cli.mjs")], { cwd: ROOT }); // an unmarked build
}, 60_000);

describe("the compiled CLI and the sources agree", () => {
  it("--version: jankbook's own version from package.json, under another package's npm run too", async () => {
    const env = { npm_package_version: "9.9.9", npm_package_name: "other" };
    const built = await jankbook(["--version"], env);
    const sources = await jankbook(["--version"], { ...env, JANKBOOK_FROM_SOURCES: "1" });
    expect(built).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: MARK });
    expect(sources).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
  }, 60_000);

  it("info on a sample bundle: the same output and exit code", async () => {
    const built = await jankbook(["info", SAMPLE]);
    const sources = await jankbook(["info", SAMPLE], { JANKBOOK_FROM_SOURCES: "1" });
    expect(built.stderr).toBe(MARK);
    expect(sources).toEqual({ ...built, stderr: "" });
    // read by hand from the sample's manifest.json
    expect(built.stdout).toMatch(/^k9-nexus-5x-android6\.0\.1-r1 .* on Nexus 5X \(API 23\)/);
    expect(built.stdout).toMatch(/\n {2}frames +\d+ rows\n/);
    expect(built.code).toBe(0);
  }, 60_000);

  it("run: the compiled CLI starts the compiled notebook worker; both stop a runaway cell alike", async () => {
    const args = ["run", join(ROOT, "test/cli/fixtures/hang-loop.md"), "--timeout", "3"];
    const built = await jankbook(args);
    const sources = await jankbook(args, { JANKBOOK_FROM_SOURCES: "1" });
    expect(built.stderr.startsWith(MARK), built.stderr).toBe(true);
    expect(built.stderr).toContain(WORKER_MARK);
    expect(sources.stderr).not.toContain(WORKER_MARK);
    for (const r of [built, sources]) {
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("stopped: ts spin still running after 3 s (--timeout)");
    }
    expect(sources.stdout).toBe(built.stdout);
  }, 300_000); // a hang guard for two runs in turn, each starting an engine and a worker (120 s ran out at load 16)

  it("an unknown command and a bad option: the same message from both", async () => {
    for (const args of [["nosuch"], ["info"]]) {
      const built = await jankbook(args);
      const sources = await jankbook(args, { JANKBOOK_FROM_SOURCES: "1" });
      expect(built.code).not.toBe(0);
      expect(sources).toEqual({ ...built, stderr: built.stderr.replace(MARK, "") });
    }
  }, 60_000);
});

describe("falling back to the sources", () => {
  it("a source newer than the build: the sources run, and the launcher says so once", async () => {
    const file = join(ROOT, "cli/version.ts");
    const { atime, mtime } = statSync(file);
    const built = JSON.parse(readFileSync(join(DIST, "inputs.json"), "utf8")) as { builtAt: number };
    utimesSync(file, atime, new Date(built.builtAt + 5000));
    try {
      const r = await jankbook(["--version"]);
      expect(r.stdout).toBe(`${VERSION}\n`);
      expect(r.stderr).toBe(
        "jankbook: cli/dist is older than cli/version.ts; running the sources through tsx (slow start; `npm run build:cli` compiles them)\n",
      );
    } finally {
      utimesSync(file, atime, mtime);
    }
    expect((await jankbook(["--version"])).stderr).toBe(MARK); // fresh again once the edit is undone
  }, 60_000);

  it("no build: the sources run, and the launcher says so once", async () => {
    const inputs = join(DIST, "inputs.json");
    renameSync(inputs, inputs + ".away");
    try {
      const r = await jankbook(["--version"]);
      expect(r).toEqual({
        code: 0,
        stdout: `${VERSION}\n`,
        stderr:
          "jankbook: no compiled CLI in cli/dist; running the sources through tsx (slow start; `npm run build:cli` compiles them)\n",
      });
    } finally {
      renameSync(inputs + ".away", inputs);
    }
  }, 60_000);

  it("the build lists every source it holds: main, each command and what they import", () => {
    const { inputs } = JSON.parse(readFileSync(join(DIST, "inputs.json"), "utf8")) as { inputs: string[] };
    for (const name of Object.keys(commands)) expect(inputs).toContain(`cli/commands/${name}.ts`);
    expect(inputs).toContain("cli/main.ts");
    expect(inputs).toContain("workspace/node/cell-worker.ts");
    expect(inputs).toContain("collectors/adb/collect-device.ts");
    expect(inputs).toContain("bundle/schema.ts");
    expect(inputs.some((p) => p.includes("node_modules"))).toBe(false);
  });
});

describe("commandsFor: only the command that runs is loaded", () => {
  const all = Object.keys(commands);
  it.each([
    [["import", "x.trace", "--out", "o"], ["import"]],
    [["--version"], []],
    [["-V"], []],
    [["collect", "--help"], ["collect"]],
    [["--help"], all],
    [[], all],
    [["help", "collect"], all],
    [["nosuch"], all],
    [["constructor"], all],
  ])("%j loads %j", (args, expected) => {
    expect(commandsFor(["node", "jankbook", ...args])).toEqual(expected);
  });
});
