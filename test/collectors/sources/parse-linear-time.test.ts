// Text parsers read one very long line in linear time (a 300 KB `a/a/...` token once stalled the framestats
// parser for over 150 s). No clock is read here: every parser reads a 2,000,000-character line in every hostile
// shape (test/support/long-lines.ts), in a child process with a hard limit. Read linearly that is a few seconds
// of CPU (67 s in all at load 28 on 2 cores); read quadratically it is ~4·10^12 steps, hours, so the child is
// killed at the limit and the test fails.
// How the time grows (n vs 4n) is measured by `npm run bench -- linear-time`.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");
const SHORT = 4_000;
const LONG = 2_000_000;
const LIMIT_MS = 240_000;

describe("text parsers on one very long line", () => {
  it(
    "read a 2,000,000-character line in every hostile shape, and read it as they read a 4,000-character one",
    () => {
      const child = spawnSync(
        process.execPath,
        ["--import", "tsx", join(import.meta.dirname, "long-line-child.ts"), String(SHORT), String(LONG)],
        { cwd: ROOT, timeout: LIMIT_MS, encoding: "utf8", maxBuffer: 1 << 24 },
      );
      expect(child.error?.message ?? null, "a parser did not finish: quadratic on a long line?").toBeNull();
      expect(child.status, child.stderr).toBe(0);
      const read = JSON.parse(child.stdout) as Record<string, [unknown, unknown]>;
      expect(Object.keys(read).length).toBeGreaterThanOrEqual(40);
      for (const [name, [short, long]] of Object.entries(read)) {
        expect(long, name).toEqual(short);
        // a logcat line is either a record or counted as not one, and the text is marked cut in it (no newline)
        if (name.startsWith("logcat")) expect(long, name).toEqual({ read: 1, cut: 1 });
      }
      // the TOTAL line holds no figure it can name: the sample is read, with no values
      expect(read["meminfo: a TOTAL line of n/2 labels and figures"]![1]).toEqual([[1, "a.b", 0]]);
    },
    LIMIT_MS + 10_000,
  );
});
