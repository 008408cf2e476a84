// The one manifest-to-provenance mapping used by the Publish button and both headless runners, so the three
// cannot drift apart.
import { describe, expect, it } from "vitest";
import { newManifest } from "../../../bundle/manifest";
import { notebookProvenance, runProvenance } from "../../../workspace/publish/provenance";

describe("runProvenance", () => {
  it("keeps the device context and the run's state, nulls as absent", () => {
    const m = newManifest(
      "k9-pixel-4a-r1",
      { app: "com.fsck.k9", app_version: "6.4", device_model: "Pixel 4a", manufacturer: null, api_level: 30 },
      { started_at: "2026-11-01T10:00:00Z", synthetic: true, complete: false },
    );
    expect(runProvenance(m)).toEqual({
      run_id: "k9-pixel-4a-r1",
      app: "com.fsck.k9",
      app_version: "6.4",
      device_model: "Pixel 4a",
      manufacturer: undefined,
      sdk_release: undefined,
      api_level: 30,
      started_at: "2026-11-01T10:00:00Z",
      synthetic: true,
      complete: false,
    });
  });

  it("stamps the notebook's provenance now and keeps each run's extra fields", () => {
    const before = Date.now();
    const p = notebookProvenance({
      notebook: "triage.md",
      runs: [{ run_id: "a", dir: "/runs/a" }],
      jankbookVersion: "0.1.0",
      inputs: [],
    });
    expect(p.runs[0]!.dir).toBe("/runs/a");
    expect(Date.parse(p.generatedAt)).toBeGreaterThanOrEqual(before - 1000);
  });
});
