// What a report says it was made from: the one mapping of a run's manifest to its provenance line, and the
// notebook-level record, shared by the page's Publish button and the headless runners.
import type { Manifest } from "../../bundle/manifest";
import type { PublishProvenance, RunProvenance } from "./publish";

/** A run's manifest as its provenance: the device context, when it ran, and whether it is synthetic or whole. */
export function runProvenance(m: Manifest): RunProvenance {
  const c = m.context;
  return {
    run_id: m.run_id,
    app: c.app,
    app_version: c.app_version ?? undefined,
    device_model: c.device_model ?? undefined,
    manufacturer: c.manufacturer ?? undefined,
    sdk_release: c.sdk_release ?? undefined,
    api_level: c.api_level ?? undefined,
    started_at: m.started_at ?? undefined,
    synthetic: m.synthetic,
    complete: m.complete,
  };
}

/** The notebook-level provenance, stamped now. */
export function notebookProvenance<R extends RunProvenance>(
  p: Omit<PublishProvenance, "generatedAt" | "runs"> & { runs: readonly R[] },
): PublishProvenance & { runs: R[] } {
  return { ...p, runs: [...p.runs], generatedAt: new Date().toISOString() };
}
