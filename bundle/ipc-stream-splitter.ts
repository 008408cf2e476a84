// Splits an Arrow IPC stream, as its bytes arrive, into self-contained IPC streams of a few hundred thousand
// rows each, without decoding any column: the workspace hands those straight to DuckDB, so the main thread
// never decodes and re-encodes a big table (10M frames rows load without a long main-thread task:
// docs/budgets.md). Framing per the Arrow IPC format: 0xFFFFFFFF, int32 metadata length, flatbuffer Message,
// body; 0xFFFFFFFF 0 ends.
import { Message, MessageHeader, type Schema } from "apache-arrow";
import { implausibleMetadata } from "./ipc-metadata-guard";
import { BundleError } from "./manifest";
import { tableSpec } from "./schema";
import { canonicalOrder, nullsInRequiredColumn, validateSchema } from "./validate";

export interface IpcChunk {
  /** a complete IPC stream: schema, the dictionaries in force, record batches, end marker */
  bytes: Uint8Array;
  rows: number;
}

export interface SplitterOptions {
  /** rows per emitted stream (whole record batches: a stream may hold a little more) */
  chunkRows: number;
  /**
   * bytes per emitted stream, whichever limit comes first. A chunk's buffer is allocated at this size when it
   * starts and filled message by message, so the cost of fresh memory is spread over the messages' arrival
   * instead of one long copy when the chunk is complete.
   */
  chunkBytes: number;
  /** the file as named in messages */
  file: string;
  /** the bundle table the stream must match */
  table: string;
}

export interface SplitterEnd {
  chunks: IpcChunk[];
  /** where the stream broke or stopped matching the contract; the rows before it were emitted */
  error?: BundleError;
  /** set when the stream cannot be passed through (Arrow *file* format, columns out of contract order): all its bytes */
  whole?: Uint8Array;
}

const CONTINUATION = 0xffffffff;
const END_MARKER = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
/** a chunk's first buffer; it doubles as messages arrive */
const INITIAL_CHUNK_BYTES = 256 << 10;
/** larger metadata than this is garbage, not a schema (a 1,000-column schema is ~100 KB) */
const MAX_METADATA = 16 << 20;

export class IpcStreamSplitter {
  /** bytes pushed but not yet consumed as whole messages */
  private pieces: Uint8Array[] = [];
  private buffered = 0;
  /** file offset of the first unconsumed byte */
  private offset = 0;
  private schemaMessage?: Uint8Array;
  private schema?: Schema;
  /** the dictionary messages in force now, by id, in arrival order (deltas follow their base) */
  private dictionaries = new Map<string, Uint8Array[]>();
  /** those in force when the chunk being filled started: its prefix, after the schema */
  private dictionariesAtChunk: Uint8Array[] = [];
  /** the chunk being filled: schema, dictionaries in force when it started, then the messages since */
  private building?: { buf: Uint8Array; used: number };
  private pendingRows = 0;
  private pendingBatches = 0;
  private emitted = 0;
  private requiredNodes: { column: string; node: number }[] = [];
  /** each top-level column's position among a batch's field nodes, and how many nodes a batch has */
  private topLevelNodes: number[] = [];
  private nodeCount = 0;
  /** every byte, kept only once the stream turns out to need the decoding path */
  private collected?: Uint8Array[];
  private stopped?: BundleError;
  private sawEnd = false;
  /** the message whose body is still arriving */
  private waiting?: { offset: number; message: Message; size: number };
  rows = 0;
  batches = 0;

  constructor(private readonly options: SplitterOptions) {}

  /** Takes the next bytes of the file; returns the chunks that became complete. */
  push(bytes: Uint8Array): IpcChunk[] {
    if (bytes.length === 0) return [];
    if (this.collected) {
      this.collected.push(bytes);
      return [];
    }
    if (this.sawEnd || this.stopped) return [];
    this.pieces.push(bytes);
    this.buffered += bytes.length;
    return this.drain();
  }

