// Streaming Perfetto trace decoder: TracePackets (protos/perfetto/trace/trace_packet.proto) into the shared trace
// rows, with per-sequence incremental state (interned_data 12, sequence_flags 13, trace_packet_defaults 59) and
// every timestamp brought to CLOCK_MONOTONIC through the ClockSnapshots. Pure: inflating is passed in.
import { AndroidLog } from "./android-log";
import type { AtraceSlices } from "./atrace-slices";
import { readKernelSymbols } from "./blocked-reasons";
import { ClockSnapshots, CLOCK_BOOTTIME, clockName, type ClockConversion } from "./clock-snapshots";
import { FrameTimeline } from "./frame-timeline";
import { FtraceEvents } from "./ftrace-events";
import { PACKET_KIND_NAMES, finishRows } from "./trace-finish";
import { PerfettoFormatError, ProtoReader, WIRE_LEN } from "./proto-reader";
import type { CounterRow, TraceRows } from "./rows";
import { TraceSplitter } from "./trace-splitter";
import { newExtra, readExtraCounter, type ExtraCounterTracks } from "./extra-counters";
import { readProcessTree } from "./process-tree";
import { readProcessStats } from "./process-stats";
import { SystemInfo } from "./system-info";
import type { SequenceThread } from "./event-track";
import { TrackEvents, newInterned, readInterned, type Interned } from "./track-events";

export interface PerfettoDecodeOptions {
  /** zlib inflate (node:zlib inflateSync, or DecompressionStream's result); compressed_packets are refused without it */
  inflate?: (bytes: Uint8Array) => Uint8Array;
  /** ftrace events queued before a replay pass (default 65536; tests vary it) */
  replayBatch?: number;
  /** the trace's size in bytes when known (decodePerfetto of one buffer): the row builders grow by it */
  totalBytes?: number;
}

export interface PerfettoDecode {
  rows: TraceRows;
  warnings: string[];
  /** false when the trace was cut, a packet could not be read, or packets were refused (zstd) */
  complete: boolean;
  /** the error that ended decoding early (truncation, corrupt framing), with its byte offset */
  failure: PerfettoFormatError | null;
  clock: ClockConversion;
  packets: number;
  /** true when the trace held FrameTimeline events */
  frameTimeline: boolean;
  /** SystemInfo and PackagesList */
  system: SystemInfo;
}

interface Sequence {
  interned: Interned;
  clockId: number | null;
  defaultTrack: number | null;
  /** TrackEventDefaults' extra counter track uuids */
  extraTracks: ExtraCounterTracks | null;
  valid: boolean;
  /** the thread a thread descriptor on this sequence declared (kept across incremental-state clears) */
  thread: SequenceThread | null;
  kernelSymbols: Map<number, string>;
}

// TracePacket fields that describe the packet rather than carry data.
const META = new Uint8Array(128);
for (const f of [3, 8, 10, 12, 13, 36, 41, 42, 58, 59, 79, 87]) META[f] = 1;
const isMeta = (f: number) => f < 128 && META[f] === 1;

export class PerfettoDecoder {
  private splitter = new TraceSplitter((b, s, e, off) => this.packet(b, s, e, off, null));
  private clocks = new ClockSnapshots();
  private ftrace: FtraceEvents;
  private tracks: TrackEvents;
  private timeline = new FrameTimeline();
  private system = new SystemInfo();
  private log = new AndroidLog();
  private memory: CounterRow[] = [];
  private sequences = new Map<number, Sequence>();
  private skippedKinds = new Map<number, number>();
  private badPackets: string[] = [];
  private badPacketCount = 0;
  private zstd = 0;
  private uninflated = 0;
  private lostState = 0;
  private unconverted = new Map<number, number>();
  private failure: PerfettoFormatError | null = null;
  packets = 0;

  constructor(private readonly options: PerfettoDecodeOptions = {}) {
    this.ftrace = new FtraceEvents(options.replayBatch);
    this.tracks = new TrackEvents(this.ftrace.strings);
  }

  /** Feeds the next chunk of the file; after a framing error the rest is ignored. */
  push(chunk: Uint8Array): void {
    if (this.failure) return;
    try {
      this.splitter.push(chunk);
    } catch (e) {
      if (!(e instanceof PerfettoFormatError)) throw e;
      this.failure = e;
    }
  }

