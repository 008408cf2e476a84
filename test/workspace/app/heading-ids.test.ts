import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { headingIds } from "../../../workspace/app/heading-ids";

describe("headingIds", () => {
  it("slugs heading text as GitHub anchors do", () => {
    expect(
      headingIds([
        "Triage of the sample runs",
        "1. Frames: what stutters?",
        "DiagDroid: tasks that queued (τ = 500 ms)",
        "Überdraw — views drawn, never seen",
        "   ",
      ]),
    ).toEqual([
      "triage-of-the-sample-runs",
      "1-frames-what-stutters",
      "diagdroid-tasks-that-queued-τ-500-ms",
      "uberdraw-views-drawn-never-seen",
      "section",
    ]);
  });

  it("numbers repeated headings, also past a heading that already ends in a number", () => {
    expect(headingIds(["Results", "Results", "Results-1", "Results"])).toEqual([
      "results",
      "results-1",
      "results-1-1",
      "results-2",
    ]);
  });

  it("gives unique, non-empty ids of lower-case, no spaces, dashes only between words", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 12 }), { maxLength: 30 }), (texts) => {
        const ids = headingIds(texts);
        return (
          ids.length === texts.length &&
          new Set(ids).size === ids.length &&
          ids.every((id) => id.length > 0 && id === id.toLowerCase() && !/\s|^-|-$|--/.test(id))
        );
      }),
    );
  });
});
