// A small sample run with a method trace (AndroScope): 6 s of scrolling a feed on a Pixel 4a, traced with
// `am profile` (ART, dual clock) while `simpleperf stat --interval 10` counted cycles and instructions.
// The app decodes thumbnails on the main thread when they miss its cache (BitmapFactory.decodeStream inside
// FeedAdapter.onBindViewHolder): those frames miss their deadline. Everything goes through the real paths:
// the trace is written by the method trace writer and read back by the reader, the counters are printed as
// simpleperf prints them and parsed. Seeded, so every generation is the same run.
//
//   npx tsx samples/method-trace-sample.ts   (writes workspace/public/samples/feed-methods-pixel-4a/ only)
//   npx tsx samples/method-trace-sample.ts --prefetch-baseline   (notebooks/runs/feed-methods-pixel-4a-2.3.0/,
//   the release before, which decoded thumbnails on the worker: notebooks/compare.md's baseline)
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { newManifest } from "../bundle/manifest";
import { writeBundleFolder } from "../bundle/node-io";
import { bundleTableFromRows, makeBundleTable } from "../bundle/table-builder";
import { methodTraceTables } from "../collectors/method-trace-tables";
import { mulberry32, between, type Rand } from "../collectors/simulator/random";
import { readMethodTrace, type TraceMethod } from "../collectors/sources/method-trace";
import { writeMethodTrace, type TraceRecordSpec } from "../collectors/sources/method-trace-writer";
import { hpcSamples, hpcSamplesTable } from "../collectors/sources/simpleperf-samples";
import { parseSimpleperfStat } from "../collectors/sources/simpleperf-stat";
import { formatStatReport } from "../collectors/sources/simpleperf-stat-writer";
import { PROFILES } from "../collectors/simulator/device-profiles";
import { profileContext } from "./profile-context";

export const METHOD_SAMPLE_RUN = "feed-methods-pixel-4a";
const US = 1000;
const MS = 1_000_000;
const FRAME = 16_666_667;
const SECONDS = 6;
const GHZ = 1.8;
const MAIN = 20417;
const WORKER = 20455;

