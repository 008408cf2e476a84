// `jankbook run` under runaway cells and broken runs (docs/architecture.md, "Decisions"). Every spawned run
// has a hard outer deadline: a run that hangs is killed and the test fails; it never hangs CI.
import { cpSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jankbookInProcess, ROOT, spawnJankbook } from "../support/cli";

const FIXTURES = join(import.meta.dirname, "fixtures");
const SAMPLE = join(ROOT, "workspace/public/samples/synthetic-feed-scroll");
/** The hard limit on one spawned run: start-up (tsx, DuckDB, the worker) is slow on a loaded 2-core machine. */
const HARD_MS = 150_000;
// The test run's own compiled build (test/support/cli.ts), not cli/dist: build.test.ts rebuilds cli/dist while
// other files run.
const jankbook = (...args: string[]) => spawnJankbook(args, { hardMs: HARD_MS });
const inProcess = jankbookInProcess;

const out = mkdtempSync(join(tmpdir(), "jankbook-faults-"));
const cellRow = (md: string, cell: string) => md.split("\n").find((l) => l.startsWith(`| ${cell} |`));

describe(
  "jankbook run: cells that never finish are stopped at --timeout",
  { timeout: HARD_MS + 10_000 },
  () => {
    it("while (true) {}: the cell is named, the cells above it are reported, the ones below were not run", async () => {
      const report = join(out, "loop.md");
      const r = await jankbook("run", join(FIXTURES, "hang-loop.md"), "--timeout", "3", "--out", report);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain("stopped: ts spin still running after 3 s (--timeout)");
      const md = readFileSync(report, "utf8");
      expect(md).toContain("**Stopped:** ts spin still running after 3 s (--timeout)");
      expect(cellRow(md, "ts before")).toMatch(/\| fulfilled \|/);
      expect(cellRow(md, "sql frame_count")).toMatch(/\| fulfilled \|/);
      expect(cellRow(md, "ts spin")).toContain(
        "| rejected |  | stopped: still running after 3 s (--timeout) |",
      );
      expect(cellRow(md, "ts after")).toContain("not run: the notebook was stopped (ts spin still running");
    });

    it("an infinite generator: the generator is named", async () => {
      const r = await jankbook("run", join(FIXTURES, "hang-generator.md"), "--timeout", "3");
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain("stopped: ts ticks (generator ticks never ended) still running after 3 s");
      expect(r.stderr).toMatch(/ok {3}ts before/);
    });

    it("a setInterval left behind: the run ends (exit 0) instead of keeping the process alive", async () => {
      const r = await jankbook("run", join(FIXTURES, "hang-interval.md"), "--timeout", "60");
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain("2 cells, 0 failed");
    });

    it("a promise that never settles: named as such, not as a worker exit", async () => {
      const r = await inProcess("run", join(FIXTURES, "hang-promise.md"), "--timeout", "60");
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(
        "stopped: ts never waits on a promise that can never settle (the notebook worker had nothing left to run)",
      );
      expect(r.stderr).not.toContain("exited (code 0)");
    });

    it.each(["wasm", "native"])(
      "a SQL cell that never returns (%s): named in the report, and the process exits",
      async (engine) => {
        const report = join(out, `sql-${engine}.md`);
        // A hang here (no report, or a process that never exits) is killed at HARD_MS and fails the test.
        const r = await jankbook(
          "run",
          join(FIXTURES, "hang-sql.md"),
          "--engine",
          engine,
          "--timeout",
          "5",
          "--out",
          report,
        );
        expect(r.code, r.stderr).toBe(1);
        expect(r.stderr).toContain("stopped: sql forever still running after 5 s (--timeout)");
        const md = readFileSync(report, "utf8");
        expect(cellRow(md, "ts before")).toMatch(/\| fulfilled \|/);
        expect(cellRow(md, "sql forever")).toContain(
          "| rejected |  | stopped: still running after 5 s (--timeout) |",
        );
      },
    );

    it("a cell that allocates without end: a named failure and a report, not V8's abort", async () => {
      const notebook = join(FIXTURES, "memory-hog.md");
      const report = join(out, "hog.md");
      const r = await jankbook("run", notebook, "--max-memory", "200", "--out", report);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain("stopped: ts hog ran out of memory (the cells' heap is limited to 200 MB)");
      expect(cellRow(readFileSync(report, "utf8"), "ts before")).toMatch(/\| fulfilled \|/);
    });
  },
);

