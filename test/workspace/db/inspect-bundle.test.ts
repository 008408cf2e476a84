// `jankbook info` without decoding tables: it walks each Arrow stream with the splitter `run` loads it with, so a
// bit flip `run` refuses in a bundle without checksums is refused by info too (the whole-table decode it used
// before passed this one), and a packed run's rows come from its database's catalog.
import { execFile } from "node:child_process";
import { copyFile, cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspectBundle } from "../../../workspace/db/node/inspect-bundle";
import { PACK_FILE, packBundle } from "../../../workspace/db/node/pack-bundle";
import { prepareBundle } from "../../../bundle/prepare-bundle";
import { folderSource } from "../../../bundle/node-io";

const run = promisify(execFile);
const SAMPLES = "workspace/public/samples";
const A = "k9-pixel-2-android9-r1";
const B = "k9-pixel-2-android9-r2";
let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "jb-info-"));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

/** The errors `run`'s loader (prepareBundle, drained) reports for a bundle. */
async function loaderErrors(dir: string): Promise<string[]> {
  const b = await prepareBundle(folderSource(dir));
  const out: string[] = [];
  for (const t of b.tables) {
    for await (const chunk of t.chunks) void chunk;
    out.push(...(await t.done).errors.map((e) => e.message));
  }
  return out;
}

describe("inspectBundle", () => {
  it("gives every table's rows as the manifest and the Arrow files have them", async () => {
    const r = await inspectBundle(join(SAMPLES, A));
    const m = JSON.parse(await readFile(join(SAMPLES, A, "manifest.json"), "utf8"));
    expect(r.errors).toEqual([]);
    expect(r.tables).toEqual([
      { name: "runs", rows: 1 },
      ...Object.entries(m.tables as Record<string, { rows: number }>).map(([name, t]) => ({
        name,
        rows: t.rows,
      })),
    ]);
  });

  it("a flipped bit in the second message's continuation marker (no checksums in the manifest): refused, as run refuses it", async () => {
    const dir = join(tmp, "flip");
    await cp(join(SAMPLES, A), dir, { recursive: true });
    const file = join(dir, "frames.arrows");
    const bytes = await readFile(file);
    // IPC stream framing: 0xFFFFFFFF, int32 metadata length, metadata (padded to 8); the schema has no body
    const second = 8 + bytes.readInt32LE(4);
    expect(bytes.readUInt32LE(second)).toBe(0xffffffff);
    bytes[second + 3]! ^= 0x01;
    await writeFile(file, bytes);
    const expected = `${file}: table frames: no message continuation marker at byte offset ${second}`;
    expect(await loaderErrors(dir)).toEqual([expected]);
    expect((await inspectBundle(dir)).errors).toEqual([expected]);
    const cli = await run(process.execPath, ["cli/jankbook.js", "info", dir], {
      env: { ...process.env, JANKBOOK_FROM_SOURCES: "1" },
    }).then(
      () => ({ code: 0, stderr: "" }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain(expected);
  }, 60_000);

  it("a packed run: rows from the database's catalog; another run's run.duckdb is named", async () => {
    const a = join(tmp, "a");
    const b = join(tmp, "b");
    await cp(join(SAMPLES, A), a, { recursive: true });
    await cp(join(SAMPLES, B), b, { recursive: true });
    const packed = await packBundle(a);
    await packBundle(b);
    const r = await inspectBundle(a);
    expect(r.errors).toEqual([]);
    expect(r.database).toEqual({ file: PACK_FILE, tables: packed.manifest.database!.tables });
    await copyFile(join(a, PACK_FILE), join(b, PACK_FILE));
    expect((await inspectBundle(b)).errors).toEqual([
      expect.stringContaining(`this database holds run ${A}, but the manifest is run ${B}`),
    ]);
  });
});
