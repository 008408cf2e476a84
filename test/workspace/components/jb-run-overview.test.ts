// @vitest-environment jsdom
// <jb-run-overview>'s run rows (jsdom): a run whose logcat lost agent lines shows the loss beside the tables it
// would have filled, with the warning that names the analyses it touches.
import { describe, expect, it } from "vitest";
import { newManifest } from "../../../bundle/manifest";
import type { JbRunOverview } from "../../../workspace/components/jb-run-overview";
import "../../../workspace/components/jb-run-overview";

describe("<jb-run-overview>", () => {
  it("shows lost agent lines beside the tables they would have filled, and the warning naming the analyses", async () => {
    const warning =
      "agent pid 4242: 11 of 900 lines lost (sequence numbers 0-899 have holes; logcat buffer overrun or logd rate limit?): 5 op lines: render_ops (DRAW: overdraw per frame, rendering cost, invisible views, root causes); 2 task lines: tasks (DiagDroid: queuing time, anomalous task groups, culprits)";
    const manifest = newManifest(
      "r1",
      { app: "com.example.app" },
      {
        complete: false,
        warnings: [warning],
        lost_lines: { op: 5, task: 2, begin: 1, unknown: 3 },
      },
    );
    const el = document.createElement("jb-run-overview") as JbRunOverview;
    el.runs = [{ label: "r1", manifest, rows: { render_ops: 1200, tasks: 40, ui_events: 6 }, errors: [] }];
    document.body.appendChild(el);
    await el.updateComplete;
    const root = el.shadowRoot!;
    expect(root.querySelector("td.tables")!.textContent!.trim()).toBe(
      "ui_events 6 · tasks 40 (3 lines lost) · render_ops 1,200 (5 lines lost)",
    );
    expect([...root.querySelectorAll("ul.warnings li")].map((li) => li.textContent)).toEqual([warning]);
    expect(root.querySelector(".badge.incomplete")).not.toBeNull();
  });
});
