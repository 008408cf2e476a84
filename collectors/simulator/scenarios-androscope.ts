// AndroScope §V's cases as method traces of a simulated app (no phone: samples/cases.ts writes them through the
// trace writer and reads them back). Each returns the trace's threads, methods and records and its ground truth.
//   longjmpTrace (§V-2, Fig. 11): native thumbnail decoding; a corrupt JPEG makes libjpeg's error handler
//     longjmp from decode_mcu back into the function that called setjmp, so decode_mcu and jpeg_read_scanlines
//     never exit. Healthy: every image is valid.
//   contendedFrameTrace (§V-3, Fig. 12): one CPU (the paper's single-core phone) shared by the UI thread drawing
//     frames and a worker parsing a feed page at the same priority, so the UI thread is switched out inside
//     doFrame. Healthy: the worker runs at background priority, only while the UI thread waits for the next vsync.
import type { TraceMethod, TraceThread } from "../sources/method-trace";
import type { TraceRecordSpec } from "../sources/method-trace-writer";
import { between, mulberry32 } from "./random";
import type { GroundTruthCase } from "./scenarios";

const US = 1000;
const MS = 1_000_000;

export interface TraceScenario {
  threads: TraceThread[];
  methods: TraceMethod[];
  records: TraceRecordSpec[];
  truth: GroundTruthCase;
}

/** Methods by "class.method" name; native functions have the class `__native__` (AndroScope §VI-3). */
function methodTable(names: readonly string[]): { methods: TraceMethod[]; id: (name: string) => number } {
  const methods = names.map((name, i) => {
    const dot = name.lastIndexOf(".");
    const cls = name.slice(0, dot);
    return {
      id: 0x7f100000 + 4 * i,
      className: cls,
      methodName: name.slice(dot + 1),
      signature: "()V",
      sourceFile: cls === "__native__" ? "jdapimin.c" : `${cls.split(".").pop()!.split("$")[0]}.java`,
    };
  });
  const byName = new Map(names.map((n, i) => [n, methods[i]!.id]));
  return { methods, id: (name) => byName.get(name)! };
}

const DECODE = [
  "android.os.Looper.loop",
  "com.example.gallery.ThumbnailLoader.decodeThumbnail",
  "android.graphics.BitmapFactory.nativeDecodeStream",
  "__native__.jpeg_decode_with_recovery",
  "__native__.jpeg_read_scanlines",
  "__native__.decode_mcu",
  "__native__.jpeg_finish_decompress",
] as const;

/** §V-2: `images` thumbnail decodes on one worker thread; with `corrupt`, every third image longjmps out. */
export function longjmpTrace(seed: number, corrupt: boolean, images = 9): TraceScenario {
  const rand = mulberry32(seed);
  const { methods, id } = methodTable(DECODE);
  const tid = 3112;
  const records: TraceRecordSpec[] = [];
  let now = 1 * MS;
  /** `gap` ns after the previous record, an enter (0) or exit (1) of one of DECODE's methods */
  const rec = (gap: number, k: number, action: number) => {
    now += gap;
    records.push({
      threadId: tid,
      methodId: id(DECODE[k]!),
      action,
      wallUs: Math.round(now / US),
      threadCpuUs: Math.round(now / US),
    });
  };
  const broken: { image: number; at_us: number }[] = [];
  rec(0, 0, 0);
  for (let i = 0; i < images; i++) {
    rec(between(rand, 2, 6) * MS, 1, 0);
    rec(30 * US, 2, 0);
    rec(20 * US, 3, 0); // calls setjmp, then decodes
    const bad = corrupt && i % 3 === 1;
    const rows = 4 + Math.floor(rand() * 4);
    for (let r = 0; r < rows; r++) {
      rec(40 * US, 4, 0);
      rec(10 * US, 5, 0);
      now += between(rand, 0.4, 0.9) * MS;
      if (bad && r === 2) break; // error_exit: longjmp back into jpeg_decode_with_recovery (Fig. 11)
      rec(0, 5, 1);
      rec(15 * US, 4, 1);
    }
    if (bad) broken.push({ image: i, at_us: Math.round(now / US) });
    else {
      rec(30 * US, 6, 0);
      rec(120 * US, 6, 1);
    }
    rec(20 * US, 3, 1);
    rec(200 * US, 2, 1);
    rec(40 * US, 1, 1);
  }
  rec(1 * MS, 0, 1);
  return {
    threads: [{ id: tid, name: "ThumbnailLoader" }],
    methods,
    records,
    truth: {
      case: corrupt ? "longjmp" : "longjmp-healthy",
      paper: "AndroScope §V-2 (Fig. 11)",
      finding: corrupt
        ? "a longjmp skips the exits of decode_mcu and jpeg_read_scanlines; dummy exits at jpeg_decode_with_recovery's exit pair them"
        : "every image decodes: every enter has its exit",
      culprit: {
        setjmp_caller: DECODE[3],
        skipped: [DECODE[5], DECODE[4]],
        broken,
      },
    },
  };
}

const FRAME_METHODS = [
  "android.os.Looper.loop",
  "android.view.Choreographer.doFrame",
  "android.view.ViewRootImpl.performMeasure",
  "android.view.ViewRootImpl.performLayout",
  "android.view.ViewRootImpl.performDraw",
  "com.example.feed.FeedRepository.loadNextPage",
  "com.example.feed.FeedParser.parseItem",
] as const;