// [class, method, signature, instructions per cycle while it runs its own code]
const METHODS: [string, string, string, number][] = [
  ["android.os.Looper", "loop", "()V", 1.2],
  ["android.os.MessageQueue", "next", "()Landroid/os/Message;", 1.2],
  ["android.os.MessageQueue", "nativePollOnce", "(JI)V", 1.0],
  ["android.os.Handler", "dispatchMessage", "(Landroid/os/Message;)V", 1.2],
  ["android.view.Choreographer$FrameDisplayEventReceiver", "run", "()V", 1.2],
  ["android.view.Choreographer", "doFrame", "(JI)V", 1.1],
  ["android.view.Choreographer", "doCallbacks", "(IJ)V", 1.1],
  ["androidx.recyclerview.widget.RecyclerView", "onTouchEvent", "(Landroid/view/MotionEvent;)Z", 1.0],
  ["androidx.recyclerview.widget.RecyclerView", "scrollByInternal", "(IILandroid/view/MotionEvent;I)Z", 1.0],
  [
    "androidx.recyclerview.widget.LinearLayoutManager",
    "scrollVerticallyBy",
    "(ILandroidx/recyclerview/widget/RecyclerView$Recycler;Landroidx/recyclerview/widget/RecyclerView$State;)I",
    0.9,
  ],
  ["androidx.recyclerview.widget.RecyclerView$Recycler", "getViewForPosition", "(I)Landroid/view/View;", 0.9],
  ["com.example.feed.FeedAdapter", "onBindViewHolder", "(Lcom/example/feed/FeedAdapter$Holder;I)V", 1.0],
  ["android.widget.TextView", "setText", "(Ljava/lang/CharSequence;)V", 0.8],
  ["com.example.feed.ImageLoader", "loadThumbnail", "(Ljava/lang/String;Landroid/widget/ImageView;)V", 1.0],
  ["android.util.LruCache", "get", "(Ljava/lang/Object;)Ljava/lang/Object;", 1.3],
  ["android.graphics.BitmapFactory", "decodeStream", "(Ljava/io/InputStream;)Landroid/graphics/Bitmap;", 1.5],
  [
    "android.graphics.BitmapFactory",
    "nativeDecodeStream",
    "(Ljava/io/InputStream;[BLandroid/graphics/Rect;Landroid/graphics/BitmapFactory$Options;)Landroid/graphics/Bitmap;",
    2.1,
  ],
  ["android.view.ViewRootImpl", "performTraversals", "()V", 0.9],
  ["android.view.ViewRootImpl", "performMeasure", "(II)V", 0.7],
  ["android.view.ViewRootImpl", "performLayout", "(Landroid/view/WindowManager$LayoutParams;II)V", 0.7],
  ["android.view.ViewRootImpl", "performDraw", "()Z", 0.9],
  [
    "android.view.ThreadedRenderer",
    "draw",
    "(Landroid/view/View;Landroid/view/View$AttachInfo;Landroid/view/ThreadedRenderer$DrawCallbacks;)V",
    0.9,
  ],
  ["com.example.feed.FeedRepository", "loadNextPage", "()Ljava/util/List;", 1.1],
  ["com.example.feed.FeedParser", "parseItem", "(Landroid/util/JsonReader;)Lcom/example/feed/Item;", 1.4],
  ["java.net.SocketInputStream", "socketRead0", "(Ljava/io/FileDescriptor;[BIII)I", 1.0],
];
const id = (name: string) => 0x7f000000 + 8 * METHODS.findIndex(([c, m]) => `${c}.${m}` === name);
const ipcOf = new Map(METHODS.map(([, , , ipc], i) => [0x7f000000 + 8 * i, ipc]));
/** Blocked, not running: the thread uses no CPU and counts no events in these. */
const IDLE = new Set([
  id("android.os.MessageQueue.nativePollOnce"),
  id("java.net.SocketInputStream.socketRead0"),
]);

interface Call {
  method: number;
  enter: number;
  exit: number;
  children: Call[];
}