  end(): PerfettoDecode {
    if (!this.failure) {
      try {
        this.splitter.end();
      } catch (e) {
        if (!(e instanceof PerfettoFormatError)) throw e;
        this.failure = e;
      }
    }
    this.ftrace.finish();
    const { slices, states, tracker } = this.ftrace;
    this.tracks.resolve();
    const { convert, info } = this.clocks.conversion();
    const rows: TraceRows = finishRows({
      atrace: slices,
      states,
      tracks: this.tracks,
      timeline: this.timeline,
      tracker,
      strings: this.ftrace.strings,
      convert,
    });
    this.finishExtras(rows, convert);
    const warnings = this.warnings(slices, info);
    return {
      rows,
      warnings,
      complete:
        this.failure === null && this.badPacketCount === 0 && this.zstd === 0 && this.uninflated === 0,
      failure: this.failure,
      clock: info,
      packets: this.packets,
      frameTimeline: this.timeline.rows.length > 0,
      system: this.system,
    };
  }

  // Per-CPU power and process memory counters, blocked reasons, packages and the trace's logcat onto the rows.
  private finishExtras(rows: TraceRows, convert: (boot: number) => number) {
    const extra = [...this.ftrace.power.counters, ...this.memory];
    if (extra.length) {
      for (const c of extra) c.ts = convert(c.ts);
      rows.counters = [...rows.counters, ...extra].sort((a, b) => a.ts - b.ts);
    }
    if (rows.threadStateColumns) this.ftrace.blocked.apply(rows.threadStateColumns, convert);
    rows.packages = this.system.packages;
    rows.binder = this.ftrace.binder.finish(convert);
    // CLOCK_REALTIME (1) to BOOTTIME through the ClockSnapshots, then to MONOTONIC.
    rows.log = this.log.records((rt) => {
      const b = this.clocks.toBoot(1, rt);
      return b === null ? null : convert(b);
    });
  }

  private packet(buf: Uint8Array, start: number, end: number, offset: number, outer: number | null) {
    this.packets++;
    const total = this.options.totalBytes;
    if (total && outer === null) this.ftrace.progress.done = offset / total;
    try {
      this.read(this.packetReader.reset(buf, start, end, offset - start), offset);
    } catch (e) {
      if (!(e instanceof PerfettoFormatError)) throw e;
      this.badPacketCount++;
      const where =
        outer === null ? `packet at byte ${offset}` : `packet inside compressed_packets at byte ${outer}`;
      if (this.badPackets.length < 5) this.badPackets.push(`${where} skipped: ${e.message}`);
    }
  }

  // Readers reused from packet to packet (a trace holds millions; compressed_packets re-enter read() only after
  // the outer packet's last use of them).
  private packetReader = new ProtoReader(new Uint8Array(0), 0, 0);
  private bodyReader = new ProtoReader(new Uint8Array(0), 0, 0);
  private internedReader = new ProtoReader(new Uint8Array(0), 0, 0);
  private entryReader = new ProtoReader(new Uint8Array(0), 0, 0);

