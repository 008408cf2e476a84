// Node only (npm start): whether dist/ must be rebuilt. A build is fresh when its stamp is newer than every
// source the bundle is made of; the stamp carries the time the build *started*, so an edit saved during a
// build still counts as newer next time.
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

export const BUILD_STAMP = ".jankbook-build";

/** What the workspace bundle is built from, relative to the repository (folders are walked). */
export const BUILD_INPUTS = [
  "workspace",
  "cells",
  "bundle",
  "notebooks",
  "vite.config.ts",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
];

export interface NewestFile {
  path: string;
  mtimeMs: number;
}

/** The most recently modified file or folder under the given paths (missing paths are skipped), or undefined. */
export function newestFile(paths: readonly string[]): NewestFile | undefined {
  let best: NewestFile | undefined;
  const visit = (p: string) => {
    const info = statSync(p, { throwIfNoEntry: false });
    if (!info) return;
    if (info.isDirectory())
      for (const e of readdirSync(p)) if (e !== "node_modules" && !e.startsWith(".")) visit(join(p, e));
    // A folder's own time counts too (it changes when a file in it is deleted or renamed); on a tie the file,
    // seen first, is the one named.
    if (!best || info.mtimeMs > best.mtimeMs) best = { path: p, mtimeMs: info.mtimeMs };
  };
  paths.forEach(visit);
  return best;
}

export type BuildDecision = { stale: false } | { stale: true; reason: string };

/** Whether `outDir` must be rebuilt from the inputs under `root`. */
export function buildDecision(root: string, outDir: string, inputs = BUILD_INPUTS): BuildDecision {
  const stamp = statSync(join(outDir, BUILD_STAMP), { throwIfNoEntry: false });
  if (!stamp || !existsSync(join(outDir, "index.html"))) return { stale: true, reason: "no build yet" };
  const newest = newestFile(inputs.map((p) => join(root, p)));
  if (newest && newest.mtimeMs > stamp.mtimeMs)
    return { stale: true, reason: `${relative(root, newest.path)} changed since the last build` };
  return { stale: false };
}

/** Marks `outDir` as built from the sources as they were at `startedMs`. */
export function writeBuildStamp(outDir: string, startedMs: number): void {
  const file = join(outDir, BUILD_STAMP);
  writeFileSync(file, `${new Date(startedMs).toISOString()}\n`);
  utimesSync(file, startedMs / 1000, startedMs / 1000);
}
