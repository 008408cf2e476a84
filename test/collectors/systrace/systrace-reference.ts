// An independent line-by-line reading of ftrace text for the tests: whitespace tokens and string searches
// instead of the importer's regular expressions, markers matched with plain per-thread stacks.

export interface RefSlice {
  ts: bigint;
  dur: bigint | null;
  tid: number | null;
  pid: number;
  name: string;
  depth: number | null;
}
export interface RefCounter {
  ts: bigint;
  pid: number;
  name: string;
  value: number;
}

function seconds(token: string): bigint {
  const [s, f] = token.replace(/:$/, "").split(".");
  return BigInt(s!) * 1_000_000_000n + BigInt(f!.padEnd(9, "0"));
}

/** Slices and counters of every atrace marker line, in file order (the fixtures are time-sorted). */
export function referenceRead(text: string): { slices: RefSlice[]; counters: RefCounter[] } {
  const slices: RefSlice[] = [];
  const counters: RefCounter[] = [];
  const stacks = new Map<number, RefSlice[]>();
  const async = new Map<string, RefSlice[]>();
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const cpuAt = line.search(/ \[\d\d\d\] /);
    if (cpuAt < 0) continue;
    const before = line
      .slice(0, cpuAt)
      .replace(/\(\s*[-\d]+\)\s*$/, "")
      .trimEnd();
    const tid = Number(before.slice(before.lastIndexOf("-") + 1));
    const tokens = line
      .slice(cpuAt + 6)
      .trim()
      .split(/\s+/);
    const k = tokens.findIndex((t) => /^\d+\.\d+:$/.test(t));
    const event = tokens[k + 1];
    if (event !== "tracing_mark_write:" && event !== "0:" && event !== "print:") continue;
    const ts = seconds(tokens[k]!);
    const after = line.indexOf(tokens[k]!) + tokens[k]!.length;
    const marker = line.slice(line.indexOf(event, after) + event.length).trim();
    const parts = marker.split("|");
    const stack = stacks.get(tid) ?? [];
    stacks.set(tid, stack);
    if (parts[0] === "B") {
      const s = {
        ts,
        dur: null,
        tid,
        pid: Number(parts[1]),
        name: parts.slice(2).join("|"),
        depth: stack.length,
      };
      stack.push(s);
      slices.push(s);
    } else if (parts[0] === "E") {
      const s = stack.pop();
      if (s) s.dur = ts - s.ts;
    } else if (parts[0] === "C") {
      counters.push({ ts, pid: Number(parts[1]), name: parts[2]!, value: Number(parts[3]) });
    } else if (parts[0] === "S") {
      const s = { ts, dur: null, tid: null, pid: Number(parts[1]), name: parts[2]!, depth: null };
      const key = parts.slice(1).join("|");
      async.set(key, [...(async.get(key) ?? []), s]);
      slices.push(s);
    } else if (parts[0] === "F") {
      const s = async.get(parts.slice(1).join("|"))?.shift();
      if (s) s.dur = ts - s.ts;
    }
  }
  return { slices, counters };
}

/** Rows in a canonical order for comparing two readings. */
export function canonical<T extends { ts: bigint; name: string }>(rows: T[]): T[] {
  return [...rows].sort((a, b) =>
    a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
}
