// `jankbook run` and `jankbook publish` as a user (or CI) runs them: spawned, exit codes and stderr checked.
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jankbookInProcess, ROOT, spawnJankbook } from "../support/cli";

const FIXTURES = join(import.meta.dirname, "fixtures");
const jankbook = (...args: string[]) => spawnJankbook(args);

function notebooks(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? notebooks(path) : name.endsWith(".md") ? [path] : [];
  });
}

const out = mkdtempSync(join(tmpdir(), "jankbook-cli-"));

describe("jankbook run (spawned)", () => {
  it("exits 1 and names the failed check (and not the passing one)", async () => {
    const r = await jankbook("run", join(FIXTURES, "failing-check.md"), "--out", join(out, "report.md"));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("check failed: fewer than ten frames (1800 frames)");
    expect(r.stderr).not.toContain("check failed: at least one frame");
    const md = readFileSync(join(out, "report.md"), "utf8");
    expect(md).toContain("- [ ] fewer than ten frames: 1800 frames");
    expect(md).toContain("- [x] at least one frame");
  });
});

describe("jankbook run", () => {
  // The command on two notebooks: one small, and the one with most cells and runs. That every notebook's cells and
  // checks pass is the engine parity test's (test/workspace/db/native-parity.test.ts, both engines, in one process);
  // each run here starts its own cell worker and engine thread, seconds per notebook.
  const all = notebooks(join(ROOT, "notebooks"));
  const picked = ["notebooks/examples/frames-overview.md", "notebooks/triage.md"].map((p) => join(ROOT, p));
  it("finds the notebooks it runs", () => expect(all).toEqual(expect.arrayContaining(picked)));
  it.each(picked.map((p) => [p.slice(ROOT.length + 1), p]))("passes on %s", async (_name, path) => {
    const r = await jankbookInProcess("run", path, "--out", join(out, "report.json"));
    expect(r.stderr).not.toMatch(/cell failed|check failed/);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    expect(report.ok).toBe(true);
    expect(report.cells.every((c: { status: string }) => c.status === "fulfilled")).toBe(true);
  });

  it("exits 1 when a cell fails, naming it and the error; --set and --runs are applied", async () => {
    const r = await jankbookInProcess(
      "run",
      join(FIXTURES, "failing-cell.md"),
      "--runs",
      join(ROOT, "workspace/public/samples"),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cell failed: sql broken: .*no_such_column/);
    expect(r.stderr).toMatch(/ok {3}ts fine/);
  });

  it("--set overrides an input; the JSON report records it", async () => {
    const r = await jankbookInProcess(
      "run",
      join(ROOT, "notebooks/examples/frames-overview.md"),
      "--set",
      "budgetMs=40",
      "--out",
      join(out, "set.json"),
    );
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(out, "set.json"), "utf8"));
    expect(report.provenance.inputs).toEqual([
      { name: "budgetMs", value: 40, label: "slow-frame budget (ms)" },
    ]);
  });

  it("refuses a report type it cannot write, and a bad --set", async () => {
    expect(
      (await jankbookInProcess("run", join(FIXTURES, "failing-cell.md"), "--set", "novalue")).stderr,
    ).toContain("--set novalue: expected name=value");
    expect(
      (await jankbookInProcess("run", join(FIXTURES, "failing-cell.md"), "--max-rows", "lots")).stderr,
    ).toBe("jankbook: --max-rows lots: expected a positive number\n");
    const r = await jankbookInProcess("run", join(FIXTURES, "failing-cell.md"), "--out", "report.txt");
    expect(r).toEqual({
      code: 1,
      stderr: "jankbook: --out report.txt: the report must end in .html, .json or .md\n",
    });
  });

  it("publish writes one self-contained HTML page", async () => {
    const notebook = join(ROOT, "notebooks/examples/frames-overview.md");
    const file = join(out, "page.html");
    const r = await jankbookInProcess("publish", notebook, "--out", file, "--embed-data");
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(file, "utf8");
    expect(html).toContain("script-src 'none'");
    expect(html).not.toMatch(/<script/i);
    expect((html.match(/<svg/g) ?? []).length).toBeGreaterThanOrEqual(2);
    expect(html).toContain('href="data:application/vnd.apache.arrow.file;base64,');
  });
});