/** The main thread's calls for the scenario: idle polls between frames, frames while scrolling. */
function mainThread(
  rand: Rand,
  scrolls: [number, number][],
  truth: { decodes: number; frames: FrameTimes[] },
  prefetched = false,
): Call {
  const loop: Call = {
    method: id("android.os.Looper.loop"),
    enter: -5 * MS,
    exit: SECONDS * 1e9 + 5 * MS,
    children: [],
  };
  let now = 0;
  // A call of `name` under `parent`: a short prologue, its callees, then `own` ns of its own code.
  const call = (parent: Call, name: string, own: number, body?: (c: Call) => void): Call => {
    const c: Call = { method: id(name), enter: now, exit: now, children: [] };
    parent.children.push(c);
    if (body) ((now += 3 * US), body(c));
    now += own;
    c.exit = now;
    return c;
  };
  const idleUntil = (t: number) => {
    if (t <= now + 40 * US) return;
    call(loop, "android.os.MessageQueue.next", 10 * US, (next) =>
      call(next, "android.os.MessageQueue.nativePollOnce", t - now - 13 * US),
    );
  };
  const scrolling = (t: number) => scrolls.some(([a, b]) => t >= a && t < b + 250 * MS);
  let vsync = 0;
  while (vsync < SECONDS * 1e9 - 30 * MS) {
    if (!scrolling(vsync)) {
      vsync += FRAME;
      continue;
    }
    idleUntil(vsync + 300 * US);
    const frame: FrameTimes = {
      intended_vsync: vsync,
      handle_input_start: 0,
      animation_start: 0,
      perform_traversals_start: 0,
      draw_start: 0,
      end: 0,
    };
    const touching = scrolls.some(([a, b]) => vsync >= a && vsync < b);
    call(loop, "android.os.Handler.dispatchMessage", 5 * US, (d) =>
      call(d, "android.view.Choreographer$FrameDisplayEventReceiver.run", 5 * US, (r) =>
        call(r, "android.view.Choreographer.doFrame", 20 * US, (f) => {
          frame.handle_input_start = now;
          if (touching)
            call(f, "android.view.Choreographer.doCallbacks", 10 * US, (cb) =>
              call(cb, "androidx.recyclerview.widget.RecyclerView.onTouchEvent", 40 * US, (t) =>
                call(t, "androidx.recyclerview.widget.RecyclerView.scrollByInternal", 30 * US, (s) =>
                  call(
                    s,
                    "androidx.recyclerview.widget.LinearLayoutManager.scrollVerticallyBy",
                    between(rand, 150, 400) * US,
                    (l) => {
                      // A new row scrolls in every few frames; its thumbnail is decoded here when not cached.
                      if (rand() < 0.3)
                        call(
                          l,
                          "androidx.recyclerview.widget.RecyclerView$Recycler.getViewForPosition",
                          80 * US,
                          (g) =>
                            call(g, "com.example.feed.FeedAdapter.onBindViewHolder", 30 * US, (b) => {
                              call(b, "android.widget.TextView.setText", between(rand, 150, 300) * US);
                              call(b, "com.example.feed.ImageLoader.loadThumbnail", 20 * US, (img) => {
                                call(img, "android.util.LruCache.get", 40 * US);
                                if (rand() < 0.35) return; // cached
                                // prefetched by the worker: a cache hit, its decode time still drawn
                                if (prefetched) return void between(rand, 18, 34);
                                truth.decodes++;
                                call(img, "android.graphics.BitmapFactory.decodeStream", 100 * US, (dec) =>
                                  call(
                                    dec,
                                    "android.graphics.BitmapFactory.nativeDecodeStream",
                                    between(rand, 18, 34) * MS,
                                  ),
                                );
                              });
                            }),
                        );
                    },
                  ),
                ),
              ),
            );
          frame.animation_start = now;
          call(f, "android.view.Choreographer.doCallbacks", 30 * US);
          frame.perform_traversals_start = now;
          call(f, "android.view.Choreographer.doCallbacks", 10 * US, (cb) =>
            call(cb, "android.view.ViewRootImpl.performTraversals", 60 * US, (pt) => {
              call(pt, "android.view.ViewRootImpl.performMeasure", between(rand, 0.6, 1.4) * MS);
              call(pt, "android.view.ViewRootImpl.performLayout", between(rand, 0.4, 1.1) * MS);
              frame.draw_start = now;
              call(pt, "android.view.ViewRootImpl.performDraw", 50 * US, (pd) =>
                call(pd, "android.view.ThreadedRenderer.draw", between(rand, 1.2, 2.6) * MS),
              );
            }),
          );
        }),
      ),
    );
    frame.end = now;
    truth.frames.push(frame);
    // Choreographer skips the vsyncs the frame ran past.
    vsync += FRAME * Math.max(1, Math.ceil((now - vsync) / FRAME));
  }
  idleUntil(SECONDS * 1e9);
  return loop;
}

/** The background thread: a page of items fetched and parsed after each scroll starts. */
function workerThread(rand: Rand, scrolls: [number, number][], prefetch = false): Call[] {
  return scrolls.map(([start]) => {
    let now = start + 80 * MS;
    const load: Call = {
      method: id("com.example.feed.FeedRepository.loadNextPage"),
      enter: now,
      exit: 0,
      children: [],
    };
    now += 200 * US;
    load.children.push({
      method: id("java.net.SocketInputStream.socketRead0"),
      enter: now,
      exit: now + 30 * MS,
      children: [],
    });
    now += 30 * MS + 100 * US;
    for (let i = 0; i < 20; i++) {
      const d = between(rand, 0.6, 1.5) * MS;
      load.children.push({
        method: id("com.example.feed.FeedParser.parseItem"),
        enter: now,
        exit: now + d,
        children: [],
      });
      now += d + 50 * US;
    }
    // The release before decoded the page's thumbnails here, off the main thread.
    for (let i = 0; prefetch && i < 4; i++) {
      const decode: Call = {
        method: id("android.graphics.BitmapFactory.decodeStream"),
        enter: now,
        exit: now + 24.1 * MS,
        children: [],
      };
      decode.children.push({
        method: id("android.graphics.BitmapFactory.nativeDecodeStream"),
        enter: now + 50 * US,
        exit: now + 24 * MS,
        children: [],
      });
      load.children.push(decode);
      now = decode.exit + 50 * US;
    }
    load.exit = now + 200 * US;
    return load;
  });
}

