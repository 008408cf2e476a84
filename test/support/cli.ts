// Running the jankbook CLI from tests: spawned as a user runs it (with a hard deadline, so a hang fails the test
// instead of CI), or in this process through main() when only the exit code and stderr matter.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { vi } from "vitest";
import { main } from "../../cli/main";

export const ROOT = join(import.meta.dirname, "../..");

export interface SpawnedRun {
  /** the exit code, or "killed" when the run outlived its deadline */
  code: number | "killed";
  stdout: string;
  stderr: string;
  ms: number;
}

export interface SpawnOptions {
  /** kill the run after this long (default 150 s: start-up is slow on a loaded 2-core machine) */
  hardMs?: number;
  /** run the TypeScript sources through tsx instead of the test run's compiled build */
  fromSources?: boolean;
}

/** The compiled CLI of this test run (test/support/build-cli-once.ts builds it before any file runs). */
const COMPILED = join(ROOT, "test/support/compiled-cli.mjs");

export function spawnJankbook(args: readonly string[], options: SpawnOptions = {}): Promise<SpawnedRun> {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const env = options.fromSources ? { ...process.env, JANKBOOK_FROM_SOURCES: "1" } : process.env;
    const entry = options.fromSources ? join(ROOT, "cli/jankbook.js") : COMPILED;
    const p = spawn(process.execPath, [entry, ...args], { cwd: ROOT, env });
    let stdout = "";
    let stderr = "";
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      p.kill("SIGKILL");
    }, options.hardMs ?? 150_000);
    p.stdout.on("data", (d) => (stdout += d));
    p.stderr.on("data", (d) => (stderr += d));
    p.on("error", reject);
    p.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: killed ? "killed" : (code ?? -1), stdout, stderr, ms: Date.now() - t0 });
    });
  });
}

/** The same CLI in this process (no start-up per call): its exit code and what it wrote to stderr. */
export async function jankbookInProcess(...args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = "";
  const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    return { code: await main(["node", "jankbook", ...args]), stderr };
  } finally {
    spy.mockRestore();
  }
}
