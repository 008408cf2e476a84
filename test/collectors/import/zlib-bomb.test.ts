// Decompression bounded: a 200 KB .ctrace (`TRACE:\n` + 200 MB of newlines, deflated) used to abort V8 ("invalid
// size error", exit 133); it is refused by size with the file, the byte and the limit named.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_INFLATED_BYTES, inflateBounded } from "../../../collectors/import/bounded-inflate";
import { importSystrace } from "../../../collectors/import/systrace";

const run = promisify(execFile);
let dir: string;
let bomb: Uint8Array;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "jb-bomb-"));
  const body = deflateSync(Buffer.alloc(200 * 1024 * 1024, 0x0a), { level: 9 });
  bomb = Buffer.concat([Buffer.from("TRACE:\n"), body]);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("a zlib bomb", () => {
  it("is about 200 KB", () => {
    expect(bomb.length).toBeGreaterThan(150_000);
    expect(bomb.length).toBeLessThan(250_000);
  });

  it("in a .ctrace is refused by size, naming file, byte and limit", () => {
    expect(() => importSystrace(bomb, "bomb.ctrace", "r")).toThrow(
      "bomb.ctrace: byte 7: zlib stream after TRACE: inflates to more than 100 MiB, more than any trace this importer reads (a zlib bomb, or a trace to split): refused",
    );
  });

  it("`jankbook import` exits 1 with that message instead of aborting", async () => {
    const file = join(dir, "bomb.ctrace");
    await writeFile(file, bomb);
    const r = await run(process.execPath, ["cli/jankbook.js", "import", file, "--out", join(dir, "out")], {
      env: { ...process.env, JANKBOOK_FROM_SOURCES: "1" },
    }).then(
      () => ({ code: 0, stderr: "" }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("inflates to more than 100 MiB");
  }, 120_000);

  it("a stream just under the limit inflates whole; one byte over is refused", () => {
    const limit = 1 << 16;
    expect(inflateBounded(deflateSync(Buffer.alloc(limit, 1)), limit).length).toBe(limit);
    expect(() => inflateBounded(deflateSync(Buffer.alloc(limit + 1, 1)), limit)).toThrow(/refused/);
    expect(MAX_INFLATED_BYTES).toBe(100 * 1024 * 1024);
  });
});
