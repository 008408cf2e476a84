// Kernel drivers' own atrace markers: display (mdss/sde/dpu), 2D blitter (g2d), GPU (mali), camera (lwis) and
// Samsung's tracing_mark_write ftrace events carry a B/E/C/I marker as fields instead of text. Trace processor reads
// them as atrace markers of the emitting thread, with the payload's pid as the process (src/trace_processor/
// importers/ftrace/ftrace_parser.cc Parse*TracingMarkWrite, systrace/systrace_parser.cc ParseKernelTracingMarkWrite).
import type { ProtoReader } from "./proto-reader";

// FtraceEvent field numbers (protos/perfetto/trace/ftrace/ftrace_event.proto).
export const F_MDSS_MARK = 80;
export const F_SDE_MARK = 333;
export const F_DPU_MARK = 348;
export const F_G2D_MARK = 349;
export const F_MALI_MARK = 350;
export const F_LWIS_MARK = 467;
export const F_SAMSUNG_MARK = 484;

/** Field numbers inside each event (mdss.proto, sde.proto, dpu.proto, g2d.proto, mali.proto, lwis.proto,
 * samsung.proto); 0 where the event has no such field. */
interface Layout {
  pid: number;
  name: number;
  type: number;
  value: number;
  begin: number;
}

const LAYOUTS = new Map<number, Layout>([
  [F_MDSS_MARK, { pid: 1, name: 2, type: 0, value: 0, begin: 3 }],
  [F_SDE_MARK, { pid: 1, name: 2, type: 3, value: 4, begin: 5 }],
  [F_DPU_MARK, { pid: 1, name: 4, type: 5, value: 6, begin: 0 }],
  [F_G2D_MARK, { pid: 1, name: 4, type: 5, value: 6, begin: 0 }],
  [F_MALI_MARK, { pid: 2, name: 1, type: 3, value: 4, begin: 0 }],
  [F_LWIS_MARK, { pid: 3, name: 4, type: 2, value: 5, begin: 0 }],
  [F_SAMSUNG_MARK, { pid: 1, name: 2, type: 4, value: 5, begin: 3 }],
]);

export interface KernelMarker {
  /** B, E, C or I */
  phase: string;
  /** the process the marker names (0: none) */
  pid: number;
  name: string;
  value: number;
}

export const isKernelMarker = (kind: number): boolean => LAYOUTS.has(kind);

/** The marker in one such event, or null when it has none trace processor would read (counted as malformed). */
export function readKernelMarker(kind: number, body: ProtoReader): KernelMarker | null {
  const l = LAYOUTS.get(kind)!;
  let pid = 0;
  let name = "";
  let type: number | null = null;
  let begin: number | null = null;
  let value = 0;
  while (body.more()) {
    const t = body.tag();
    const f = t >>> 3;
    if ((t & 7) === 2 && f === l.name) name = body.string();
    else if ((t & 7) !== 0) body.skip(t & 7);
    else if (f === l.pid) pid = body.int64();
    else if (f === l.type) type = body.varint();
    else if (f === l.value) value = body.int64();
    else if (f === l.begin) begin = body.varint();
    else body.skip(0);
  }
  // What each parser requires: mdss a trace_begin, sde a type or a trace_begin, samsung a type, the rest a
  // non-zero type. A zero type falls back to trace_begin (samsung's is passed as false).
  const ok =
    kind === F_MDSS_MARK
      ? begin !== null
      : kind === F_SDE_MARK
        ? type !== null || begin !== null
        : kind === F_SAMSUNG_MARK
          ? type !== null
          : !!type;
  if (!ok) return null;
  const phase = type ? String.fromCharCode(type) : begin && kind !== F_SAMSUNG_MARK ? "B" : "E";
  if (phase !== "B" && phase !== "E" && phase !== "C" && phase !== "I") return null;
  // dpu drivers name other processes in B/E/I markers: trace processor trusts the pid only for counters.
  if (kind === F_DPU_MARK && phase !== "C") pid = 0;
  return { phase, pid, name, value };
}