  /** The file ended: the last chunk, and what was wrong with the stream if anything. */
  finish(): SplitterEnd {
    const { file, table } = this.options;
    if (this.collected) return { chunks: [], whole: concat(this.collected) };
    if (!this.schema && !this.stopped) {
      const total = this.offset + this.buffered;
      if (total === 0)
        return { chunks: [], error: new BundleError(file, `table ${table}: empty file`, table) };
      this.stopped = new BundleError(
        file,
        `table ${table}: truncated Arrow stream (${total} bytes, no complete schema)`,
        table,
      );
    }
    if (!this.schema) return { chunks: [], error: this.stopped };
    const truncated = !this.sawEnd && !this.stopped;
    if (this.stopped && this.batches === 0) return { chunks: [], error: this.stopped };
    if (truncated && this.batches === 0)
      return {
        chunks: [],
        error: new BundleError(
          file,
          `table ${table}: truncated Arrow stream (${this.offset + this.buffered} bytes, no complete record batch)`,
          table,
        ),
      };
    const chunks = this.pendingBatches > 0 || this.emitted === 0 ? [this.emit()] : [];
    if (truncated)
      this.stopped = new BundleError(
        file,
        `table ${table}: truncated Arrow stream (${this.offset + this.buffered} bytes; kept ${this.rows} rows from ${this.batches} whole record batches; the next message starts at byte offset ${this.offset})`,
        table,
      );
    return { chunks, error: this.stopped };
  }

  private drain(): IpcChunk[] {
    const out: IpcChunk[] = [];
    while (!this.sawEnd && !this.stopped && !this.collected) {
      if (this.offset === 0 && this.buffered >= 6 && this.startsWithFileMagic()) {
        this.collected = this.pieces.splice(0);
        return out;
      }
      if (this.buffered < 8) break;
      const head = this.peek(8);
      const view = new DataView(head.buffer, head.byteOffset, 8);
      if (view.getUint32(0, true) !== CONTINUATION) {
        this.stop(
          this.offset === 0
            ? "not Arrow IPC (neither ARROW1 file magic nor a stream continuation marker at offset 0)"
            : `no message continuation marker at byte offset ${this.offset}`,
        );
        break;
      }
      const metadataLength = view.getInt32(4, true);
      if (metadataLength === 0) {
        this.sawEnd = true;
        break;
      }
      if (metadataLength < 0 || metadataLength > MAX_METADATA) {
        this.stop(`message at byte offset ${this.offset} declares ${metadataLength} bytes of metadata`);
        break;
      }
      if (this.buffered < 8 + metadataLength) break;
      // The message's header is decoded once, not again for every piece of its body that arrives.
      if (this.waiting?.offset !== this.offset) {
        const message = this.decodeMessage(metadataLength);
        if (!message) break;
        this.waiting = { offset: this.offset, message, size: 8 + metadataLength + message.bodyLength };
      }
      const { message, size } = this.waiting;
      if (this.buffered < size) break;
      const at = this.offset;
      out.push(...(this.accept(message, this.take(size), at) ?? []));
    }
    return out;
  }

  private decodeMessage(metadataLength: number): Message | undefined {
    let message: Message;
    try {
      const metadata = this.peek(8 + metadataLength).subarray(8);
      const implausible = implausibleMetadata(metadata);
      if (implausible) throw new Error(implausible);
      message = Message.decode(metadata);
      message.header(); // decodes the header too: a corrupt one throws here, not mid-accept
    } catch (e) {
      return void this.stop(
        `corrupt message metadata at byte offset ${this.offset} (${(e as Error).message})`,
      );
    }
    if (!Number.isSafeInteger(message.bodyLength) || message.bodyLength < 0)
      return void this.stop(
        `message at byte offset ${this.offset} declares a body of ${message.bodyLength} bytes`,
      );
    return message;
  }

