// Slices and counters from atrace markers carried in ftrace `print` events (AOSP libcutils trace-dev.inc:
// `B|pid|name`, `E|pid`, `C|pid|name|value`, `S|pid|name|cookie`, `F|pid|name|cookie`, `I|pid|name`, and the
// Android 14+ track forms `N|pid|track|name`, `G|pid|track|name|cookie`, `H|pid|track|cookie`).
import type { CounterRow } from "./rows";
import type { ReadProgress } from "./growable-columns";
import { SliceBuilder } from "./slice-builder";
import type { StringTable } from "./string-table";

export class AtraceSlices {
  readonly slices: SliceBuilder;
  readonly counters: CounterRow[] = [];
  /** E with nothing open on its thread, markers we could not read */
  unmatchedEnds = 0;
  malformed = 0;
  firstMalformed: string | null = null;
  /** open slice rows per tid, innermost last: tids below 65536 by index (a lookup per B and E), the rest in a Map */
  private stackSmall: (number[] | undefined)[] = new Array<number[] | undefined>(65536).fill(undefined);
  private stackLarge = new Map<number, number[]>();
  /** open async slice rows per pid|track|cookie, innermost last */
  private async = new Map<string, number[]>();
  private asyncDepth = new Map<string, number>();
  private readonly atrace: number;
  private readonly asyncCategory: number;

  constructor(
    private readonly strings: StringTable,
    progress: ReadProgress | null = null,
  ) {
    this.slices = new SliceBuilder(progress);
    this.atrace = strings.text("atrace");
    this.asyncCategory = strings.text("async");
  }

  /** One print payload logged by thread `tid` at `ts` (ns, already in the trace's clock). */
  marker(ts: number, tid: number, buf: string): void {
    const c = buf.charCodeAt(0);
    if (buf.charCodeAt(1) !== 124 /* | */) {
      // `E` alone (old libcutils) or something that is not a marker (plain trace_marker text).
      if (c === 69 /* E */ && (buf.length === 1 || buf.charCodeAt(1) === 10)) this.end(ts, tid);
      return;
    }
    switch (c) {
      case 66 /* B */: {
        const bar = buf.indexOf("|", 2);
        const pid = bar < 0 ? toInt(buf, 2, buf.length) : toInt(buf, 2, bar);
        if (pid === null || bar < 0) return this.bad(buf);
        this.begin(ts, tid, pid, this.strings.text(trimEnd(buf.slice(bar + 1)) || "[empty slice name]"));
        return;
      }
      case 69 /* E */:
        this.end(ts, tid);
        return;
      case 67 /* C */: {
        const f = trimEnd(buf).split("|");
        const pid = toInt(f[1] ?? "", 0, (f[1] ?? "").length);
        const value = Number(f[3]);
        if (pid === null || !f[2] || f[3] === undefined || f[3] === "" || !Number.isFinite(value))
          return this.bad(buf);
        this.counters.push({ ts, pid, name: f[2], value });
        return;
      }
      case 83 /* S */:
      case 70 /* F */: {
        const f = trimEnd(buf).split("|");
        const pid = toInt(f[1] ?? "", 0, (f[1] ?? "").length);
        if (pid === null || f.length < 4 || !f[2]) return this.bad(buf);
        const cookie = f[f.length - 1]!;
        const name = f.slice(2, f.length - 1).join("|");
        if (c === 83) this.asyncBegin(ts, pid, name, name, cookie, false);
        else this.asyncEnd(ts, pid, name, cookie);
        return;
      }
      case 73 /* I */: {
        const f = trimEnd(buf).split("|");
        const pid = toInt(f[1] ?? "", 0, (f[1] ?? "").length);
        if (pid === null || !f[2]) return this.bad(buf);
        this.slices.push(ts, 0, pid, tid, 0, this.strings.text(f.slice(2).join("|")), this.atrace, -1);
        return;
      }
      case 78 /* N */: {
        const f = trimEnd(buf).split("|");
        const pid = toInt(f[1] ?? "", 0, (f[1] ?? "").length);
        if (pid === null || f.length < 4) return this.bad(buf);
        const name = this.strings.text(f.slice(3).join("|"));
        this.slices.push(ts, 0, pid, NaN, 0, name, this.asyncCategory, this.strings.text(f[2]!));
        return;
      }
      case 71 /* G */: {
        const f = trimEnd(buf).split("|");
        const pid = toInt(f[1] ?? "", 0, (f[1] ?? "").length);
        if (pid === null || f.length < 5) return this.bad(buf);
        this.asyncBegin(ts, pid, f[2]!, f.slice(3, f.length - 1).join("|"), f[f.length - 1]!, true);
        return;
      }
      case 72 /* H */: {
        const f = trimEnd(buf).split("|");
        const pid = toInt(f[1] ?? "", 0, (f[1] ?? "").length);
        if (pid === null || f.length < 4) return this.bad(buf);
        this.asyncEnd(ts, pid, f[2]!, f[f.length - 1]!);
        return;
      }
      default:
        return;
    }
  }

