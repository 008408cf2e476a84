// A lake that loses nothing: concurrent `lake add` processes each keep their run, a run.duckdb is trusted only
// when it belongs to its manifest, `pack` refuses a changed table, `lake add` writes only into a lake.
import { execFile } from "node:child_process";
import { appendFile, copyFile, cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crc32, crc32Hex } from "../../bundle/crc32";
import { RUN_SUMMARY, lakeAdd } from "../../workspace/db/node/lake-add";
import { LAKE_LOCK, withLakeLock } from "../../bundle/lake-lock";
import { parseManifest } from "../../bundle/manifest";
import { readBundleFolder } from "../../bundle/node-io";
import { PACK_FILE, packBundle } from "../../workspace/db/node/pack-bundle";
import { RunViews } from "../../workspace/db/run-views";
import { createNativeEngine } from "../../workspace/db/node/duckdb-native";

const run = promisify(execFile);
const SAMPLES = "workspace/public/samples";
// three runs of one app (com.fsck.k9): they share run_summary/app=com.fsck.k9/summary.parquet
const RUNS = ["k9-pixel-2-android9-r1", "k9-pixel-2-android9-r2", "k9-galaxy-s21-android12-r1"];

let tmp: string;
let instance: DuckDBInstance;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "jb-lake-safety-"));
  instance = await DuckDBInstance.create(":memory:");
});
afterAll(async () => {
  instance.closeSync();
  await rm(tmp, { recursive: true, force: true });
});

async function summaryRuns(lake: string): Promise<string[]> {
  const c = await instance.connect();
  try {
    const rows = await c.runAndReadAll(
      `SELECT run_id FROM read_parquet('${lake}/${RUN_SUMMARY}/**/*.parquet', hive_partitioning = true) ORDER BY 1`,
    );
    return rows.getRows().map((r) => String(r[0]));
  } finally {
    c.closeSync();
  }
}

/** A copy of a sample run with each table's CRC-32 in its manifest (the samples carry none). */
async function copyRun(name: string, to: string): Promise<string> {
  await cp(join(SAMPLES, name), to, { recursive: true });
  const path = join(to, "manifest.json");
  const m = JSON.parse(await readFile(path, "utf8"));
  for (const entry of Object.values(m.tables) as { file: string; crc32?: string }[])
    entry.crc32 = crc32Hex(crc32(await readFile(join(to, entry.file))));
  await writeFile(path, JSON.stringify(m));
  return to;
}

describe("concurrent lake add", () => {
  it("two `jankbook lake add` processes of one app's runs into one lake, 10 times: both runs have their summary row", async () => {
    for (let trial = 0; trial < 10; trial++) {
      const lake = join(tmp, `lake-${trial}`);
      const results = await Promise.all(
        RUNS.slice(0, 2).map((r) =>
          run(process.execPath, ["cli/jankbook.js", "lake", "add", join(SAMPLES, r), "--lake", lake], {
            env: { ...process.env, JANKBOOK_FROM_SOURCES: "1" },
          }).then(
            () => 0,
            (e: { code: number; stderr: string }) => `exit ${e.code}: ${e.stderr}`,
          ),
        ),
      );
      expect(results, `trial ${trial}`).toEqual([0, 0]);
      expect(await summaryRuns(lake), `trial ${trial}`).toEqual(RUNS.slice(0, 2).sort());
    }
  }, 600_000);

  it("a lock left by a process that is gone is broken; a live one is waited for", async () => {
    const lake = join(tmp, "stale");
    await mkdir(lake);
    // pid 2^22+1 is above Linux's pid_max default range for a live process here
    await writeFile(
      join(lake, LAKE_LOCK),
      JSON.stringify({
        pid: 4194305,
        host: (await import("node:os")).hostname(),
        token: "dead",
        since: Date.now(),
      }),
    );
    expect(await withLakeLock(lake, async () => "ran")).toBe("ran");
    const order: string[] = [];
    let waited = "";
    await Promise.all([
      withLakeLock(lake, async () => {
        order.push("a+");
        await new Promise((r) => setTimeout(r, 300));
        order.push("a-");
      }),
      new Promise((r) => setTimeout(r, 50)).then(() =>
        withLakeLock(lake, async () => void order.push("b"), { onWait: (h) => (waited = h) }),
      ),
    ]);
    expect(order).toEqual(["a+", "a-", "b"]);
    expect(waited).toBe(`process ${process.pid} on ${(await import("node:os")).hostname()}`);
  });
});