  private accept(message: Message, views: Uint8Array[], at: number): IpcChunk[] | undefined {
    const { table, file } = this.options;
    if (message.isSchema()) {
      if (this.schema) return void this.stop(`a second schema message at byte offset ${at}`);
      const schema = message.header();
      try {
        validateSchema(schema, table, file);
      } catch (e) {
        // A corrupt schema can make apache-arrow itself throw (a List with no child): still our error, with where.
        this.stopped =
          e instanceof BundleError
            ? e
            : new BundleError(
                file,
                `table ${table}: unreadable schema at byte offset ${at} (${(e as Error).message})`,
                table,
              );
        return;
      }
      const names = schema.fields.map((f) => f.name);
      if (!canonicalOrder(table, names).every((n, i) => names[i] === n)) {
        // Columns out of the contract's order: reordering needs the decoded table.
        this.collected = [...views, ...this.pieces.splice(0)];
        return;
      }
      this.schema = schema;
      this.schemaMessage = concat(views);
      this.requiredNodes = requiredFieldNodes(schema, table);
      this.topLevelNodes = topLevelNodes(schema);
      this.nodeCount = schema.fields.reduce((n, f) => n + countNodes(f.type), 0);
      return;
    }
    if (!this.schema)
      return void this.stop(
        `a ${MessageHeader[message.headerType]} message at byte offset ${at} before the schema`,
      );
    if (message.isDictionaryBatch()) {
      const header = message.header();
      const id = String(header.id);
      const bytes = concat(views); // kept beyond this chunk: its own copy, not a view pinning a network buffer
      const out = this.append([bytes], bytes.length); // before the state changes: a new chunk's prefix must not hold it yet
      this.dictionaries.set(id, header.isDelta ? [...(this.dictionaries.get(id) ?? []), bytes] : [bytes]);
      return out;
    }
    if (!message.isRecordBatch())
      return void this.stop(`unexpected ${MessageHeader[message.headerType]} message at byte offset ${at}`);
    const header = message.header();
    const inconsistent = this.inconsistentBatch(header, message.bodyLength);
    if (inconsistent) return void this.stop(`record batch at byte offset ${at}: ${inconsistent}`);
    for (const { column, node } of this.requiredNodes) {
      const nulls = header.nodes[node]?.nullCount ?? 0;
      if (nulls > 0) {
        this.stopped = nullsInRequiredColumn(
          table,
          file,
          column,
          nulls,
          ` in the record batch at byte offset ${at} (kept the ${this.rows} rows before it)`,
        );
        return;
      }
    }
    const rows = Number(header.length);
    const out = this.append(
      views,
      views.reduce((n, v) => n + v.length, 0),
    );
    this.pendingRows += rows;
    this.pendingBatches++;
    this.rows += rows;
    this.batches++;
    if (this.pendingRows >= this.options.chunkRows) out.push(this.emit());
    return out;
  }

  /** What makes a batch header impossible: DuckDB would refuse it, or read past its buffers. */
  private inconsistentBatch(
    header: { length: number; nodes: { length: number; nullCount: number }[] },
    bodyLength: number,
  ): string | undefined {
    const rows = Number(header.length);
    if (!Number.isSafeInteger(rows) || rows < 0) return `declares ${header.length} rows`;
    // every contract table has run_id, at least one bit a row
    if (rows > bodyLength * 8) return `declares ${rows} rows in a ${bodyLength}-byte body`;
    if (header.nodes.length !== this.nodeCount)
      return `has ${header.nodes.length} field nodes, the schema ${this.nodeCount}`;
    for (const [i, at] of this.topLevelNodes.entries()) {
      const node = header.nodes[at]!;
      if (node.length !== rows || node.nullCount < 0 || node.nullCount > rows)
        return `column ${this.schema!.fields[i]!.name} declares ${node.length} rows (${node.nullCount} null) in a batch of ${rows}`;
    }
    return undefined;
  }

