// `jankbook import` (and the commands that read a run folder) say what happened: a logcat file that only lacks its
// final newline imports whole with a warning (exit 0), one cut inside its last line is partial (exit 2); a Perfetto
// trace without FrameTimeline lists what it imported instead, never claiming tables it did not write; a missing
// path or a file where a folder belongs is named with what was expected, never a bare ENOENT/ENOTDIR.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, spawnJankbook } from "../support/cli";

const tmp = await mkdtemp(join(tmpdir(), "jb-import-outcomes-"));
afterAll(() => rm(tmp, { recursive: true, force: true }));
const LOGHUB = join(ROOT, "test/fixtures/logcat/loghub_Android_2k_threadtime.log");
const jankbook = (...args: string[]) => spawnJankbook(args);

describe("jankbook import: exit codes and messages match what happened", () => {
  it("a logcat file whose last line is whole but has no newline: every line, a warning, exit 0", async () => {
    const text = await readFile(LOGHUB, "utf8");
    expect(text.endsWith("\n")).toBe(false); // the fixture as loghub ships it
    const r = await jankbook("import", LOGHUB, "--out", join(tmp, "whole"));
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toContain("logcat: logcat 2000");
    expect(r.stdout).toContain(
      "warning: loghub_Android_2k_threadtime.log line 2000: no newline at the end; the line reads as a whole log line",
    );
    expect(r.stdout).not.toContain("[incomplete]");
  });

  it("a logcat file cut inside its last line's header: partial, exit 2", async () => {
    const cut = join(tmp, "cut.log");
    await writeFile(cut, `${await readFile(LOGHUB, "utf8")}\n03-17 16:16:09.2`);
    const r = await jankbook("import", cut, "--out", join(tmp, "cut"));
    expect(r.code, r.stderr + r.stdout).toBe(2);
    expect(r.stdout).toContain("[incomplete]");
    expect(r.stdout).toContain(
      "cut.log line 2001: no newline at the end: the file may be cut inside this line",
    );
  });

  it("a framestats dump whose last line is whole but has no newline: complete, with a warning, exit 0", async () => {
    const fixture = join(ROOT, "test/fixtures/gfxinfo/jankbook_android14_two-windows_framestats.txt");
    const text = await readFile(fixture, "utf8");
    const lines = text.trimEnd().split("\n");
    expect(lines.at(-1)).toBe("Total RenderNode     : 75.35 kB (used) / 80.00 kB (capacity)");
    const [whole, cut] = [join(tmp, "whole-framestats.txt"), join(tmp, "cut-framestats.txt")];
    await writeFile(whole, text.trimEnd());
    await writeFile(cut, text.trimEnd().slice(0, -15)); // inside "80.00 kB (capacity)"
    const [a, b] = await Promise.all([
      jankbook("import", whole, "--out", join(tmp, "fs1")),
      jankbook("import", cut, "--out", join(tmp, "fs2")),
    ]);
    expect(a.code, a.stdout + a.stderr).toBe(0);
    expect(a.stdout).toContain(
      `line ${lines.length}: no newline at the end; the line reads as a whole line of the dump`,
    );
    expect(b.code, b.stdout + b.stderr).toBe(2);
    expect(b.stdout).toContain(
      `line ${lines.length}: no newline at the end: the file was cut inside this line`,
    );
  });

  it("a Perfetto trace without FrameTimeline says what was imported instead, and nothing it did not import", async () => {
    const [empty, slices] = await Promise.all([
      jankbook(
        "import",
        join(ROOT, "test/fixtures/perfetto/difftest_config_metadata.pftrace"),
        "--out",
        join(tmp, "p1"),
      ),
      jankbook(
        "import",
        join(ROOT, "test/fixtures/perfetto/difftest_android_async_slice.pftrace"),
        "--out",
        join(tmp, "p2"),
      ),
    ]);
    expect(empty.stdout).toContain("perfetto: no tables");
    expect(empty.stdout).toContain("nothing else in it was imported either");
    expect(empty.stdout).not.toMatch(/were imported/);
    expect(slices.stdout).toContain("perfetto: slices 1");
    expect(slices.stdout).toContain("so no frames: FrameTimeline needs Android 12+");
    expect(slices.stdout).toContain("imported: slices (1)");
  });

  it("a missing path, or a file where a folder belongs: named, with what was expected, exit 1", async () => {
    const missing = join(tmp, "no-such-run");
    const file = join(tmp, "a-file.txt");
    await writeFile(file, "not a run\n");
    const cases: [string[], string][] = [
      [["info", missing], `${missing}: not a run folder (no manifest.json in it; the folder does not exist)`],
      [["info", file], `${file}: a file, where a run folder (with manifest.json) was expected`],
      [["pack", missing], `${missing}: not a run folder (no manifest.json in it; the folder does not exist)`],
      [["pack", file], `${file}: a file, where a run folder (with manifest.json) was expected`],
      [
        ["lake", "add", file, "--lake", join(tmp, "lake")],
        `${file}: a file, where a run folder (with manifest.json) was expected`,
      ],
      [["import", LOGHUB, "--out", file], `${file}: a file, where a folder to write into was expected`],
      [["run", join(tmp, "missing.md")], `${join(tmp, "missing.md")}: no such file or folder`],
      [["import", missing, "--out", join(tmp, "x")], `${missing}: cannot read (no such file)`],
    ];
    const runs = await Promise.all(cases.map(([args]) => jankbook(...args)));
    runs.forEach((r, i) => {
      expect(r.code, cases[i]![0].join(" ")).toBe(1);
      expect(r.stderr).toContain(`jankbook: ${cases[i]![1]}`);
      expect(r.stderr).not.toMatch(/\bE[A-Z]{3,}: /); // no bare ENOENT: / ENOTDIR:
    });
  });
});
