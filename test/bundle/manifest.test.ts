import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { crc32, crc32Hex } from "../../bundle/crc32";
import { newManifest, parseManifest } from "../../bundle/manifest";
import { folderSource, readBundleFolder, writeBundleFolder } from "../../bundle/node-io";
import { prepareBundle } from "../../bundle/prepare-bundle";
import { makeBundleTable } from "../../bundle/table-builder";

const GOOD = {
  schema_version: 1,
  run_id: "r1",
  context: { app: "com.example", api_level: 33 },
  complete: true,
  tables: { frames: { file: "frames.arrows", rows: 3 } },
};
const withField = (path: string, value: unknown) => {
  const m = structuredClone(GOOD) as Record<string, unknown>;
  const keys = path.split(".");
  let o = m;
  for (const k of keys.slice(0, -1)) o = o[k] as Record<string, unknown>;
  o[keys.at(-1)!] = value;
  return JSON.stringify(m);
};

function uiEvents(n: number) {
  return makeBundleTable("ui_events", "r1", {
    ts: Array.from({ length: n }, (_, i) => 1_000_000 * i),
    seq: Int32Array.from({ length: n }, (_, i) => i),
    kind: Array.from({ length: n }, () => "click"),
    target: Array.from({ length: n }, () => null),
  });
}

describe("parseManifest: the schema", () => {
  it("accepts a good manifest, and one without optional fields", () => {
    expect(parseManifest(JSON.stringify(GOOD)).complete).toBe(true);
    expect(parseManifest(withField("complete", false)).complete).toBe(false);
  });

  it.each([
    ["complete", "no", 'm.json: complete: expected true or false, got "no"'],
    [
      "context.api_level",
      "thirty-three",
      'm.json: context.api_level: expected an integer or null, got "thirty-three"',
    ],
    ["schema_version", 0, "m.json: schema_version: expected an integer from 1, got 0"],
    ["schema_version", "1", 'm.json: schema_version: expected an integer from 1, got "1"'],
    ["synthetic", 1, "m.json: synthetic: expected true or false, got 1"],
    ["warnings", ["a", 2], 'm.json: warnings: expected an array of strings, got ["a",2]'],
    ["context.app", 7, "m.json: context.app: expected a string, got 7"],
    ["tables.frames.rows", -1, "m.json: tables.frames.rows: expected a row count, got -1"],
    ["tables.frames.rows", "3", 'm.json: tables.frames.rows: expected a row count, got "3"'],
    ["tables.frames.crc32", "xyz", 'm.json: tables.frames.crc32: expected 8 hex digits, got "xyz"'],
    ["clock", { domain: "x", offset_ns: "0" }, 'm.json: clock.offset_ns: expected a number, got "0"'],
    ["sources", [{ kind: "x" }], "m.json: sources[0].origin missing"],
  ])("refuses %s = %j, naming the field", (path, value, message) => {
    expect(() => parseManifest(withField(path, value), "m.json")).toThrow(message);
  });

  it.each(["../../etc/hostname", "/etc/hostname", "sub/frames.arrows", "..", ".hidden", "a\\b", "x..y"])(
    "refuses the table file %j (outside the bundle or not a plain name)",
    (file) => {
      expect(() => parseManifest(withField("tables.frames.file", file), "m.json")).toThrow(
        `m.json: tables.frames.file: ${JSON.stringify(file)} is not a plain file name inside the bundle`,
      );
    },
  );

  it("never reads a file outside the bundle: the manifest is refused before any table is read", async () => {
    const dir = await mkdtemp(join(tmpdir(), "jb-manifest-"));
    await writeFile(join(dir, "manifest.json"), withField("tables.frames.file", "../../etc/hostname"));
    const asked: string[] = [];
    const source = { ...folderSource(dir), label: dir };
    const spy = { ...source, read: (f: string) => (asked.push(f), source.read(f)) };
    await expect(prepareBundle(spy)).rejects.toThrow("is not a plain file name inside the bundle");
    await expect(readBundleFolder(dir)).rejects.toThrow("is not a plain file name inside the bundle");
    expect(asked).toEqual(["manifest.json"]);
  });
});

describe("table checksums (CRC-32)", () => {
  it("crc32 is the standard CRC-32: the check value of '123456789' is cbf43926, in pieces too", () => {
    const bytes = new TextEncoder().encode("123456789");
    expect(crc32Hex(crc32(bytes))).toBe("cbf43926");
    expect(crc32(bytes.subarray(4), crc32(bytes.subarray(0, 4)))).toBe(0xcbf43926);
  });

  async function written() {
    const dir = await mkdtemp(join(tmpdir(), "jb-crc-"));
    const m = await writeBundleFolder(dir, newManifest("r1", { app: "a" }), { ui_events: uiEvents(20) });
    return { dir, m };
  }

  it("the writer records each table file's CRC-32", async () => {
    const { dir, m } = await written();
    const bytes = new Uint8Array(await readFile(join(dir, "ui_events.arrows")));
    expect(m.tables.ui_events!.crc32).toBe(crc32Hex(crc32(bytes)));
    expect(JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")).tables.ui_events.crc32).toMatch(
      /^[0-9a-f]{8}$/,
    );
  });

  it("a changed byte that still decodes is reported on both load paths; without a checksum it is not", async () => {
    const { dir } = await written();
    const path = join(dir, "ui_events.arrows");
    const bytes = new Uint8Array(await readFile(path));
    // The last "click" string's final byte: the table still decodes, one value is now "clicj".
    const at = bytes.lastIndexOf(0x6b); // 'k'
    bytes[at] = 0x6a;
    await writeFile(path, bytes);
    const decoded = await readBundleFolder(dir);
    expect(decoded.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(
        /ui_events\.arrows: table ui_events: checksum mismatch: the manifest says CRC-32 [0-9a-f]{8}, the file has [0-9a-f]{8}/,
      ),
    ]);
    expect(decoded.tables.get("ui_events")!.numRows).toBe(20);
    const prepared = await prepareBundle(folderSource(dir));
    const done = await Promise.all(prepared.tables.map((t) => t.done));
    expect(done.flatMap((d) => d.errors.map((e) => e.message))).toEqual([
      expect.stringContaining("table ui_events: checksum mismatch"),
    ]);
    const m = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8"));
    delete m.tables.ui_events.crc32;
    await writeFile(join(dir, "manifest.json"), JSON.stringify(m));
    expect((await readBundleFolder(dir)).errors).toEqual([]);
  });
});
