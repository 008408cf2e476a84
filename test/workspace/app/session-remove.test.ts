// Session.remove: a run's rows leave every table, the other runs' rows stay exactly as they were (counted per
// table and run before the removal, by SQL), and a run that failed to load is just dropped from the list.
import { cp, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { folderSource } from "../../../bundle/node-io";
import { packBundle } from "../../../bundle/pack-bundle";
import { Session } from "../../../workspace/app/session";
import { listTables, type SqlEngine } from "../../../workspace/db/engine";
import { createNodeEngine } from "../../../workspace/node/duckdb-node";

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

/** Loads A then B (streamed, or attached from their packed database files), with the runs' labels. */
async function twoRuns(attached: boolean): Promise<{ session: Session; labels: [string, string] }> {
  const dirs = attached ? [await packedCopy(A), await packedCopy(B)] : [join(SAMPLES, A), join(SAMPLES, B)];
  const session = new Session(await createNodeEngine());
  const runs = await session.load(dirs.map((d) => folderSource(d)));
  expect(runs.map((r) => r.errors)).toEqual([[], []]);
  expect(runs.map((r) => r.path)).toEqual(attached ? ["attached", "attached"] : ["streamed", "streamed"]);
  return { session, labels: [runs[0]!.label, runs[1]!.label] };
}

describe("Session.remove", () => {
  for (const attached of [false, true])
    it(`removes one of two ${attached ? "attached" : "streamed"} runs and keeps the other's rows exactly`, async () => {
      const { session, labels } = await twoRuns(attached);
      const engine = session.engine;
      const before = await countsByRun(engine);
      // both runs are in frames, and the sample runs' tables are not all the same
      expect(Object.keys(before.frames!).sort()).toEqual([A, B].sort());
      expect(before.frames![A]).toBeGreaterThan(0);
      let changes = 0;
      session.addEventListener("change", () => changes++);
      const removed = await session.remove(labels[0]);
      expect(removed?.manifest?.run_id).toBe(A);
      expect(changes).toBe(1);
      expect(session.runs.map((r) => r.manifest?.run_id)).toEqual([B]);
      const after = await countsByRun(engine);
      // every table that remains holds B's rows as before and none of A's
      const expected = without(before, A);
      for (const table of Object.keys(after)) expect([table, after[table]]).toEqual([table, expected[table]]);
      // a table only A had is gone or empty, never left with A's rows
      for (const table of Object.keys(before).filter((t) => !(t in after)))
        expect(expected[table]).toEqual({});
      expect(session.hasTable("frames")).toBe(true);
      const runsTable = await engine.query("SELECT run_id FROM runs");
      expect(runsTable.toArray().map((r) => String(r.run_id))).toEqual([B]);
      await engine.close();
    });

  it("drops a run that failed to load, touching no table", async () => {
    const { session } = await twoRuns(false);
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
    const { session, labels } = await twoRuns(false);
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
});
