// One measured process of `npm run bench -- method-trace` (bench/method-trace.bench.ts), bundled by esbuild so
// its memory is the import's, not a TypeScript loader's. Modes, on the trace at argv[3]:
//   stream   importMethodTraceFile into argv[4] (what `jankbook import` does, before packing)
//   whole    readFile + importMethodTrace + writeBundleFolder into argv[4] (the import before streaming)
//   reader   readMethodTraceChunks only, each batch dropped
//   events   readMethodTraceChunks with method_events written batch by batch to argv[4] (/dev/null for size)
//   baseline load the modules and exit
// Prints one JSON line: what was read and the process's own CPU and peak RSS.
import { readFileSync } from "node:fs";
import type { Vector } from "apache-arrow";
import { makeBundleTable } from "../bundle/table-builder";
import { TableFileWriter } from "../bundle/table-file-writer";
import { writeBundleFolder } from "../bundle/node-io";
import { newManifest } from "../bundle/manifest";
import { importMethodTrace } from "../collectors/import/method-trace";
import { importMethodTraceFile } from "../collectors/import/method-trace-file";
import { eventColumns } from "../collectors/sources/method-trace";
import { fileSource, readMethodTraceChunks } from "../collectors/sources/method-trace-file";

const [mode, trace, out] = process.argv.slice(2) as [string, string, string];
const t0 = performance.now();
let rows = 0;
if (mode === "stream")
  rows = importMethodTraceFile(trace, "t.trace", "bench", out).written.method_events!.rows;
else if (mode === "whole") {
  const r = importMethodTrace(new Uint8Array(readFileSync(trace)), "t.trace", "bench");
  await writeBundleFolder(out, newManifest("bench", r.context, {}), r.tables);
  rows = r.tables.method_events!.numRows;
} else if (mode === "reader" || mode === "events") {
  const src = fileSource(trace);
  const w = mode === "events" ? new TableFileWriter("method_events", out) : null;
  const constants = new Map<string, Vector>(); // as importMethodTraceFile shares them between batches
  const r = readMethodTraceChunks(src, {
    onBatch(cols, clock, start) {
      if (w)
        w.write(
          makeBundleTable(
            "method_events",
            "bench",
            eventColumns(cols, clock, start.extended).columns,
            cols.n,
            { adopt: true, constants },
          ),
        );
    },
  });
  w?.finish();
  src.close();
  rows = r.records;
}
const cpu = process.cpuUsage();
process.stdout.write(
  JSON.stringify({
    mode,
    rows,
    ms: performance.now() - t0,
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
  }) + "\n",
);
