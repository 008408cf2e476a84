// Reads a run bundle as a stream of insert-ready IPC chunks per table: the manifest first, then each table
// downloaded and split as its bytes arrive (no column decoded on the main thread). It needs no engine, so it
// can start while DuckDB-WASM is still compiling; loadPreparedBundle drains it into DuckDB.
import { ChunkQueue } from "./chunk-queue";
import { IpcStreamSplitter, type IpcChunk } from "./ipc-stream-splitter";
import { BundleError, parseManifest, type Manifest } from "./manifest";
import { crc32 } from "./crc32";
import {
  checksumError,
  decodeArrowFile,
  runsTable,
  type BundleSource,
  type DatabaseFile,
} from "./read-bundle";
import type { TableName } from "./schema";
import { encodeTableChunks, LOAD_CHUNK_BYTES, LOAD_CHUNK_ROWS, loadOrder } from "./table-chunks";
import { validateTable } from "./validate";

export interface PreparedTable {
  name: TableName;
  chunks: ChunkQueue<IpcChunk>;
  /** resolves when the file is read: rows it held and what was wrong (rows before a fault are still chunked) */
  done: Promise<{ rows: number; errors: BundleError[] }>;
}

export interface PreparedBundle {
  manifest: Manifest;
  /** in load order: the overview's tables first */
  tables: PreparedTable[];
  /** stops the downloads and drops what is queued (the run is not wanted after all) */
  cancel(): void;
  /** a packed run's database file, to attach instead of streaming (then `tables` is empty: nothing downloads) */
  database?: DatabaseFile;
}

export interface PrepareOptions {
  /** true: a bundle with a database file (and a source that can locate it) is to be attached, not streamed */
  attach?: boolean;
}

/** Main-thread time the splitting may take before it lets the page handle input and paint. */
const SLICE_MS = 25;

/** A macrotask boundary without setTimeout's 4 ms clamp. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(undefined);
  });
}

/** Queued bytes per table beyond which the download waits for DuckDB to catch up. */
const HIGH_WATER_BYTES = 256 << 20;

export async function prepareBundle(
  source: BundleSource,
  options: PrepareOptions = {},
): Promise<PreparedBundle> {
  const manifestBytes = await source.read("manifest.json").catch((e: Error) => {
    throw Object.assign(new BundleError(`${source.label}/manifest.json`, `cannot read (${e.message})`), {
      cause: e,
    });
  });
  const manifest = parseManifest(new TextDecoder().decode(manifestBytes), `${source.label}/manifest.json`);
  // A packed run is attached where it lies (docs/scaling.md, "Tier 1"): none of its Arrow files is
  // downloaded.
  if (manifest.database && source.locate && options.attach)
    return { manifest, tables: [], cancel() {}, database: source.locate(manifest.database.file) };
  let cancelled = false;
  const runs: PreparedTable = {
    name: "runs",
    chunks: new ChunkQueue(Infinity),
    done: Promise.resolve({ rows: 1, errors: [] }),
  };
  for (const chunk of encodeTableChunks("runs", runsTable(manifest))) runs.chunks.push(chunk);
  runs.chunks.close();
  const names = loadOrder(Object.keys(manifest.tables) as TableName[]);
  const tables = names.map((name): PreparedTable => ({
    name,
    chunks: new ChunkQueue(HIGH_WATER_BYTES),
    done: Promise.resolve({ rows: 0, errors: [] }),
  }));
  // One download at a time, in load order, so the overview's tables arrive first.
  let previous: Promise<unknown> = Promise.resolve();
  for (const table of tables) {
    const entry = manifest.tables[table.name]!;
    const after = previous;
    table.done = after.then(() =>
      cancelled ? { rows: 0, errors: [] } : readTable(source, table, entry, () => cancelled),
    );
    previous = table.done;
  }
  const byName = new Map([runs, ...tables].map((t) => [t.name, t]));
  return {
    manifest,
    tables: loadOrder([...byName.keys()]).map((name) => byName.get(name)!),
    cancel() {
      cancelled = true;
      for (const t of tables) t.chunks.close(true);
    },
  };
}

async function readTable(
  source: BundleSource,
  table: PreparedTable,
  entry: Manifest["tables"][string],
  cancelled: () => boolean,
): Promise<{ rows: number; errors: BundleError[] }> {
  const { file: fileName, rows: manifestRows } = entry;
  const file = `${source.label}/${fileName}`;
  const name = table.name;
  const splitter = new IpcStreamSplitter({
    chunkRows: LOAD_CHUNK_ROWS,
    chunkBytes: LOAD_CHUNK_BYTES,
    file,
    table: name,
  });
  const errors: BundleError[] = [];
  let readBytes = 0;
  let crc = 0;
  let whole = false;
  try {
    const pieces = source.stream ? source.stream(fileName) : oneRead(source, fileName);
    let sliceStart = performance.now();
    for await (const piece of pieces) {
      if (cancelled()) break;
      readBytes += piece.length;
      crc = crc32(piece, crc);
      for (const chunk of splitter.push(piece)) table.chunks.push(chunk);
      await table.chunks.room();
      // Pieces already downloaded resolve as microtasks, one after another: without a real yield the backlog
      // would be split and copied in one long task (seen: 700 ms), and the page would stop responding.
      if (performance.now() - sliceStart > SLICE_MS) {
        await nextTask();
        sliceStart = performance.now();
      }
    }
    whole = !cancelled();
  } catch (e) {
    errors.push(
      new BundleError(
        file,
        `cannot read${readBytes ? ` past byte ${readBytes}` : ""} (${(e as Error).message})`,
        name,
      ),
    );
  }
  const end = splitter.finish();
  let rows = splitter.rows;
  if (end.whole) {
    rows = decodeWhole(end.whole, file, table, errors);
  } else {
    for (const chunk of end.chunks) table.chunks.push(chunk);
    // A read that failed with nothing whole read says so once, not twice.
    if (end.error && !(errors.length && rows === 0)) errors.push(end.error);
  }
  // One message per fault: only a file read whole and split without error is checked against its checksum.
  const checksum = whole && errors.length === 0 ? checksumError(entry.crc32, crc, file, name) : null;
  if (checksum) errors.push(checksum);
  else if (errors.length === 0 && rows !== manifestRows)
    errors.push(
      new BundleError(file, `table ${name}: manifest says ${manifestRows} rows, file has ${rows}`, name),
    );
  table.chunks.close();
  return { rows, errors };
}

/** The decoding path, for what cannot be passed through: the Arrow file format, columns out of contract order. */
function decodeWhole(bytes: Uint8Array, file: string, table: PreparedTable, errors: BundleError[]): number {
  try {
    const { table: decoded, error } = decodeArrowFile(bytes, file, table.name);
    validateTable(decoded, table.name, file);
    for (const chunk of encodeTableChunks(table.name, decoded)) table.chunks.push(chunk);
    if (error) errors.push(error);
    return decoded.numRows;
  } catch (e) {
    errors.push(e instanceof BundleError ? e : new BundleError(file, (e as Error).message, table.name));
    return 0;
  }
}

async function* oneRead(source: BundleSource, file: string): AsyncGenerator<Uint8Array> {
  yield await source.read(file);
}
