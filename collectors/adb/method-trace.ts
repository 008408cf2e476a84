// Method tracing over adb (`am profile start/stop`, pulled and parsed; docs/method-trace-format.md): the app
// writes the trace after the stop, so a pull that comes back cut short is retried a few times before it is
// kept as partial.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Table } from "apache-arrow";
import type { TableName } from "../../bundle/schema";
import { methodTraceTables } from "../method-trace-tables";
import { readMethodTrace, type MethodTrace } from "../sources/method-trace";
import type { Collection } from "./collection";
import type { DeviceShell } from "./shell";

export interface PulledTrace {
  tables: Partial<Record<TableName, Table>>;
  /** [text, makes the bundle incomplete] */
  warnings: [string, boolean][];
  origin: string | null;
}

const RETRY_WAIT_MS = [300, 700, 1500];

/** Pulls `path` after `am profile stop`, keeps the raw file as <dir>/method.trace, and reads it into tables. */
export async function pullMethodTrace(
  shell: DeviceShell,
  path: string,
  dir: string,
  runId: string,
): Promise<PulledTrace> {
  const warnings: [string, boolean][] = [];
  let bytes: Buffer | null = null;
  let trace: MethodTrace | null = null;
  let error = "";
  for (let attempt = 0; ; attempt++) {
    try {
      bytes = await shell.pull(path, 30_000);
    } catch (e) {
      error = (e as Error).message;
      break; // keep what an earlier pull read, if any
    }
    try {
      trace = readMethodTrace(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), { runId });
      error = "";
    } catch (e) {
      trace = null;
      error = (e as Error).message;
    }
    if ((trace && !trace.partial && !shortBy(trace)) || attempt >= RETRY_WAIT_MS.length) break;
    await new Promise((r) => setTimeout(r, RETRY_WAIT_MS[attempt]));
  }
  if (!bytes)
    return {
      tables: {},
      warnings: [[`method trace: could not pull ${path}: ${error}`, false]],
      origin: null,
    };
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "method.trace"), bytes);
  if (!trace)
    return {
      tables: {},
      warnings: [[`method trace ${path} (kept as method.trace): ${error}`, false]],
      origin: path,
    };
  for (const w of trace.warnings) warnings.push([`method trace ${path}: ${w}`, trace.partial]);
  const missing = shortBy(trace);
  if (missing)
    warnings.push([
      `method trace ${path}: ${missing} of the ${trace.properties["num-method-calls"]} records its key announces are missing (still being written when pulled?)`,
      true,
    ]);
  const { tables, note } = methodTraceTables(trace, runId);
  if (note) warnings.push([`method trace ${path}: ${note}`, false]);
  return { tables, warnings, origin: path };
}

/** Records the key's num-method-calls (ART writes it) announces but the data does not hold. */
function shortBy(trace: MethodTrace): number {
  const announced = Number(trace.properties["num-method-calls"]);
  return Number.isFinite(announced) ? Math.max(0, announced - trace.events.numRows) : 0;
}

/** `am profile start` at the beginning of the run, `am profile stop` and the pull at its end. */
export class MethodTraceSession {
  readonly path: string;

  constructor(
    private readonly c: Collection,
    private readonly pkg: string,
    private readonly runId: string,
  ) {
    this.path = `/data/local/tmp/jankbook-${runId}.trace`;
  }

  async start() {
    const r = await this.c.run(`am profile start ${this.pkg} ${this.path}`, "am profile start");
    if (r !== null && /error|exception/i.test(r)) this.c.warn(`am profile start: ${r.trim()}`, false);
  }

  /** The trace's tables, or none (with a warning saying the requested trace was lost) if the device is gone. */
  async stop(dir: string): Promise<Partial<Record<TableName, Table>>> {
    if (!this.c.lost) await this.c.run(`am profile stop ${this.pkg}`, "am profile stop");
    if (this.c.lost) {
      this.c.warn(
        `--method-trace: the requested method trace was lost: the device was ${this.c.lost} before it could be stopped and pulled (${this.path} on the device, if the app wrote it)`,
      );
      return {};
    }
    const pulled = await pullMethodTrace(this.c.shell, this.path, dir, this.runId);
    for (const [w, incomplete] of pulled.warnings) this.c.warn(w, incomplete);
    if (pulled.origin)
      this.c.sources.push({
        kind: "method-trace",
        origin: `adb pull ${pulled.origin}`,
        tables: Object.keys(pulled.tables),
      });
    return pulled.tables;
  }
}