/** A frame's FrameInfo stamps, named as the frames table's columns (bundle/schema.ts), and when its UI work ended. */
interface FrameTimes {
  intended_vsync: number;
  handle_input_start: number;
  animation_start: number;
  perform_traversals_start: number;
  draw_start: number;
  end: number;
}

/** Enter and exit records of a thread's calls, µs, thread-CPU advancing except while polling idle. */
function records(thread: number, tops: Call[], out: TraceRecordSpec[]): void {
  let cpu = 0;
  let last = 0;
  const events: [number, number, number, boolean][] = [];
  const walk = (c: Call, inIdle: boolean) => {
    // Calls already running when tracing began have no enter record; still running at the stop, no exit.
    if (c.enter >= 0) events.push([c.enter, c.method, 0, inIdle]);
    for (const k of c.children) walk(k, IDLE.has(c.method));
    if (c.exit <= SECONDS * 1e9) events.push([c.exit, c.method, 1, IDLE.has(c.method)]);
  };
  for (const t of tops) walk(t, false);
  for (const [at, method, action, wasIdle] of events) {
    cpu += wasIdle ? (at - last) * 0.02 : at - last;
    last = at;
    out.push({
      threadId: thread,
      methodId: method,
      action,
      wallUs: Math.round(at / US),
      threadCpuUs: Math.round(cpu / US),
    });
  }
}

/** Cycles and instructions per 10 ms as the process's threads ran: own time of each call at its IPC, idle polls not running. */
function counters(
  threads: Call[][],
  renderThreadBusy: [number, number][],
): { cycles: number[]; instructions: number[] } {
  const n = Math.ceil((SECONDS * 1e9) / (10 * MS));
  const cycles = new Array<number>(n).fill(0);
  const instructions = new Array<number>(n).fill(0);
  const add = (from: number, to: number, ipc: number) => {
    for (let t = Math.max(0, from); t < Math.min(to, SECONDS * 1e9);) {
      const k = Math.floor(t / (10 * MS));
      const end = Math.min(to, (k + 1) * 10 * MS);
      cycles[k] = cycles[k]! + (end - t) * GHZ;
      instructions[k] = instructions[k]! + (end - t) * GHZ * ipc;
      t = end;
    }
  };
  const own = (c: Call) => {
    let at = c.enter;
    for (const k of c.children) {
      if (!IDLE.has(c.method)) add(at, k.enter, ipcOf.get(c.method)!);
      own(k);
      at = k.exit;
    }
    if (!IDLE.has(c.method)) add(at, c.exit, ipcOf.get(c.method)!);
  };
  for (const tops of threads) for (const t of tops) own(t);
  // RenderThread (native, not in the method trace) syncs and draws each frame: counted, attributed to no call.
  for (const [a, b] of renderThreadBusy) add(a, b, 1.0);
  return { cycles, instructions };
}

function heapSamples(rand: Rand, decodeEnds: number[]): { ts: number[]; kind: string[]; value: number[] } {
  const out = { ts: [] as number[], kind: [] as string[], value: [] as number[] };
  let java = 22 * 1048576;
  let native = 31 * 1048576;
  let held = 0;
  let d = 0;
  for (let t = 0; t <= SECONDS * 1e9; t += 50 * MS) {
    java += between(rand, 20, 60) * 1024;
    // Each decoded thumbnail: 1.4 MB of pixels in the native heap; the cache keeps the last 12.
    while (d < decodeEnds.length && decodeEnds[d]! <= t) {
      native += 1.4 * 1048576;
      java += 64 * 1024;
      if (++held > 12) native -= 1.4 * 1048576;
      d++;
    }
    if (java > 30 * 1048576) java = 22 * 1048576 + between(rand, 0, 512) * 1024; // a GC
    (out.ts.push(t, t),
      out.kind.push("java_heap", "native_heap"),
      out.value.push(Math.round(java), Math.round(native)));
  }
  return out;
}