  private read(r: ProtoReader, offset: number) {
    let ts = 0;
    let clockId: number | null = null;
    let seqId = 0;
    let flags = 0;
    let interned: ProtoReader | null = null;
    let defaults: ProtoReader | null = null;
    let kind = 0;
    let body: ProtoReader | null = null;
    while (r.more()) {
      const t = r.tag();
      const f = t >>> 3;
      const wt = t & 7;
      if (f === 8 && wt === 0) ts = r.varint();
      else if (f === 58 && wt === 0) clockId = r.varint();
      else if (f === 10 && wt === 0) seqId = r.varint();
      else if (f === 13 && wt === 0) flags |= r.varint();
      else if (f === 41 && wt === 0) flags |= r.varint() ? 1 : 0;
      else if (f === 12 && wt === WIRE_LEN) interned = this.internedReader.enter(r);
      else if (f === 59 && wt === WIRE_LEN) defaults = r.message();
      else if (!isMeta(f) && wt === WIRE_LEN && kind === 0) {
        kind = f;
        body = this.bodyReader.enter(r);
      } else {
        if (!isMeta(f)) this.skippedKinds.set(f, (this.skippedKinds.get(f) ?? 0) + 1);
        r.skip(wt);
      }
    }
    let seq = this.sequences.get(seqId);
    if (!seq)
      this.sequences.set(
        seqId,
        (seq = {
          interned: newInterned(),
          clockId: null,
          defaultTrack: null,
          extraTracks: null,
          valid: false,
          thread: null,
          kernelSymbols: new Map(),
        }),
      );
    // SEQ_INCREMENTAL_STATE_CLEARED (1): interning and defaults start over from this packet.
    if (flags & 1) {
      seq.interned = newInterned();
      seq.clockId = null;
      seq.defaultTrack = null;
      seq.extraTracks = null;
      seq.valid = true;
      seq.kernelSymbols = new Map();
    }
    if (defaults) this.defaults(defaults, seq);
    if (interned)
      readKernelSymbols(
        new ProtoReader(interned.buf, interned.pos, interned.end, interned.base),
        seq.kernelSymbols,
      );
    if (interned) readInterned(interned, seq.interned, this.entryReader);
    if (!body) return;
    // SEQ_NEEDS_INCREMENTAL_STATE (2) before any clear on the sequence: its interned ids mean nothing yet.
    if (flags & 2 && !seq.valid) {
      this.lostState++;
      return;
    }
    switch (kind) {
      case 1:
        this.ftrace.blocked.symbols = seq.kernelSymbols;
        this.ftrace.bundle(body);
        return;
      case 2:
        this.ftrace.tracker.log({
          ts: this.boot(ts, clockId ?? seq.clockId),
          k: "tree",
          tree: readProcessTree(body),
        });
        return;
      case 6:
        this.clocks.add(body);
        return;
      case 11:
        this.tracks.event(
          body,
          this.boot(ts, clockId ?? seq.clockId),
          seq.interned,
          seq.defaultTrack,
          seq.thread,
          seq.extraTracks,
        );
        return;
      case 60: {
        const thread = this.tracks.descriptor(body);
        // A thread's track descriptor is its sequence's thread too (track_event_tokenizer.cc).
        if (thread && seq.valid) seq.thread = thread;
        return;
      }
      case 44:
        // Legacy ThreadDescriptor (thread_descriptor.proto: pid 1, tid 2): the sequence's thread.
        seq.thread = readThreadDescriptor(body) ?? seq.thread;
        return;
      case 9:
        readProcessStats(body, this.boot(ts, clockId ?? seq.clockId), this.memory);
        return;
      case 39:
        this.log.packet(body);
        return;
      case 45:
        this.system.system(body);
        return;
      case 47:
        this.system.packageList(body);
        return;
      case 76:
        this.timeline.event(body, this.boot(ts, clockId ?? seq.clockId));
        return;
      case 50:
        this.compressed(body, offset);
        return;
      case 133:
        this.zstd++;
        return;
      default:
        this.skippedKinds.set(kind, (this.skippedKinds.get(kind) ?? 0) + 1);
    }
  }

  private boot(ts: number, packetClock: number | null): number {
    const clockId = packetClock ?? this.clocks.primary;
    if (clockId === CLOCK_BOOTTIME) return ts;
    const b = this.clocks.toBoot(clockId, ts);
    if (b !== null) return b;
    this.unconverted.set(clockId, (this.unconverted.get(clockId) ?? 0) + 1);
    return ts;
  }

  private defaults(r: ProtoReader, seq: Sequence) {
    while (r.more()) {
      const t = r.tag();
      if (t === 58 << 3) seq.clockId = r.varint();
      else if (t === ((11 << 3) | WIRE_LEN)) {
        // New TrackEventDefaults replace the old (track_uuid 11, extra counter uuids 31 and 45).
        const d = r.message();
        seq.extraTracks = null;
        while (d.more()) {
          const dt = d.tag();
          if (dt === 88) seq.defaultTrack = d.varint();
          else if (dt >>> 3 === 31 || dt >>> 3 === 45)
            readExtraCounter(d, dt >>> 3, dt & 7, (seq.extraTracks ??= newExtra()));
          else d.skip(dt & 7);
        }
      } else r.skip(t & 7);
    }
  }

  private compressed(r: ProtoReader, offset: number) {
    if (!this.options.inflate) {
      this.uninflated++;
      return;
    }
    let inflated: Uint8Array;
    try {
      inflated = this.options.inflate(r.buf.subarray(r.pos, r.end));
    } catch (e) {
      throw new PerfettoFormatError(offset, `compressed_packets do not inflate (${(e as Error).message})`);
    }
    const inner = new TraceSplitter((b, s, e) => this.packet(b, s, e, s, offset));
    try {
      inner.push(inflated);
      inner.end();
    } catch (e) {
      if (!(e instanceof PerfettoFormatError)) throw e;
      throw new PerfettoFormatError(offset, `inside compressed_packets, ${e.message}`);
    }
  }

