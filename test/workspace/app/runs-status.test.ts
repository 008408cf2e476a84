// The status line counts only runs that loaded and lists each failed one with what was missing where.
import { describe, expect, it } from "vitest";
import type { Manifest } from "../../../bundle/manifest";
import type { LoadedRun } from "../../../workspace/app/session";
import { runsStatus } from "../../../workspace/app/runs-status";

const ok = (label: string, path: LoadedRun["path"], errors: string[] = []): LoadedRun => ({
  label,
  manifest: { run_id: label } as Manifest,
  rows: { frames: 10 },
  errors,
  path,
});
const failed = (label: string, error: string): LoadedRun => ({ label, rows: {}, errors: [error] });

describe("runsStatus", () => {
  it.each([
    [[], [], "0 runs loaded"],
    [[ok("a", "streamed")], [], "1 run loaded (streamed)"],
    [
      [ok("a", "attached"), ok("b", "streamed"), ok("c", "streamed")],
      [],
      "3 runs loaded (1 attached, 2 streamed)",
    ],
    [
      [ok("a", "streamed", ["a/tasks.arrows: table tasks: truncated"]), ok("b", "streamed")],
      [],
      "2 runs loaded, 1 with errors (streamed)",
    ],
    [
      [
        ok("a", "streamed"),
        failed(
          "samples/nosuch",
          "samples/nosuch/manifest.json: cannot read (no run bundle at http://h/samples/nosuch/ (HTTP 404))",
        ),
      ],
      [],
      "1 run loaded (streamed); 1 failed: samples/nosuch: samples/nosuch/manifest.json: cannot read (no run bundle at http://h/samples/nosuch/ (HTTP 404))",
    ],
    [
      [failed("x", "e1"), failed("y", "e2")],
      ["k9-*"],
      "0 runs loaded; 3 failed: x: e1 · y: e2 · k9-*: named by the notebook, found neither beside it (notebooks/) nor among the samples (samples/)",
    ],
  ])("%j, missing %j: %s", (runs, missing, expected) => {
    expect(runsStatus(runs as LoadedRun[], missing as string[])).toBe(expected);
  });
});