/**
 * The release before (notebooks/compare.md's baseline): thumbnails are decoded ahead of time on the worker thread,
 * so the main thread finds every one in the cache. Main-thread randomness is drawn as in the sample, so everything
 * else about the run is the same.
 */
export const PREFETCH_VARIANT: SampleVariant = {
  runId: "feed-methods-pixel-4a-2.3.0",
  appVersion: "2.3.0",
  prefetch: true,
};

export interface SampleVariant {
  runId: string;
  appVersion: string;
  /** thumbnails decoded on the worker after each page loads, never on the main thread */
  prefetch: boolean;
}

export async function generateMethodTraceSample(
  outRoot: string,
  seed = 2024,
  variant: SampleVariant = { runId: METHOD_SAMPLE_RUN, appVersion: "2.4.0", prefetch: false },
): Promise<string> {
  const RUN = variant.runId;
  const rand = mulberry32(seed);
  const scrolls: [number, number][] = [
    [0.4e9, 1.7e9],
    [2.3e9, 3.4e9],
    [4.1e9, 5.5e9],
  ];
  const truth = { decodes: 0, frames: [] as FrameTimes[] };
  const main = mainThread(rand, scrolls, truth, variant.prefetch);
  const worker = workerThread(rand, scrolls, variant.prefetch);
  const methods: TraceMethod[] = METHODS.map(([className, methodName, signature], i) => ({
    id: 0x7f000000 + 8 * i,
    className,
    methodName,
    signature,
    sourceFile: `${className.split(".").pop()!.split("$")[0]}.java`,
  }));
  const recs: TraceRecordSpec[] = [];
  records(MAIN, [main], recs);
  records(WORKER, worker, recs);
  recs.sort((a, b) => a.wallUs! - b.wallUs!);
  const bytes = writeMethodTrace({
    dataVersion: 3,
    clock: "dual",
    threads: [
      { id: MAIN, name: "main" },
      { id: WORKER, name: "AsyncTask #1" },
    ],
    methods,
    records: recs,
    startTimeUs: Date.UTC(2026, 10, 2, 10) * 1000,
    properties: { "data-file-overflow": "false", vm: "art", pid: String(MAIN) },
  });
  const trace = readMethodTrace(bytes, { runId: RUN });
  const { tables } = methodTraceTables(trace, RUN);

  // simpleperf stat --interval 10 -e cpu-cycles,instructions -p <pid>: running totals, as it prints them.
  const renderBusy = truth.frames.map((f) => [f.end, f.end + 3 * MS] as [number, number]);
  const hw = counters([[main], worker], renderBusy);
  let cycles = 0n;
  let instructions = 0n;
  const text = hw.cycles
    .map((c, k) => {
      cycles += BigInt(Math.round(c));
      instructions += BigInt(Math.round(hw.instructions[k]!));
      return formatStatReport(
        {
          elapsedNs: BigInt((k + 1) * 10 * MS),
          rows: [
            { counter: "cpu-cycles", count: cycles },
            { counter: "instructions", count: instructions },
          ],
        },
        "current",
      );
    })
    .join("\n");
  const hpc = hpcSamplesTable(
    RUN,
    hpcSamples(parseSimpleperfStat(text, "simpleperf-stat.txt"), { values: "cumulative" }),
  );

  const decodeEnds: number[] = [];
  const findDecodes = (c: Call) => (
    c.method === id("android.graphics.BitmapFactory.decodeStream") && decodeEnds.push(c.exit),
    c.children.forEach(findDecodes)
  );
  findDecodes(main);
  if (variant.prefetch) worker.forEach(findDecodes);
  const heap = heapSamples(rand, decodeEnds);
  const heapTable = makeBundleTable("heap_samples", RUN, heap);

  const f = truth.frames;
  // RenderThread completes each frame 3 ms after the UI thread's part (renderBusy above).
  const completed = f.map((x) => x.end + 3 * MS);
  const frames = bundleTableFromRows("frames", RUN, f, {
    window: () => "com.example.feed/.FeedActivity",
    vsync: (x) => x.intended_vsync,
    frame_completed: (_, i) => completed[i],
    duration: (x, i) => completed[i]! - x.intended_vsync,
    deadline: () => FRAME,
    jank: (x, i) => completed[i]! - x.intended_vsync > FRAME,
  });
  const uiEvents = makeBundleTable("ui_events", RUN, {
    ts: scrolls.map(([a]) => a),
    seq: scrolls.map((_, i) => i),
    kind: scrolls.map(() => "scroll"),
    target: scrolls.map(() => "feed_list"),
    source: scrolls.map(() => "manual"),
  });

  const manifest = newManifest(
    RUN,
    {
      app: "com.example.feed",
      app_version: variant.appVersion,
      scenario: "scroll the feed three times (method trace)",
      ...profileContext(PROFILES["pixel-4a"]!),
      network: "wifi",
      battery_level: 76,
    },
    {
      synthetic: true,
      created_by: "jankbook samples/method-trace-sample.ts",
      started_at: "2026-11-02T10:00:00.000Z",
      clock: {
        domain: "method trace wall clock",
        offset_ns: 0,
        note: "ns since tracing began; frames, counters and heap samples are on the same clock",
      },
      sources: [
        {
          kind: "method-trace",
          origin: "am profile (generated, written and read back)",
          tables: ["methods", "threads", "method_events", "calls"],
        },
        {
          kind: "simpleperf",
          origin: "simpleperf stat --interval 10 -e cpu-cycles,instructions (generated text, parsed)",
          tables: ["hpc_samples"],
        },
        {
          kind: "generator",
          origin: `samples/method-trace-sample.ts seed ${seed}`,
          tables: ["frames", "ui_events", "heap_samples"],
        },
      ],
    },
  );
  const dir = join(outRoot, RUN);
  await rm(dir, { recursive: true, force: true });
  await writeBundleFolder(dir, manifest, {
    ...tables,
    hpc_samples: hpc,
    heap_samples: heapTable,
    frames,
    ui_events: uiEvents,
  });
  const janky = f.filter((x, i) => completed[i]! - x.intended_vsync > FRAME).length;
  const groundTruth = {
    run_id: RUN,
    counts: {
      frames: f.length,
      janky_frames: janky,
      ui_events: scrolls.length,
      tasks: 0,
      contexts: 0,
      render_ops: 0,
      calls: tables.calls!.numRows,
      decodes: truth.decodes,
    },
    cases: variant.prefetch
      ? []
      : [
          {
            case: "decode-on-main-thread",
            culprit: {
              root: "android.view.Choreographer.doFrame",
              method: "android.graphics.BitmapFactory.nativeDecodeStream",
              ipc: Object.fromEntries(METHODS.map(([c, m, , ipc]) => [`${c}.${m}`, ipc])),
              ghz: GHZ,
            },
          },
        ],
  };
  await writeFile(join(dir, "ground_truth.json"), JSON.stringify(groundTruth, null, 2) + "\n");
  return RUN;
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv.includes("--prefetch-baseline")) {
  // notebooks/compare.md's baseline, beside the notebook (not a workspace sample)
  const out = new URL("../notebooks/runs/", import.meta.url).pathname;
  process.stdout.write(`wrote ${join(out, await generateMethodTraceSample(out, 2024, PREFETCH_VARIANT))}\n`);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const out = new URL("../workspace/public/samples/", import.meta.url).pathname;
  const run = await generateMethodTraceSample(out);
  const indexPath = join(out, "index.json");
  const index = JSON.parse(await readFile(indexPath, "utf8")) as string[];
  if (!index.includes(run)) await writeFile(indexPath, JSON.stringify([...index, run], null, 2) + "\n");
  process.stdout.write(`wrote ${join(out, run)}\n`);
}