type Op = { at?: number; work?: number; enter?: string; exit?: string };

/** A thread's program: calls with CPU work between them; `at` waits (blocked) until that wall time. */
function uiProgram(rand: () => number, frames: number, period: number): Op[] {
  const ops: Op[] = [{ enter: FRAME_METHODS[0] }];
  for (let f = 0; f < frames; f++) {
    ops.push({ at: (f + 1) * period }, { enter: FRAME_METHODS[1] }, { work: 300 * US });
    for (const [m, lo, hi] of [
      [FRAME_METHODS[2], 1.2, 1.8],
      [FRAME_METHODS[3], 0.8, 1.2],
      [FRAME_METHODS[4], 2.5, 3.5],
    ] as const)
      ops.push({ enter: m }, { work: between(rand, lo, hi) * MS }, { exit: m });
    ops.push({ work: 100 * US }, { exit: FRAME_METHODS[1] });
  }
  return ops;
}

function workerProgram(rand: () => number, start: number, items: number): Op[] {
  const ops: Op[] = [{ at: start }, { enter: FRAME_METHODS[5] }, { work: 200 * US }];
  for (let i = 0; i < items; i++)
    ops.push({ enter: FRAME_METHODS[6] }, { work: between(rand, 0.3, 0.8) * MS }, { exit: FRAME_METHODS[6] });
  ops.push({ work: 200 * US }, { exit: FRAME_METHODS[5] });
  return ops;
}

/**
 * §V-3: the UI thread (`frames` frames at 60 Hz) and a worker parsing `items` feed items on one CPU. Contended:
 * equal priority, time slices of 1.5-2.5 ms; healthy: the worker runs only while the UI thread is blocked.
 */
export function contendedFrameTrace(
  seed: number,
  contended: boolean,
  frames = 12,
  items = 600,
): TraceScenario {
  const rand = mulberry32(seed);
  const { methods, id } = methodTable(FRAME_METHODS);
  const period = 16_666_667;
  const threads = [
    { id: 4101, name: "main", ops: uiProgram(rand, frames, period), pc: 0, left: 0, cpu: 0 },
    {
      id: 4130,
      name: "FeedLoader",
      ops: workerProgram(rand, period + 2 * MS, items),
      pc: 0,
      left: 0,
      cpu: 0,
    },
  ];
  const records: TraceRecordSpec[] = [];
  const ran: { thread: number; start: number; end: number }[] = [];
  let now = 0;
  // Runs a thread's zero-time ops (enters, exits) and returns whether it has CPU work ready now.
  const ready = (t: (typeof threads)[number]): boolean => {
    while (t.pc < t.ops.length) {
      const op = t.ops[t.pc]!;
      if (op.at !== undefined) {
        if (op.at > now) return false;
        t.pc++;
      } else if (op.enter || op.exit) {
        const m = (op.enter ?? op.exit)!;
        records.push({
          threadId: t.id,
          methodId: id(m),
          action: op.enter ? 0 : 1,
          wallUs: Math.round(now / US),
          threadCpuUs: Math.round(t.cpu / US),
        });
        t.pc++;
      } else {
        if (t.left === 0) t.left = op.work!;
        return true;
      }
    }
    return false;
  };
  let turn = 0;
  while (threads.some((t) => t.pc < t.ops.length)) {
    const runnable = threads.filter(ready);
    if (!runnable.length) {
      const wake = Math.min(...threads.map((t) => t.ops[t.pc]?.at ?? Infinity));
      if (!Number.isFinite(wake)) break;
      now = wake;
      continue;
    }
    // Contended: round robin between runnable threads; healthy: the UI thread first.
    const t = contended ? runnable[turn++ % runnable.length]! : runnable[0]!;
    let slice = contended ? between(rand, 1.5, 2.5) * MS : t.left;
    // The UI thread's next vsync preempts a background worker (healthy) or ends a slice (contended).
    const nextWake = Math.min(...threads.filter((o) => o !== t).map((o) => o.ops[o.pc]?.at ?? Infinity));
    if (nextWake > now) slice = Math.min(slice, nextWake - now);
    const run = Math.max(1 * US, Math.min(slice, t.left));
    ran.push({ thread: t.id, start: now, end: now + run });
    now += run;
    t.cpu += run;
    t.left -= run;
    if (t.left <= 0) ((t.left = 0), t.pc++);
  }
  records.sort((a, b) => a.wallUs! - b.wallUs!);
  const ui = ran.filter((r) => r.thread === 4101);
  return {
    threads: threads.map((t) => ({ id: t.id, name: t.name })),
    methods,
    records,
    truth: {
      case: contended ? "context-switch" : "context-switch-healthy",
      paper: "AndroScope §V-3 (Fig. 12)",
      finding: contended
        ? "doFrame takes far longer on the wall clock than it runs: the UI thread is switched out for the worker's parsing"
        : "the worker runs between frames: doFrame runs for its whole wall time",
      culprit: {
        method: FRAME_METHODS[1],
        switched_out_for: FRAME_METHODS[6],
        ui_running_ns: ui.reduce((s, r) => s + r.end - r.start, 0),
        slices: ran.length,
      },
    },
  };
}
