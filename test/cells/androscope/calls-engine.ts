// Test support: a test file's DuckDB-WASM engine (Node build) holding the calls table, and the call timeline
// query's rows in the brute-force rule's shape (call-timeline-reference.ts).
import type { Table } from "apache-arrow";
import { encodeStream } from "../../../bundle/encode-stream";
import { callTimelineQuery, type CallTimelineOptions } from "../../../cells/androscope/call-timeline";
import { createNodeEngine } from "../../../workspace/db/node/duckdb-node";
import { suiteEngine } from "../../support/suite-engine";
import { rowsOf, type Out } from "./call-timeline-reference";

export function callsEngine() {
  const engine = suiteEngine(createNodeEngine);
  /** Adds a run's calls to the table (created by the first run loaded). */
  const load = async (table: Table): Promise<void> => {
    await engine.insertArrowStream("calls", encodeStream(table));
  };
  const run = (o: CallTimelineOptions): Promise<Out[]> => rowsOf(engine, callTimelineQuery(o));
  // the table keeps every run loaded in the file, so each property-test case loads under an id of its own
  let runs = 0;
  const freshRunId = (prefix: string): string => `${prefix}${++runs}`;
  return { engine, load, run, freshRunId };
}
