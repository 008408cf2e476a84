import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { buildDecision, newestFile, writeBuildStamp } from "../../../workspace/node/build-cache";
import { cacheControl } from "../../../workspace/node/static-server";

const tmp = mkdtempSync(join(tmpdir(), "jb-build-cache-"));
const dist = join(tmp, "dist");
const T0 = Date.UTC(2026, 0, 1) / 1000; // seconds, as utimes takes them

/** Writes a file under the fake repository with its mtime, and its folders', `s` seconds after T0. */
function file(rel: string, s: number) {
  const path = join(tmp, rel);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, rel);
  utimesSync(path, T0 + s, T0 + s);
  // its folders changed then too, unless they changed later (mkdir just gave new ones today's time)
  for (let p = dirname(path); p.length > tmp.length; p = dirname(p)) {
    const t = statSync(p).mtimeMs / 1000;
    if (t < T0 + s || t > T0 + 1000) utimesSync(p, T0 + s, T0 + s);
  }
}

beforeEach(() => {
  rmSync(tmp, { recursive: true, force: true });
  file("workspace/components/a.ts", 10);
  file("cells/dune/b.ts", 20);
  file("notebooks/examples/lab/r1/frames.arrows", 30);
  file("vite.config.ts", 5);
  mkdirSync(dist, { recursive: true });
  writeFileSync(join(dist, "index.html"), "<!doctype html>");
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const INPUTS = ["workspace", "cells", "notebooks", "vite.config.ts", "missing.json"];

describe("newestFile", () => {
  it("finds the most recently modified file in nested folders, skipping missing paths", () => {
    const newest = newestFile(INPUTS.map((p) => join(tmp, p)));
    expect(newest).toEqual({
      path: join(tmp, "notebooks/examples/lab/r1/frames.arrows"),
      mtimeMs: (T0 + 30) * 1000,
    });
  });
  it("ignores node_modules and dot folders", () => {
    file("workspace/node_modules/x/late.js", 99);
    file("workspace/.vite/late.js", 99);
    utimesSync(join(tmp, "workspace"), T0 + 10, T0 + 10); // as if both folders had been there before
    expect(newestFile([join(tmp, "workspace")])?.mtimeMs).toBe((T0 + 10) * 1000);
  });
  it("is undefined when nothing exists", () => {
    expect(newestFile([join(tmp, "nowhere")])).toBeUndefined();
  });
});

describe("buildDecision", () => {
  it("builds when there is no stamp yet", () => {
    expect(buildDecision(tmp, dist, INPUTS)).toEqual({ stale: true, reason: "no build yet" });
  });
  it("reuses a build stamped after every source", () => {
    writeBuildStamp(dist, (T0 + 31) * 1000);
    expect(buildDecision(tmp, dist, INPUTS)).toEqual({ stale: false });
  });
  it("rebuilds when a source is newer than the stamp, naming it", () => {
    writeBuildStamp(dist, (T0 + 31) * 1000);
    file("cells/dune/b.ts", 40);
    expect(buildDecision(tmp, dist, INPUTS)).toEqual({
      stale: true,
      reason: "cells/dune/b.ts changed since the last build",
    });
  });
  it("counts a file saved while the build ran (the stamp holds the build's start)", () => {
    writeBuildStamp(dist, (T0 + 25) * 1000); // the build started before the run file at +30 was written
    expect(buildDecision(tmp, dist, INPUTS)).toMatchObject({ stale: true });
  });
  it("rebuilds when a source is deleted (its folder's time changes)", () => {
    writeBuildStamp(dist, (T0 + 31) * 1000);
    rmSync(join(tmp, "cells/dune/b.ts"));
    expect(buildDecision(tmp, dist, INPUTS)).toEqual({
      stale: true,
      reason: "cells/dune changed since the last build",
    });
  });
  it("rebuilds when dist/ lost its index.html (a half-written or emptied build)", () => {
    writeBuildStamp(dist, (T0 + 31) * 1000);
    rmSync(join(dist, "index.html"));
    expect(buildDecision(tmp, dist, INPUTS)).toEqual({ stale: true, reason: "no build yet" });
  });
});

describe("cacheControl", () => {
  it.each([
    ["assets/index-C5WM4AJG.js", "public, max-age=31536000, immutable"],
    ["/assets/duckdb-eh-9ubY-jlA.wasm", "public, max-age=31536000, immutable"],
    ["index.html", "no-cache"],
    ["samples/k9-r1/frames.arrows", "no-cache"],
    ["notebook-runs.json", "no-cache"],
    ["assets/favicon.svg", "no-cache"],
  ])("%s -> %s", (path, expected) => {
    expect(cacheControl(path)).toBe(expected);
  });
});
