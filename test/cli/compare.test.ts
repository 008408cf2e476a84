// `jankbook compare` as a CI gate: spawned once on DRAW case 1's run against its fix (exit 1, the regression
// listed on stderr, the JSON report), and in process on an A/A pair (exit 0), on bad sides (a clear error) and
// with an HTML report that runs nothing.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { SIM_CASES, writeSimRun } from "../../bench/compare/sim-pairs";
import { jankbookInProcess, ROOT, spawnJankbook } from "../support/cli";

const CASES = join(ROOT, "notebooks/cases/runs");
const tmp = await mkdtemp(join(tmpdir(), "jb-compare-cli-"));
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe("jankbook compare", () => {
  it("exits 1 on a significant regression, listing it on stderr, and writes the JSON report", async () => {
    const out = join(tmp, "report.json");
    const r = await spawnJankbook([
      "compare",
      join(CASES, "draw-1-faceq-pixel-4a-fixed"),
      join(CASES, "draw-1-faceq-pixel-4a"),
      "--fail-on",
      "regression",
      "--out",
      out,
    ]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      /\d+ significant regression\(s\):\n {2}1\. REGRESSION {2}\[draw\] android\.widget\.GridView #gridview: rendering cost per second/,
    );
    // the GridView's background (the case's bug) lies under its items: they paint over one more layer
    expect(r.stdout).toMatch(
      /\[draw\] android\.widget\.ImageView #item_image: overdraw depth where it paints \(mean\) {2}3\.00 → 4\.00 layers/,
    );
    expect(r.stdout).toMatch(/what changed most:\n {2}1\. REGRESSION/);
    const report = JSON.parse(await readFile(out, "utf8")) as {
      sides: { a: string[]; b: string[] };
      rows: { subject: string; significant: boolean; note: string }[];
    };
    expect(report.sides).toEqual({ a: ["draw-1-faceq-pixel-4a-fixed"], b: ["draw-1-faceq-pixel-4a"] });
    expect(report.rows[0]!.subject).toBe("android.widget.GridView #gridview");
    // one run against one: the row says what it rests on, what it cannot see and what it assumes instead
    expect(report.rows[0]!.note).toMatch(
      /1 vs 1; block bootstrap over \d+ vs \d+ UI-event buckets.*variation between runs is not measured but assumed \(40 % a run\), so this is evidence about these runs more than about the build/,
    );
  }, 240_000);

  it("exits 0 on an A/A pair (the same scenario at another seed) and writes an HTML report that runs nothing", async () => {
    const k9 = SIM_CASES.find((c) => c.name === "k9")!;
    const a = await writeSimRun(tmp, k9, false, 1);
    const b = await writeSimRun(tmp, k9, false, 2);
    const out = join(tmp, "report.html");
    const quiet = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const r = await jankbookInProcess(
      "compare",
      a.dir,
      b.dir,
      "--fail-on",
      "regression",
      "--out",
      out,
      "--top",
      "1",
    );
    quiet.mockRestore();
    expect(r.code, r.stderr).toBe(0);
    const html = await readFile(out, "utf8");
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain("<svg");
  }, 240_000);

  it("refuses a side that names no run, and an unknown lake filter column, naming them", async () => {
    const missing = await jankbookInProcess(
      "compare",
      join(tmp, "nothing-here"),
      join(CASES, "diagdroid-1-openlaw"),
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(
      "nothing-here: neither a run (no manifest.json), a folder of runs, a glob nor lake:<dir>?<filter>",
    );
    const filter = await jankbookInProcess("compare", "lake:lab?colour=red", "lake:lab?app_version=1");
    expect(filter.code).toBe(1);
    expect(filter.stderr).toContain('filter "colour=red" at offset 0: unknown column colour');
  });
});
