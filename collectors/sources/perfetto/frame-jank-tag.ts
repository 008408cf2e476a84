// Trace processor's jank tag and severity type for an actual FrameTimeline slice
// (src/trace_processor/importers/proto/frame_timeline_event_parser.cc: CalculateSurfaceFrameJankTag,
// CalculateDisplayFrameJankTag, DisplayFrameJanky, SurfaceFrameJanky).

const NONE = 1;
const BUFFER_STUFFING = 128;
const SF_STUFFING = 512;
const DROPPED = 1024;
const NON_ANIMATING = 2048;
const DISPLAY_NOT_ON = 8192;
const POWER_MODE_CHANGE = 32768;
const PRESENT_DROPPED = 4;
// SurfaceFlinger's own misses (scheduling, prediction, HAL, CPU and GPU deadlines) and the app's (deadline,
// resynced jitter, unknown).
const DISPLAY_JANK_BITS = 2 | 4 | 8 | 16 | 32;
const SURFACE_JANK_BITS = 64 | 4096 | 256;

/** Severity type names by JankSeverityType value. */
export const SEVERITY_NAMES = ["Unknown", "None", "Partial", "Full"];

function janky(mask: number, bits: number): boolean {
  if (mask === 0 || mask === NONE || mask === NON_ANIMATING || mask === DISPLAY_NOT_ON) return false;
  return (mask & bits) !== 0;
}

// Jank types that a user cannot see (animation off, display off, power mode change).
function notPerceivable(mask: number): boolean {
  return mask === NON_ANIMATING || mask === DISPLAY_NOT_ON || mask === POWER_MODE_CHANGE;
}

/** 'Self Jank', 'Other Jank', 'Dropped Frame', 'Buffer Stuffing', ... for a JankType bitmask. */
export function jankTag(surface: boolean, mask: number, present: number | null): string {
  if (mask === 0) return "Unspecified";
  if (surface) {
    if (janky(mask, SURFACE_JANK_BITS)) return "Self Jank";
    if (janky(mask, DISPLAY_JANK_BITS)) return "Other Jank";
    if (mask === BUFFER_STUFFING) return "Buffer Stuffing";
    if (mask === SF_STUFFING) return "SurfaceFlinger Stuffing";
    if (present === PRESENT_DROPPED) return "Dropped Frame";
  } else {
    if (janky(mask, DISPLAY_JANK_BITS)) return "Self Jank";
    if (mask === SF_STUFFING) return "SurfaceFlinger Stuffing";
    if (mask === DROPPED) return "Dropped Frame";
  }
  return notPerceivable(mask) ? "Non-perceivable Jank" : "No Jank";
}

/** The severity type as trace processor names it; without the field, 'None' for an on-time frame, else 'Unknown'. */
export function severityName(severity: number | null, mask: number): string {
  if (severity === null) return mask === NONE ? "None" : "Unknown";
  return SEVERITY_NAMES[severity] ?? "Unknown";
}
