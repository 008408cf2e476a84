// A bundle's files are read only from inside its folder: manifest.json names plain file names (manifest.ts
// SAFE_FILE), but a table file can still be a symlink pointing anywhere on the disk; such a file is refused.
import { realpathSync } from "node:fs";
import { realpath } from "node:fs/promises";
import { join, sep } from "node:path";
import { BundleError } from "./manifest";

/** The path of `file` in bundle `dir`, refused when it resolves (through symlinks) outside the bundle. */
export async function bundlePath(dir: string, file: string): Promise<string> {
  const path = join(dir, file);
  const [root, real] = await Promise.all([realpath(dir), realpath(path).catch(() => path)]);
  return checkInside(root, real, path);
}

/** bundlePath for callers that cannot wait (a source's `locate`). */
export function bundlePathSync(dir: string, file: string): string {
  const path = join(dir, file);
  let real = path;
  try {
    real = realpathSync(path);
  } catch {
    // a missing file is reported by whoever opens it
  }
  return checkInside(realpathSync(dir), real, path);
}

function checkInside(root: string, real: string, path: string): string {
  if (real === path || real.startsWith(root + sep)) return path;
  throw new BundleError(
    path,
    `a symbolic link to ${real}, outside the bundle folder: refused (copy the file into the bundle instead)`,
  );
}
