// How a run's app and device are named to a reader (jankbook info, the workspace's run overview): as its context
// gives them, or, for a trace that does not name them, saying so and what would have (a Perfetto trace's SystemInfo
// and FrameTimeline or app processes; systrace text records no device).
import type { Manifest } from "./manifest";

const traceKind = (m: Manifest) =>
  m.sources.some((s) => s.kind === "perfetto")
    ? "perfetto"
    : m.sources.some((s) => s.kind.startsWith("systrace"))
      ? "systrace"
      : null;

/** `com.example.app 2.1.0`, or why a trace names no app. */
export function appText(m: Manifest): string {
  const c = m.context;
  const kind = traceKind(m);
  if (c.app !== "unknown" || !kind) return `${c.app} ${c.app_version ?? ""}`.trim();
  return kind === "perfetto"
    ? "app not named (the trace has no FrameTimeline layer and no app process with slices or thread states)"
    : "app not named (the process with the most atrace slices has no name in the trace)";
}

/** Null when the context names the device (the caller lays its fields out); else why a trace names none. */
export function unnamedDeviceText(m: Manifest): string | null {
  const kind = traceKind(m);
  if (m.context.device_model || !kind) return null;
  return kind === "perfetto"
    ? "a device the trace does not name (no SystemInfo packet)"
    : "a device the trace does not name (systrace text records none)";
}
