// Session.remove: a run's rows leave every table, the other runs' rows stay exactly as they were (counted per
// table and run before the removal, by SQL), and a run that failed to load is just dropped from the list.
import { cp, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { folderSource } from "../../../bundle/node-io";
import { packBundle } from "../../../workspace/db/node/pack-bundle";
import { removeRun } from "../../../workspace/app/remove-run";
import { Session } from "../../../workspace/app/session";
import { listTables, type SqlEngine } from "../../../workspace/db/engine";
import { createNodeEngine } from "../../../workspace/db/node/duckdb-node";

const SAMPLES = "workspace/public/samples";
const A = "k9-galaxy-s21-android12-r1";
const B = "k9-pixel-2-android9-r1";

/** table -> run_id -> rows, read by SQL from every table the engine lists. */
async function countsByRun(engine: SqlEngine): Promise<Record<string, Record<string, number>>> {
  const out: Record<string, Record<string, number>> = {};
  for (const { name } of await listTables(engine)) {
    const t = await engine.query(
      `SELECT run_id, count(*)::INTEGER AS n FROM "${name}" GROUP BY run_id ORDER BY run_id`,
    );
    out[name] = Object.fromEntries(t.toArray().map((r) => [String(r.run_id), Number(r.n)]));
  }
  return out;
}

/** The counts with one run left out; tables that held only it end up empty. */
function without(counts: Record<string, Record<string, number>>, runId: string) {
  return Object.fromEntries(
    Object.entries(counts).map(([table, byRun]) => {
      const { [runId]: _, ...rest } = byRun;
      return [table, rest];
    }),
  );
}

async function packedCopy(run: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "jb-remove-"));
  await cp(join(SAMPLES, run), dir, { recursive: true });
  expect((await packBundle(dir)).errors).toEqual([]);
  return dir;
}

type Path = "streamed" | "attached";

/** Loads A then B, each streamed or attached from its packed database file, with the runs' labels. */
async function twoRuns(paths: [Path, Path] = ["streamed", "streamed"]) {
  const dirs = await Promise.all(
    [A, B].map((run, i) => (paths[i] === "attached" ? packedCopy(run) : join(SAMPLES, run))),
  );
  const session = new Session(await createNodeEngine());
  const runs = await session.load(dirs.map((d) => folderSource(d)));
  expect(runs.map((r) => r.errors)).toEqual([[], []]);
  expect(runs.map((r) => r.path)).toEqual(paths);
  return { session, labels: [runs[0]!.label, runs[1]!.label] as [string, string] };
}

describe("Session.remove", () => {
  const cases: [Path, Path, 0 | 1][] = [
    ["streamed", "streamed", 0],
    ["attached", "attached", 0],
    // mixed: the streamed rows sit beside the attached run's (a `__streamed` table under the view)
    ["streamed", "attached", 0],
    ["streamed", "attached", 1],
  ];
  for (const [pathA, pathB, gone] of cases)
    it(`of two runs (${pathA}, ${pathB}), removes the ${gone ? "second" : "first"} and keeps the other's rows exactly`, async () => {
      const { session, labels } = await twoRuns([pathA, pathB]);
      const [goneId, keptId] = gone ? [B, A] : [A, B];
      const engine = session.engine;
      const before = await countsByRun(engine);
      // both runs are in frames, and the sample runs' tables are not all the same
      expect(Object.keys(before.frames!).sort()).toEqual([A, B].sort());
      expect(before.frames![goneId]).toBeGreaterThan(0);
      let changes = 0;
      session.addEventListener("change", () => changes++);
      const removed = await session.remove(labels[gone]);
      expect(removed?.manifest?.run_id).toBe(goneId);
      expect(changes).toBe(1);
      expect(session.runs.map((r) => r.manifest?.run_id)).toEqual([keptId]);
      const after = await countsByRun(engine);
      // every table that remains holds B's rows as before and none of A's
      const expected = without(before, goneId);
      for (const table of Object.keys(after)) expect([table, after[table]]).toEqual([table, expected[table]]);
      // a table only A had is gone or empty, never left with A's rows
      for (const table of Object.keys(before).filter((t) => !(t in after)))
        expect(expected[table]).toEqual({});
      expect(session.hasTable("frames")).toBe(true);
      const runsTable = await engine.query("SELECT run_id FROM runs");
      expect(runsTable.toArray().map((r) => String(r.run_id))).toEqual([keptId]);
      await engine.close();
    });

  it("drops a run that failed to load, touching no table", async () => {
    const { session } = await twoRuns();
    const [failed] = await session.load([folderSource(join(tmpdir(), "jb-remove-no-such-run"))]);
    expect(failed!.manifest).toBeUndefined();
    expect(failed!.errors.length).toBeGreaterThan(0);
    const before = await countsByRun(session.engine);
    expect(await session.remove(failed!.label)).toBe(failed);
    expect(session.runs.map((r) => r.manifest?.run_id)).toEqual([A, B]);
    expect(await countsByRun(session.engine)).toEqual(before);
    expect(await session.remove("no such label")).toBeUndefined();
    await session.engine.close();
  });

  it("a failed duplicate (same label as the loaded run) goes first, without taking the loaded run's rows", async () => {
    const { session, labels } = await twoRuns();
    const [duplicate] = await session.load([folderSource(join(SAMPLES, B))]);
    expect(duplicate!.errors.join()).toMatch(/already loaded/);
    expect(duplicate!.label).toBe(labels[1]);
    const before = await countsByRun(session.engine);
    expect(before.frames![B]).toBeGreaterThan(0);
    expect(await session.remove(labels[1])).toBe(duplicate);
    expect(session.runs.map((r) => [r.manifest?.run_id, r.errors.length])).toEqual([
      [A, 0],
      [B, 0],
    ]);
    expect(await countsByRun(session.engine)).toEqual(before);
    await session.engine.close();
  });

  it("removeRun: a URL run's toast offers its URL back; a dropped run's says it cannot be re-read", async () => {
    const { session, labels } = await twoRuns();
    expect(await removeRun(session, labels[0], true)).toEqual({
      message: `removed ${A}`,
      undo: `${labels[0]}/`,
      dropped: false,
    });
    const dropped = await removeRun(session, labels[1], false);
    expect(dropped?.undo).toBeUndefined();
    expect(dropped?.dropped).toBe(true);
    expect(dropped?.message).toMatch(
      new RegExp(`^removed ${B}: it was dropped from disk and cannot be re-read`),
    );
    expect(session.runs).toEqual([]);
    expect(await removeRun(session, labels[1], false)).toBeUndefined();
    await session.engine.close();
  });
});