describe("jankbook run: reports are capped per cell", { timeout: HARD_MS }, () => {
  it("a 50 MB value: the JSON and HTML reports stay small and name the cell", async () => {
    const json = join(out, "big.json");
    const html = join(out, "big.html");
    expect((await inProcess("run", join(FIXTURES, "big-value.md"), "--out", json)).code).toBe(0);
    expect((await inProcess("run", join(FIXTURES, "big-value.md"), "--out", html)).code).toBe(0);
    expect(statSync(json).size).toBeLessThan(100_000);
    expect(statSync(html).size).toBeLessThan(100_000);
    const report = JSON.parse(readFileSync(json, "utf8"));
    const huge = report.cells.find((c: { defines: string[] }) => c.defines.includes("huge"));
    expect(huge.values.huge.omitted).toBe(
      "not embedded: cell ts huge is over the report's cap of 4,000,000 characters per cell",
    );
    expect(report.cells.find((c: { defines: string[] }) => c.defines.includes("small")).values.small).toBe(7);
    expect(readFileSync(html, "utf8")).toContain("first 2,000 of 50,000,000 characters");
  });
});

describe("jankbook run: a query's result and memory are bounded", { timeout: HARD_MS }, () => {
  it.each(["wasm", "native"])(
    "%s: a result over --max-rows or --max-result-mb, and a query over --max-memory, fail their cells by name",
    async (engine) => {
      const report = join(out, `caps-${engine}.json`);
      const r = await inProcess(
        "run",
        join(FIXTURES, "big-results.md"),
        "--engine",
        engine,
        "--max-rows",
        "2000",
        "--max-result-mb",
        "0.1",
        "--max-memory",
        "100",
        "--out",
        report,
      );
      expect(r.code, r.stderr).toBe(1);
      // 5,000 rows of one BIGINT; 1,000 rows of 200 characters each: ~0.2 MB of Arrow
      expect(r.stderr).toContain("FAIL sql many (");
      expect(r.stderr).toContain(
        "the result has 5,000 rows, over the cap of 2,000 (--max-rows): aggregate in SQL, or raise the cap",
      );
      expect(r.stderr).toMatch(
        /FAIL sql wide \(\d+ ms\): the result is 0\.[2-3]\d? MB of Arrow, over the cap of 0\.1 MB \(--max-result-mb\)/,
      );
      // a 30M-element list needs 240 MB: DuckDB's own limit (SET memory_limit from --max-memory) refuses it
      expect(r.stderr).toMatch(/FAIL sql greedy \(\d+ ms\): Out of Memory Error/);
      const cells = JSON.parse(readFileSync(report, "utf8")).cells as { defines: string[]; status: string }[];
      expect(cells.map((c) => [c.defines[0], c.status])).toEqual([
        ["small", "fulfilled"],
        ["many", "rejected"],
        ["wide", "rejected"],
        ["greedy", "rejected"],
      ]);
    },
  );
});

describe("jankbook run: load failures", { timeout: HARD_MS }, () => {
  function brokenRun(change: (dir: string) => void): string {
    const dir = join(mkdtempSync(join(out, "runs-")), "synthetic-feed-scroll");
    cpSync(SAMPLE, dir, { recursive: true });
    change(dir);
    return dir;
  }

  it("a table that fails to load fails the run, and the cell reading it shows the load error", async () => {
    const dir = brokenRun((d) => writeFileSync(join(d, "frames.arrows"), "hello"));
    const r = await inProcess("run", join(FIXTURES, "reads-frames.md"), "--runs", dir);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(
      `load failed: ${dir}/frames.arrows: table frames: truncated Arrow stream (5 bytes`,
    );
    expect(r.stderr).toMatch(
      /cell failed: sql frame_count: table frames is missing because loading failed: .*frames\.arrows: table frames: truncated Arrow stream/,
    );
    expect(r.stderr).not.toContain("pg_namespace");
  });

  it("a run whose manifest is refused fails the run, and cells say which run did not load", async () => {
    const dir = brokenRun((d) => {
      const m = JSON.parse(readFileSync(join(d, "manifest.json"), "utf8"));
      writeFileSync(join(d, "manifest.json"), JSON.stringify({ ...m, complete: "no" }));
    });
    const r = await inProcess("run", join(FIXTURES, "reads-frames.md"), "--runs", dir);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('complete: expected true or false, got "no"');
    expect(r.stderr).toMatch(
      /cell failed: sql frame_count: table frames is missing because loading failed: run .* did not load/,
    );
  });
});