  /**
   * Copies a message into the chunk being filled; a full chunk is emitted first. The buffer starts small and
   * doubles up to `chunkBytes`: allocating the whole 80 MB up front for every table of every run (most are a few
   * KB) spent more time zero-filling and collecting memory than loading rows.
   */
  private append(views: readonly Uint8Array[], size: number): IpcChunk[] {
    const out: IpcChunk[] = [];
    const need = size + END_MARKER.length;
    if (this.building && this.building.used + need > this.options.chunkBytes && this.pendingBatches > 0)
      out.push(this.emit());
    if (!this.building) {
      const prefix = [this.schemaMessage!, ...this.dictionariesAtChunk];
      const prefixBytes = prefix.reduce((n, p) => n + p.length, 0);
      const first = Math.min(this.options.chunkBytes, INITIAL_CHUNK_BYTES);
      this.building = { buf: new Uint8Array(Math.max(first, prefixBytes + need)), used: 0 };
      this.write(prefix);
    }
    const b = this.building;
    if (b.used + need > b.buf.length) {
      // a bigger buffer: double it (up to the chunk size), or as big as this message needs (dictionaries may
      // outgrow the chunk size on their own, with no batch yet to emit)
      const bigger = new Uint8Array(
        Math.max(b.used + need, Math.min(this.options.chunkBytes, 2 * b.buf.length)),
      );
      bigger.set(b.buf.subarray(0, b.used));
      b.buf = bigger;
    }
    this.write(views);
    return out;
  }

  private write(views: readonly Uint8Array[]) {
    const b = this.building!;
    for (const v of views) {
      b.buf.set(v, b.used);
      b.used += v.length;
    }
  }

  /** The chunk being filled, closed with the end marker. */
  private emit(): IpcChunk {
    if (!this.building) this.append([], 0);
    const b = this.building!;
    b.buf.set(END_MARKER, b.used);
    const chunk = { bytes: b.buf.subarray(0, b.used + END_MARKER.length), rows: this.pendingRows };
    this.building = undefined;
    this.dictionariesAtChunk = [...this.dictionaries.values()].flat();
    this.pendingRows = 0;
    this.pendingBatches = 0;
    this.emitted++;
    return chunk;
  }

  private stop(what: string) {
    const { file, table } = this.options;
    this.stopped = new BundleError(file, `table ${table}: ${what}`, table);
  }

  private startsWithFileMagic(): boolean {
    const head = this.peek(6);
    return String.fromCharCode(...head) === "ARROW1";
  }

  /** The first n buffered bytes, contiguous (copied only when they span pieces). */
  private peek(n: number): Uint8Array {
    const first = this.pieces[0]!;
    if (first.length >= n) return first.subarray(0, n);
    const out = new Uint8Array(n);
    let filled = 0;
    for (const piece of this.pieces) {
      const take = Math.min(piece.length, n - filled);
      out.set(piece.subarray(0, take), filled);
      filled += take;
      if (filled === n) break;
    }
    return out;
  }

  /** Consumes n bytes as views of the pushed arrays (the one copy happens when a chunk is emitted). */
  private take(n: number): Uint8Array[] {
    const out: Uint8Array[] = [];
    let left = n;
    while (left > 0) {
      const first = this.pieces[0]!;
      if (first.length > left) {
        out.push(first.subarray(0, left));
        this.pieces[0] = first.subarray(left);
        left = 0;
      } else {
        out.push(first);
        this.pieces.shift();
        left -= first.length;
      }
    }
    this.buffered -= n;
    this.offset += n;
    return out;
  }
}

/** Each top-level column's position among a batch's field nodes (depth-first over children). */
function topLevelNodes(schema: Schema): number[] {
  const out: number[] = [];
  let node = 0;
  for (const field of schema.fields) {
    out.push(node);
    node += countNodes(field.type);
  }
  return out;
}

/** The non-nullable columns and their field nodes. */
function requiredFieldNodes(schema: Schema, table: string): { column: string; node: number }[] {
  const required = new Set(
    tableSpec(table)
      .columns.filter((c) => !c.nullable)
      .map((c) => c.name),
  );
  const at = topLevelNodes(schema);
  return schema.fields.flatMap((f, i) => (required.has(f.name) ? [{ column: f.name, node: at[i]! }] : []));
}

function countNodes(type: { children?: { type: unknown }[] | null }): number {
  return 1 + (type.children ?? []).reduce((n, child) => n + countNodes(child.type as never), 0);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