  /** `B|pid|name` logged by thread `tid` (`name` a string id). */
  begin(ts: number, tid: number, pid: number, name: number): void {
    const stack = this.stackOf(tid);
    // B|0 names no process (trace processor's SystraceParser: tgid 0 leaves the thread's own): the slice takes the
    // thread's pid.
    stack.push(this.slices.push(ts, NaN, pid > 0 ? pid : NaN, tid, stack.length, name, this.atrace, -1));
  }

  /** begin() at times[i]: the time is read here, as a double argument to a call V8 does not inline (the replay
   * loop's) is a heap number allocated per event. */
  beginAt(times: Float64Array, i: number, tid: number, pid: number, name: number): void {
    const stack = this.stackOf(tid);
    stack.push(
      this.slices.push(times[i]!, NaN, pid > 0 ? pid : NaN, tid, stack.length, name, this.atrace, -1),
    );
  }

  private stackOf(tid: number): number[] {
    const small = tid >= 0 && tid < 65536;
    let stack = small ? this.stackSmall[tid] : this.stackLarge.get(tid);
    if (!stack) {
      stack = [];
      if (small) this.stackSmall[tid] = stack;
      else this.stackLarge.set(tid, stack);
    }
    return stack;
  }

  /** end() at times[i] (as beginAt). */
  endAt(times: Float64Array, i: number, tid: number): void {
    const row = this.openRows(tid)?.pop();
    if (row === undefined) {
      this.unmatchedEnds++;
      return;
    }
    this.slices.end(row, times[i]!);
  }

  /** `E` logged by thread `tid`: closes its innermost open slice. */
  end(ts: number, tid: number): void {
    const row = this.openRows(tid)?.pop();
    if (row === undefined) {
      this.unmatchedEnds++;
      return;
    }
    this.slices.end(row, ts);
  }

  private openRows(tid: number): number[] | undefined {
    return tid >= 0 && tid < 65536 ? this.stackSmall[tid] : this.stackLarge.get(tid);
  }

  /** S (`nest` false) or G (`nest` true) */
  private asyncBegin(ts: number, pid: number, track: string, name: string, cookie: string, nest: boolean) {
    const key = `${pid}|${track}|${cookie}`;
    let open = this.async.get(key);
    if (!open) this.async.set(key, (open = []));
    // An S repeated while its cookie is open is dropped, as Catapult and trace processor do (systrace_parser.cc
    // BeginLegacyUnnestable: PowerManager's wake locks emit any number of them and expect the first to count); a
    // G nests on its cookie's track and its H ends the innermost.
    if (open.length && !nest) return;
    const depthKey = `${pid}|${track}`;
    const depth = this.asyncDepth.get(depthKey) ?? 0;
    this.asyncDepth.set(depthKey, depth + 1);
    const row = this.slices.push(
      ts,
      NaN,
      pid,
      NaN,
      depth,
      this.strings.text(name),
      this.asyncCategory,
      this.strings.text(track),
    );
    open.push(row);
  }

  private asyncEnd(ts: number, pid: number, track: string, cookie: string) {
    const key = `${pid}|${track}|${cookie}`;
    const open = this.async.get(key)?.pop();
    if (open === undefined) {
      this.unmatchedEnds++;
      return;
    }
    const depthKey = `${pid}|${track}`;
    this.asyncDepth.set(depthKey, Math.max(0, (this.asyncDepth.get(depthKey) ?? 1) - 1));
    this.slices.end(open, ts);
  }

  /** A marker that cannot be read, counted with the first one's text for the import's warnings. */
  bad(buf: string): void {
    this.malformed++;
    if (this.firstMalformed === null) this.firstMalformed = buf.slice(0, 80);
  }
}

function toInt(s: string, from: number, to: number): number | null {
  if (to <= from) return null;
  let v = 0;
  for (let i = from; i < to; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return null;
    v = v * 10 + d;
  }
  return v;
}

// atrace payloads often end with the newline trace_marker writes.
function trimEnd(s: string): string {
  let e = s.length;
  while (e > 0 && (s.charCodeAt(e - 1) === 10 || s.charCodeAt(e - 1) === 0)) e--;
  return e === s.length ? s : s.slice(0, e);
}
