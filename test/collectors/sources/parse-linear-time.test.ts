// Parse time grows linearly with line length (a 300 KB `a/a/...` token stalled the framestats parser for
// over 150 s). The parsers run in a child process with a hard timeout, so a quadratic one fails the test instead
// of hanging it.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");

describe("framestats and gfxinfo parse time", () => {
  it("grows linearly with the length of one long line: 4x the line within 10x the time (75 KB vs 300 KB)", () => {
    const child = spawnSync(
      process.execPath,
      ["--import", "tsx", join(import.meta.dirname, "parse-timing-child.ts"), "75000"],
      { cwd: ROOT, timeout: 45_000, encoding: "utf8" },
    );
    expect(child.error?.message ?? null, "the parsers did not finish within 45 s").toBeNull();
    expect(child.status, child.stderr).toBe(0);
    const { t1, t4 } = JSON.parse(child.stdout) as { t1: number; t4: number };
    // linear: ~4x; quadratic: ~16x. A floor of 2 ms keeps timer noise on tiny times from failing it.
    expect(t4, `n: ${t1.toFixed(1)} ms, 4n: ${t4.toFixed(1)} ms`).toBeLessThan(10 * Math.max(t1, 2));
    expect(t4).toBeLessThan(5_000);
  }, 60_000);
});
