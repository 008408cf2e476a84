// writeCollectedBundle: a table that cannot be built or does not fit its schema is left out with a warning
// naming it and why; the bundle is still written with every other table and marked incomplete.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readBundleFolder } from "../../../bundle/node-io";
import { makeBundleTable } from "../../../bundle/table-builder";
import { Collection } from "../../../collectors/adb/collection";
import { writeCollectedBundle, type CollectedData } from "../../../collectors/adb/collected-bundle";
import type { DeviceShell } from "../../../collectors/adb/shell";
import { AgentLineReader } from "../../../collectors/sources/agent-lines";

let dir = "";
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const shell = { serial: "emulator-5554" } as DeviceShell; // writing touches no device
const frame = (iv: bigint, done: bigint | null) => ({
  window: "org.x/org.x.Main",
  values: { intended_vsync: iv, vsync: iv, ...(done === null ? {} : { frame_completed: done }) },
  line: 1,
});

function data(over: Partial<CollectedData>): CollectedData {
  return {
    runId: "r",
    pkg: "org.x",
    context: { app: "org.x", refresh_hz: 60 },
    synthetic: false,
    startedAt: "2026-11-24T00:00:00.000Z",
    frames: [],
    agent: new AgentLineReader().finish(),
    built: {},
    driverOutput: "",
    ...over,
  };
}

/** Writes the collection `over` describes into a fresh folder, removed after the test. */
async function written(over: Partial<CollectedData>) {
  dir = await mkdtemp(join(tmpdir(), "jankbook-written-"));
  return writeCollectedBundle(new Collection(shell), dir, data(over));
}

describe("writeCollectedBundle", () => {
  it("a table that does not fit its schema is left out and named; the frames are still written", async () => {
    const wrong = makeBundleTable("heap_samples", "r", { ts: [1n], kind: ["java_heap"], value: [5n] });
    const manifest = await written({
      frames: [frame(1_000_000_000n, 1_020_000_000n), frame(1_016_666_667n, 1_030_000_000n)],
      built: { hpc_samples: wrong },
    });
    expect(manifest.complete).toBe(false);
    const w = manifest.warnings.find((x) => x.startsWith("hpc_samples: not written"));
    expect(w).toMatch(/^hpc_samples: not written, .*; the other tables are kept$/);
    const bundle = await readBundleFolder(dir);
    expect(bundle.errors).toEqual([]);
    expect([...bundle.tables.keys()].sort()).toEqual(["frames", "runs"]);
    // hand-computed: 20 ms and 13.33 ms against a 16.67 ms deadline (60 Hz)
    const frames = bundle.tables.get("frames")!;
    expect(Array.from(frames.getChild("duration")!.toArray() as BigInt64Array)).toEqual([
      20_000_000n,
      13_333_333n,
    ]);
    expect(Array.from(frames.getChild("jank")!.toArray() as ArrayLike<boolean>).map(Boolean)).toEqual([
      true,
      false,
    ]);
  });

  it("a phase's table that throws while being built is named; the frames are still written", async () => {
    const manifest = await written({
      frames: [frame(1_000_000_000n, 1_020_000_000n)],
      built: {
        heap_samples: () => {
          throw new Error("makeBundleTable(heap_samples): column ts has 2 rows, expected 3");
        },
      },
    });
    expect(manifest.complete).toBe(false);
    expect(manifest.warnings).toContain(
      "heap_samples: not written, it could not be built (makeBundleTable(heap_samples): column ts has 2 rows, expected 3); the other tables are kept",
    );
    expect(Object.keys(manifest.tables)).toEqual(["frames"]);
  });

  it("no frames at all: no frames table, the other tables kept, incomplete with the reason", async () => {
    const heap = makeBundleTable("heap_samples", "r", {
      ts: [1n, 2n],
      kind: ["java_heap", "java_heap"],
      value: [5n, 6n],
    });
    const manifest = await written({ built: { heap_samples: heap } });
    expect(manifest.complete).toBe(false);
    expect(manifest.warnings).toContain(
      "framestats: no frame was rendered during the run (or none was read); no frames table",
    );
    const bundle = await readBundleFolder(dir);
    expect(bundle.tables.get("heap_samples")!.numRows).toBe(2);
    expect(bundle.tables.has("frames")).toBe(false);
  });

  it("a frame that never completed is kept, flagged suspect, beside the other tables (it used to lose the bundle)", async () => {
    const heap = makeBundleTable("heap_samples", "r", { ts: [1n], kind: ["java_heap"], value: [5n] });
    const manifest = await written({ frames: [frame(1_000_000_000n, null)], built: { heap_samples: heap } });
    expect(manifest.warnings.some((w) => w.startsWith("framestats: 1 frames flagged suspect"))).toBe(true);
    const bundle = await readBundleFolder(dir);
    expect(bundle.errors).toEqual([]);
    const frames = bundle.tables.get("frames")!;
    expect(frames.numRows).toBe(1);
    expect(frames.getChild("suspect")!.get(0)).toMatch(/./);
    expect(bundle.tables.get("heap_samples")!.numRows).toBe(1);
  });
});
