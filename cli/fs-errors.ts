// A file-system error that escaped a command, said in the user's terms: the path as given, and what was expected
// there (a run folder, a file, a folder to write into), not Node's "ENOTDIR: not a directory, open '…'".
import { statSync } from "node:fs";
import { dirname } from "node:path";

const FS_CODES = new Set(["ENOENT", "ENOTDIR", "EISDIR", "EACCES", "EEXIST"]);

/** The message for an fs error (Node's code, syscall and path), or null for any other error. */
export function fsErrorMessage(e: unknown): string | null {
  const err = e as NodeJS.ErrnoException;
  if (!err || typeof err.code !== "string" || !FS_CODES.has(err.code) || typeof err.path !== "string")
    return null;
  const path = err.path;
  const writing =
    err.syscall === "mkdir" ||
    err.syscall === "mkdtemp" ||
    (err.syscall === "open" && /write/i.test(err.message));
  const runFolder = /[\\/]manifest\.json$/.test(path) ? dirname(path) : null;
  switch (err.code) {
    case "ENOTDIR": {
      const file = fileAmong(path);
      const what = runFolder
        ? "a run folder (with manifest.json)"
        : writing
          ? "a folder to write into"
          : "a folder";
      return `${file ?? path}: a file, where ${what} was expected`;
    }
    case "ENOENT":
      if (runFolder)
        return `${runFolder}: not a run folder (no manifest.json in it${exists(runFolder) ? "" : "; the folder does not exist"})`;
      return `${path}: no such ${writing ? "folder to write into" : "file or folder"}`;
    case "EISDIR":
      return `${path}: a folder, where a file was expected`;
    case "EACCES":
      return `${path}: permission denied (${err.syscall ?? "access"})`;
    default:
      return `${path}: already exists`;
  }
}

/** The file a path runs through (what makes a path under it fail with ENOTDIR): its deepest existing prefix. */
function fileAmong(path: string): string | null {
  for (let p = path; p !== dirname(p); p = dirname(p)) {
    const s = statOf(p);
    if (s) return s.isFile() ? p : null;
  }
  return null;
}

function exists(path: string): boolean {
  return statOf(path) !== null;
}

/** stat, or null when there is nothing there (ENOENT, or ENOTDIR: a path through a file) */
function statOf(path: string): ReturnType<typeof statSync> | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
