// The payload atrace writes into trace_marker (AOSP libcutils trace-dev.inc, atrace_begin_body and friends;
// Perfetto src/trace_processor/importers/systrace/systrace_parser.h lists the same phases):
// `B|pid|name`, `E|pid` (or bare `E`), `C|pid|name|value[|category]`, `S|pid|name|cookie`, `F|pid|name|cookie`,
// `I|pid|name`, `N|pid|track|name`, `G|pid|track|name|cookie`, `H|pid|track|[name|]cookie`.

export type AtraceMarker =
  | { phase: "B"; pid: number; name: string }
  | { phase: "E"; pid: number | null }
  | { phase: "C"; pid: number; name: string; value: number }
  | { phase: "S" | "F"; pid: number; name: string; cookie: string }
  | { phase: "I"; pid: number; name: string }
  | { phase: "N"; pid: number; track: string; name: string }
  | { phase: "G"; pid: number; track: string; name: string; cookie: string }
  | { phase: "H"; pid: number; track: string; cookie: string };

/** The marker, `null` for what atrace writes but carries no slice (trace_event_clock_sync), or an error text. */
export function parseAtraceMarker(payload: string): AtraceMarker | null | string {
  const text = payload.replace(/[\0\n]+$/, "");
  if (text.startsWith("trace_event_clock_sync:")) return null;
  const f = text.split("|");
  const phase = f[0];
  const pid = f.length > 1 && /^\d+$/.test(f[1]!) ? Number(f[1]) : null;
  const bad = (why: string) => `${why}: ${JSON.stringify(text.slice(0, 80))}`;
  switch (phase) {
    case "B":
      if (pid === null) return bad("B without a pid");
      // The name is everything after the pid: names may hold '|' (libcutils writes them verbatim).
      return { phase, pid, name: f.slice(2).join("|") || "[empty slice name]" };
    case "E":
      return { phase, pid };
    case "C": {
      const value = Number(f[3]);
      if (pid === null || !f[2] || f[3] === undefined || f[3] === "" || !Number.isFinite(value))
        return bad("C needs pid, name and a numeric value");
      return { phase, pid, name: f[2], value };
    }
    case "S":
    case "F":
      if (pid === null || !f[2] || !/^-?\d+$/.test(f[3] ?? ""))
        return bad(`${phase} needs pid, name and cookie`);
      return { phase, pid, name: f[2], cookie: f[3]! };
    case "I":
      if (pid === null || !f[2]) return bad("I needs pid and name");
      return { phase, pid, name: f[2] };
    case "N":
      if (pid === null || !f[2] || !f[3]) return bad("N needs pid, track and name");
      return { phase, pid, track: f[2], name: f[3] };
    case "G":
      if (pid === null || !f[2] || !f[3] || !/^-?\d+$/.test(f[4] ?? ""))
        return bad("G needs pid, track, name and cookie");
      return { phase, pid, track: f[2], name: f[3], cookie: f[4]! };
    case "H": {
      const cookie = f[4] === undefined || f[4] === "" ? f[3] : f[4];
      if (pid === null || !f[2] || !/^-?\d+$/.test(cookie ?? "")) return bad("H needs pid, track and cookie");
      return { phase, pid, track: f[2], cookie: cookie! };
    }
    default:
      return bad("not an atrace marker (B|, E|, C|, S|, F|, I|, N|, G|, H|)");
  }
}