  private warnings(slices: AtraceSlices, clock: ClockConversion): string[] {
    const w: string[] = [];
    if (this.failure) w.push(this.failure.message + "; every whole packet before it was kept");
    w.push(...this.badPackets);
    if (this.badPacketCount > this.badPackets.length)
      w.push(`${this.badPacketCount - this.badPackets.length} more unreadable packets skipped`);
    if (this.zstd)
      w.push(
        `${this.zstd} zstd_compressed_packets batches not read: zstd is not supported; record with compression off or zlib (TraceConfig.compression_type DEFLATE), or convert the trace with traceconv`,
      );
    if (this.uninflated)
      w.push(`${this.uninflated} compressed_packets batches not read: no zlib inflate available`);
    if (this.splitter.otherFields)
      w.push(`${this.splitter.otherFields} top-level fields other than Trace.packet (1) skipped`);
    if (this.skippedKinds.size) {
      const kinds = [...this.skippedKinds].map(([f, n]) => `${PACKET_KIND_NAMES[f] ?? `field ${f}`} ${n}`);
      w.push(`packet kinds not read, skipped: ${kinds.join(", ")}`);
    }
    if (this.ftrace.skipped.size) {
      const kinds = [...this.ftrace.skipped].map(([f, n]) => `field ${f} ${n}`);
      w.push(`ftrace events not read, skipped (FtraceEvent field: count): ${kinds.join(", ")}`);
    }
    if (this.ftrace.late)
      w.push(
        `${this.ftrace.late} ftrace bundles older than events already replayed from other CPUs: read out of order`,
      );
    if (this.ftrace.nonBootClock)
      w.push(
        `${this.ftrace.nonBootClock} ftrace bundles on a non-boot ftrace clock without a boot timestamp: left unshifted`,
      );
    if (this.lostState)
      w.push(
        `${this.lostState} packets needing incremental state before their sequence was cleared: skipped`,
      );
    for (const [id, n] of this.unconverted)
      w.push(
        `${n} packets on ${clockName(id)} with no ClockSnapshot relating it to BOOTTIME: taken as BOOTTIME`,
      );
    if (!clock.converted)
      w.push("no ClockSnapshot with BOOTTIME and MONOTONIC: timestamps left in BOOTTIME (offset 0)");
    else if (clock.offsets.length > 1)
      w.push(
        `BOOTTIME-MONOTONIC offset changed during the trace (device suspended): ${clock.offsets.length} offsets, nearest snapshot used`,
      );
    const unmatched = slices.unmatchedEnds + this.tracks.unmatchedEnds;
    if (unmatched)
      w.push(`${unmatched} slice ends with no open slice (begun before the trace started): ignored`);
    if (slices.malformed)
      w.push(
        `${slices.malformed} atrace markers not understood, e.g. ${JSON.stringify(slices.firstMalformed)}`,
      );
    if (this.tracks.extraWithoutTrack)
      w.push(
        `${this.tracks.extraWithoutTrack} track_event extra counter values without a counter track skipped`,
      );
    if (this.tracks.asyncWithoutId)
      w.push(`${this.tracks.asyncWithoutId} legacy async track_events without an id skipped`);
    if (this.tracks.missingInterned)
      w.push(
        `${this.tracks.missingInterned} track_event names or categories referring to interned ids never defined`,
      );
    if (this.timeline.badTimestamps)
      w.push(`${this.timeline.badTimestamps} FrameTimeline events with invalid timestamps: skipped`);
    if (this.timeline.unmatchedEnds)
      w.push(`${this.timeline.unmatchedEnds} FrameTimeline FrameEnd without a start: ignored`);
    return w;
  }
}

/** Decodes a whole trace given as one buffer or as chunks. */
export function decodePerfetto(
  input: Uint8Array | Iterable<Uint8Array>,
  options: PerfettoDecodeOptions = {},
): PerfettoDecode {
  const d = new PerfettoDecoder(
    input instanceof Uint8Array && options.totalBytes === undefined
      ? { ...options, totalBytes: input.length }
      : options,
  );
  if (input instanceof Uint8Array) d.push(input);
  else for (const chunk of input) d.push(chunk);
  return d.end();
}

function readThreadDescriptor(r: ProtoReader): SequenceThread | null {
  let pid: number | null = null;
  let tid: number | null = null;
  while (r.more()) {
    const t = r.tag();
    if (t === 8) pid = r.int64();
    else if (t === 16) tid = r.int64();
    else r.skip(t & 7);
  }
  return pid !== null && tid !== null ? { pid, tid } : null;
}
