// `jankbook run --set`: a name the notebook has no input for, or a value its input cannot take, fails the run
// (exit 1) and lists the inputs with their types; a good --set still runs and exits 0.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, spawnJankbook } from "../support/cli";

const jankbook = (...args: string[]) => spawnJankbook(args);

const NOTEBOOK = join(ROOT, "test/cli/fixtures/inputs.md");
const tmp = await mkdtemp(join(tmpdir(), "jb-set-inputs-"));
afterAll(() => rm(tmp, { recursive: true, force: true }));

const INPUTS =
  "the notebook's inputs: budgetMs (range: a number from 4 to 100), onlyJank (toggle: true or false), " +
  'layer (select: one of "ui", "render")';

describe("jankbook run --set", { timeout: 300_000 }, () => {
  it("a known input and a value of its type: runs with it, exit 0", async () => {
    const out = join(tmp, "ok.json");
    const r = await jankbook("run", NOTEBOOK, "--set", "budgetMs=5", "--set", "onlyJank=true", "--out", out);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(await readFile(out, "utf8")) as {
      cells: { values: Record<string, unknown> }[];
    };
    expect(report.cells.find((c) => "summary" in c.values)!.values.summary).toBe("5 true ui");
  });

  it("a misspelt name and values their inputs cannot take: exit 1, each named, then the inputs with their types", async () => {
    const r = await jankbook(
      "run",
      NOTEBOOK,
      ...["--set", "budgetms=5", "--set", "onlyJank=yes", "--set", "layer=gpu"],
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(
      [
        "--set budgetms=5: the notebook has no input named budgetms",
        '--set onlyJank=yes: onlyJank expects true or false, got "yes"',
        '--set layer=gpu: layer expects one of "ui", "render", got "gpu"',
        INPUTS,
      ].join("\n"),
    );
    expect(r.stderr).not.toMatch(/^warning: --set/m);
  });

  it.each([
    ["budgetMs=abc", '--set budgetMs=abc: budgetMs expects a number from 4 to 100, got "abc"'],
    ["budgetMs=500", "--set budgetMs=500: budgetMs expects a number from 4 to 100, got 500"],
  ])("a number its range cannot take (%s): exit 1, saying what it expects", async (set, message) => {
    const r = await jankbook("run", NOTEBOOK, "--set", set);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`${message}\n${INPUTS}`);
    expect(r.stderr).not.toContain("no input named budgetMs");
  });
});