describe("a run.duckdb belongs to its manifest", () => {
  let a: string;
  let b: string;
  beforeAll(async () => {
    a = await copyRun(RUNS[0]!, join(tmp, "a"));
    b = await copyRun(RUNS[1]!, join(tmp, "b"));
    expect((await packBundle(a)).errors).toEqual([]);
    expect((await packBundle(b)).errors).toEqual([]);
    await copyFile(join(a, PACK_FILE), join(b, PACK_FILE)); // run a's database in run b's bundle
  });

  it("lake add refuses another run's database and names both runs", async () => {
    const lake = join(tmp, "own-lake");
    await expect(lakeAdd(lake, [b])).rejects.toThrow(
      `${join(b, PACK_FILE)}: this database holds run ${RUNS[0]}, but the manifest is run ${RUNS[1]}`,
    );
    expect(await summaryRuns(lake).catch(() => [])).toEqual([]);
  });

  it("the workspace does not attach it (the caller streams the Arrow files instead)", async () => {
    const engine = await createNativeEngine();
    try {
      const views = new RunViews(engine);
      const manifest = parseManifest(await readFile(join(b, "manifest.json"), "utf8"));
      await expect(
        views.attach(manifest.run_id, "b", { path: join(b, PACK_FILE) }, manifest.database!, manifest),
      ).rejects.toThrow(
        /this database holds run k9-pixel-2-android9-r1, but the manifest is run k9-pixel-2-android9-r2/,
      );
      // its own database attaches
      const own = parseManifest(await readFile(join(a, "manifest.json"), "utf8"));
      const report = await views.attach(own.run_id, "a", { path: join(a, PACK_FILE) }, own.database!, own);
      expect(report.errors).toEqual([]);
    } finally {
      await engine.close();
    }
  });

  it("a table the manifest's database entry does not list is named as such, not as 'manifest says nothing rows'", async () => {
    const engine = await createNativeEngine();
    try {
      const own = parseManifest(await readFile(join(a, "manifest.json"), "utf8"));
      const { tasks: _dropped, ...rest } = own.database!.tables;
      const report = await new RunViews(engine).attach(
        own.run_id,
        "a",
        { path: join(a, PACK_FILE) },
        { ...own.database!, tables: rest },
        own,
      );
      expect(report.errors).toEqual([
        `a/${PACK_FILE}: table tasks (2 rows) is in the database but its manifest entry does not list it`,
      ]);
    } finally {
      await engine.close();
    }
  });

  it("a database packed from a table with another CRC-32 is refused even under the same run id", async () => {
    const c = await copyRun(RUNS[0]!, join(tmp, "c"));
    expect((await packBundle(c)).errors).toEqual([]);
    const path = join(c, "manifest.json");
    const m = JSON.parse(await readFile(path, "utf8"));
    m.tables.frames.crc32 = "00000000";
    await writeFile(path, JSON.stringify(m));
    await expect(lakeAdd(join(tmp, "crc-lake"), [c])).rejects.toThrow(
      /table frames was packed from a file with CRC-32 [0-9a-f]{8}, the manifest says 00000000/,
    );
  });

  it("pack refuses a table whose file no longer has the manifest's CRC-32 and packs the rest", async () => {
    const d = await copyRun(RUNS[0]!, join(tmp, "d"));
    const frames = join(d, "frames.arrows");
    const bytes = await readFile(frames);
    bytes[bytes.length - 100]! ^= 0x01; // one bit of a value in the last record batch
    await writeFile(frames, bytes);
    const { manifest, errors } = await packBundle(d);
    expect(errors).toEqual([
      expect.stringMatching(/frames\.arrows: table frames: checksum mismatch: the manifest says CRC-32/),
    ]);
    expect(Object.keys(manifest.database!.tables)).not.toContain("frames");
    expect(manifest.database!.tables.tasks).toBe(2);
  });
});

describe("lake add writes only into a lake", () => {
  it("refuses a folder with other files in it, and writes nothing there", async () => {
    const home = join(tmp, "home");
    await mkdir(home);
    await writeFile(join(home, "notes.txt"), "mine\n");
    await expect(lakeAdd(home, [join(SAMPLES, RUNS[0]!)])).rejects.toThrow(
      `${home}: not a jankbook lake (no .jankbook-lake file) and not empty (notes.txt): refusing to write into it`,
    );
    const { readdir } = await import("node:fs/promises");
    expect(await readdir(home)).toEqual(["notes.txt"]);
  });

  it("takes an empty folder, a lake it made, and a lake made before the marker existed", async () => {
    const empty = join(tmp, "empty");
    await mkdir(empty);
    await lakeAdd(empty, [join(SAMPLES, RUNS[0]!)]);
    await lakeAdd(empty, [join(SAMPLES, RUNS[1]!)]);
    expect(await summaryRuns(empty)).toEqual([RUNS[0], RUNS[1]]);
    await rm(join(empty, ".jankbook-lake"));
    await lakeAdd(empty, [join(SAMPLES, RUNS[2]!)]);
    expect(await summaryRuns(empty)).toEqual([...RUNS].sort());
  });
});

describe("a symlinked table file", () => {
  it("pointing outside the bundle is refused by the reader and by pack", async () => {
    const e = await copyRun(RUNS[0]!, join(tmp, "e"));
    const outside = join(tmp, "outside.arrows");
    await copyFile(join(e, "tasks.arrows"), outside);
    await rm(join(e, "tasks.arrows"));
    await symlink(outside, join(e, "tasks.arrows"));
    const read = await readBundleFolder(e);
    expect(read.errors.map((x) => x.message)).toEqual([
      expect.stringContaining(
        `tasks.arrows: a symbolic link to ${outside}, outside the bundle folder: refused`,
      ),
    ]);
    expect(read.tables.has("tasks")).toBe(false);
    const { errors } = await packBundle(e);
    expect(errors).toEqual([expect.stringContaining("outside the bundle folder: refused")]);
    await appendFile(outside, ""); // the file outside is untouched
  });
});
