// `jankbook import` of a method trace file too big to hold: read in chunks (method-trace-file.ts), its
// method_events written to the bundle batch by batch as they are decoded, the calls paired batch by batch
// and written in batches at the end. Memory: a chunk, a batch and the calls' pairing state, never the file or
// its tables (docs/scaling.md "Method traces"); the tables are those importMethodTrace makes.
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Vector } from "apache-arrow";
import type { Manifest } from "../../bundle/manifest";
import { makeBundleTable } from "../../bundle/table-builder";
import { BATCH_ROWS } from "../../bundle/encode-stream";
import { TableFileWriter } from "../../bundle/table-file-writer";
import type { TableName } from "../../bundle/schema";
import { CallBuilder } from "../method-trace-calls";
import { keyTables, repairsNote } from "../method-trace-tables";
import { eventColumns } from "../sources/method-trace";
import { recordColumns } from "../sources/method-trace-decode";
import { fileSource, readMethodTraceChunks, type ByteSource } from "../sources/method-trace-file";
import { HeapSteps } from "../sources/method-trace-samples";
import type { TextImport } from "./framestats";

/** A TextImport whose big tables are already in the bundle folder: their manifest entries. */
export interface StreamedImport extends TextImport {
  written: Partial<Record<TableName, Manifest["tables"][string]>>;
  /** every table of the import, in the order importMethodTrace gives them */
  order: TableName[];
}

/** Imports the method trace at `path` into the bundle folder `dir` (created); `file` names it in warnings. */
export function importMethodTraceFile(
  path: string,
  file: string,
  runId: string,
  dir: string,
): StreamedImport {
  const created = !existsSync(dir);
  mkdirSync(dir, { recursive: true });
  const src = fileSource(path);
  const files: TableFileWriter[] = [];
  const writer = (name: "method_events" | "calls") => {
    const w = new TableFileWriter(name, join(dir, `${name}.arrows`));
    files.push(w);
    return w;
  };
  try {
    return streamInto(src, file, runId, writer);
  } catch (e) {
    // A trace that fails leaves no files behind, as the whole-buffer import (which writes at the end) did not.
    for (const w of files) w.abort();
    if (created) rmSync(dir, { recursive: true, force: true });
    throw e;
  } finally {
    src.close();
  }
}

function streamInto(
  src: ByteSource,
  file: string,
  runId: string,
  writer: (name: "method_events" | "calls") => TableFileWriter,
): StreamedImport {
  const events = writer("method_events");
  let calls: CallBuilder | null = null;
  const heap = new HeapSteps();
  const constants = new Map<string, Vector>();
  const r = readMethodTraceChunks(src, {
    batchRows: BATCH_ROWS,
    onBatch(cols, clock, start) {
      const { columns, records } = eventColumns(cols, clock, start.extended);
      events.write(makeBundleTable("method_events", runId, columns, cols.n, { adopt: true, constants }));
      (calls ??= new CallBuilder(records.threadCpu !== null)).add(records);
      heap.add(records);
    },
  });
  // No records: an empty method_events table still has its schema, and the calls table its own.
  if (events.rows === 0) {
    const none = eventColumns(recordColumns(r.start, 0), r.end.clock, r.start.extended).columns;
    events.write(makeBundleTable("method_events", runId, none, 0));
  }
  const written: StreamedImport["written"] = {
    method_events: { file: "method_events.arrows", ...entry(events) },
  };
  const done = (calls ?? new CallBuilder(r.end.clock !== "wall")).finish();
  const callsFile = writer("calls");
  for (const table of done.tables(runId, BATCH_ROWS)) callsFile.write(table);
  written.calls = { file: "calls.arrows", ...entry(callsFile) };
  const { key, clock, partial } = r.end;
  const warnings = r.end.warnings.map((w) => `${file}: ${w}`);
  // The repairs are expected in real traces (tracing starts and stops inside calls): say how many, once.
  const note = repairsNote(done.repairs);
  if (note) warnings.push(`${file}: ${note}`);
  const vm = key.properties.vm ? `${key.properties.vm} ` : "";
  const heapTable = r.start.extended?.heap ? heap.table(runId) : null;
  return {
    context: { app: "unknown", scenario: `import ${file} (${vm}method trace, clock ${clock})` },
    tables: {
      ...keyTables(key.methods, key.threads, runId),
      ...(heapTable ? { heap_samples: heapTable } : {}),
    },
    written,
    order: ["methods", "threads", "method_events", "calls", ...(heapTable ? ["heap_samples" as const] : [])],
    warnings,
    complete: !partial,
    source: { kind: "method-trace", origin: file },
  };
}

function entry(w: TableFileWriter): { rows: number; crc32: string } {
  const { rows, crc32 } = w.finish();
  return { rows, crc32 };
}
