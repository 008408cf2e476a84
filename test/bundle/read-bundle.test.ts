import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tableFromArrays, tableToIPC } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { newManifest } from "../../bundle/manifest";
import { readBundleFolder, writeBundleFolder } from "../../bundle/node-io";
import { makeBundleTable } from "../../bundle/table-builder";

function uiEvents(n: number) {
  return makeBundleTable("ui_events", "r1", {
    ts: Array.from({ length: n }, (_, i) => 1_000_000 * i),
    seq: Int32Array.from({ length: n }, (_, i) => i),
    kind: Array.from({ length: n }, (_, i) => (i % 2 ? "click" : "scroll")),
    target: Array.from({ length: n }, (_, i) => (i % 3 ? `view${i}` : null)),
  });
}

function frames(n: number) {
  const ts = Array.from({ length: n }, (_, i) => BigInt(i) * 16_666_667n);
  return makeBundleTable("frames", "r1", {
    intended_vsync: ts,
    frame_completed: ts.map((t, i) => t + BigInt(i % 5 === 0 ? 30_000_000 : 8_000_000)),
    duration: ts.map((_, i) => (i % 5 === 0 ? 30_000_000 : 8_000_000)),
    deadline: ts.map(() => 16_666_667),
    jank: ts.map((_, i) => i % 5 === 0),
  });
}

async function bundleDir() {
  const dir = await mkdtemp(join(tmpdir(), "jb-bundle-"));
  await writeBundleFolder(dir, newManifest("r1", { app: "com.example" }), {
    ui_events: uiEvents(10),
    frames: frames(50),
  });
  return dir;
}

describe("readBundleFolder", () => {
  it("round-trips tables and derives runs from the manifest", async () => {
    const b = await readBundleFolder(await bundleDir());
    expect(b.errors).toEqual([]);
    expect([...b.tables.keys()].sort()).toEqual(["frames", "runs", "ui_events"]);
    const ev = b.tables.get("ui_events")!;
    expect(ev.numRows).toBe(10);
    expect(ev.getChild("target")!.get(0)).toBeNull();
    expect(ev.getChild("target")!.get(1)).toBe("view1");
    expect(ev.getChild("ts")!.get(3)).toBe(3_000_000n);
    expect(b.tables.get("runs")!.getChild("app")!.get(0)).toBe("com.example");
    expect(b.tables.get("frames")!.getChild("jank")!.get(5)).toBe(true);
  });

  it("names file, table and column for a missing column and keeps the other tables", async () => {
    const dir = await bundleDir();
    await writeFile(
      join(dir, "ui_events.arrows"),
      tableToIPC(tableFromArrays({ ts: new BigInt64Array(2) }), "file"),
    );
    const b = await readBundleFolder(dir);
    expect(b.errors.map((e) => e.message)).toEqual([
      `${dir}/ui_events.arrows: table ui_events: missing column run_id (utf8)`,
    ]);
    expect(b.errors[0]!.table).toBe("ui_events");
    expect(b.errors[0]!.column).toBe("run_id");
    expect(b.tables.get("frames")!.numRows).toBe(50);
  });

  it("names a column of the wrong type", async () => {
    const dir = await bundleDir();
    const t = uiEvents(3);
    const bad = tableFromArrays({
      run_id: ["r1", "r1", "r1"],
      ts: new Float64Array(3),
      seq: new Int32Array(3),
      kind: ["a", "b", "c"],
    });
    expect(t.numRows).toBe(3);
    await writeFile(join(dir, "ui_events.arrows"), tableToIPC(bad, "file"));
    const b = await readBundleFolder(dir);
    expect(b.errors[0]!.message).toContain("table ui_events: column ts is float64, expected int64");
    expect(b.errors[0]!.column).toBe("ts");
  });

  it("keeps the whole record batches of a truncated file and reports it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "jb-bundle-"));
    await writeBundleFolder(dir, newManifest("r1", { app: "a" }), {
      ui_events: uiEvents(10),
      frames: frames(150_000),
    });
    const bytes = await readFile(join(dir, "frames.arrows"));
    await writeFile(join(dir, "frames.arrows"), bytes.subarray(0, bytes.length - 40));
    const b = await readBundleFolder(dir);
    expect(b.errors).toHaveLength(1);
    expect(b.errors[0]!.message).toMatch(
      /frames\.arrows: table frames: truncated Arrow stream \(\d+ bytes; kept 131072 rows from 2 whole record batches/,
    );
    expect(b.tables.get("frames")!.numRows).toBe(131_072);
    expect(b.tables.get("frames")!.getChild("intended_vsync")!.get(131_071)).toBe(131_071n * 16_666_667n);
    expect(b.tables.get("ui_events")!.numRows).toBe(10);
  });

  it("reports a file cut inside its only batch as an error, not as an empty table", async () => {
    const dir = await bundleDir();
    const bytes = await readFile(join(dir, "frames.arrows"));
    await writeFile(join(dir, "frames.arrows"), bytes.subarray(0, 300));
    const b = await readBundleFolder(dir);
    expect(b.errors[0]!.message).toMatch(
      /frames\.arrows: table frames: truncated Arrow stream \(300 bytes, no complete schema/,
    );
    expect(b.tables.has("frames")).toBe(false);
    expect(b.tables.get("ui_events")!.numRows).toBe(10);
  });

  it("refuses a manifest with a newer schema version, saying so", async () => {
    const dir = await bundleDir();
    const m = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8"));
    await writeFile(join(dir, "manifest.json"), JSON.stringify({ ...m, schema_version: 99 }));
    await expect(readBundleFolder(dir)).rejects.toThrow(
      /manifest.json: schema_version 99 is newer than this jankbook understands \(1\)/,
    );
  });

  it("reads the Arrow IPC file format too (a manifest without checksums, as older bundles have)", async () => {
    const dir = await bundleDir();
    const { tableToIPC: toIPC } = await import("apache-arrow");
    await writeFile(join(dir, "ui_events.arrows"), toIPC(uiEvents(4), "file"));
    const m = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8"));
    m.tables.ui_events = { file: "ui_events.arrows", rows: 4 };
    delete m.tables.frames.crc32;
    await writeFile(join(dir, "manifest.json"), JSON.stringify(m));
    const b = await readBundleFolder(dir);
    expect(b.errors).toEqual([]);
    expect(b.tables.get("ui_events")!.numRows).toBe(4);
  });

  it("rejects bytes that are not Arrow", async () => {
    const dir = await bundleDir();
    await writeFile(join(dir, "frames.arrows"), "hello");
    const b = await readBundleFolder(dir);
    expect(b.errors[0]!.message).toContain("frames.arrows: table frames: not Arrow IPC");
  });
});
