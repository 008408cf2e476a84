// "Open in Perfetto": a run's tables as a Perfetto trace (export/bundle-to-perfetto.ts) handed to
// ui.perfetto.dev through the postMessage handshake of Perfetto's docs ("Opening traces via postMessage",
// docs/visualization/deep-linking-to-perfetto-ui.md): open the UI's window, post "PING" until it answers
// "PONG", then post {perfetto: {buffer, title, url}} to the UI's origin.
import { bundleToPerfetto } from "../../export/bundle-to-perfetto";
import type { TableName } from "../../bundle/schema";
import type { SqlEngine } from "../db/engine";

export const PERFETTO_UI = "https://ui.perfetto.dev";

/** The tables the exporter reads. */
const EXPORTED: readonly TableName[] = [
  "frames",
  "tasks",
  "render_ops",
  "calls",
  "methods",
  "threads",
  "ui_events",
  "slices",
  "processes",
  "counter_samples",
  "hpc_samples",
  "heap_samples",
];

export interface PerfettoPayload {
  buffer: ArrayBuffer;
  title: string;
  /** a link back to what the trace came from, shown by Perfetto UI */
  url?: string;
}

export interface OpenInPerfettoOptions {
  /** the Perfetto UI to open (a self-hosted one, or a local page speaking the protocol in tests) */
  origin?: string;
  /** how often to PING while the UI loads, ms */
  pingMs?: number;
  /** give up when no PONG came within this, ms */
  timeoutMs?: number;
  /** opens the UI's window; window.open by default */
  open?: (url: string) => Window | null;
  /** is the UI's origin reachable at all? fetch with no-cors by default: offline, it fails at once, not after the timeout */
  reach?: (url: string) => Promise<unknown>;
}

/** Perfetto UI could not take the trace (offline, blocked, closed): the trace, so the page can offer it as a file. */
export class PerfettoUnreachable extends Error {
  constructor(
    message: string,
    readonly trace: Uint8Array,
  ) {
    super(message);
    this.name = "PerfettoUnreachable";
  }
}

/** The run's rows of every exported table the run has, read from the engine, as a Perfetto trace. */
export async function runTrace(
  engine: SqlEngine,
  runId: string,
  tables: readonly string[],
): Promise<Uint8Array> {
  const got = new Map<TableName, Awaited<ReturnType<SqlEngine["query"]>>>();
  // Table names come from the fixed list above, never from the user; the run id is a bound parameter.
  for (const t of EXPORTED)
    if (tables.includes(t)) got.set(t, await engine.query(`SELECT * FROM "${t}" WHERE run_id = ?`, [runId]));
  return bundleToPerfetto(got).trace;
}

/**
 * Opens Perfetto UI now (inside the click, so no popup blocker stops it) and sends it the trace once both the
 * trace is ready and the UI has answered PONG. Rejects when the window closes, the trace fails or no PONG comes.
 */
export function openInPerfetto(
  payload: Promise<PerfettoPayload>,
  options: OpenInPerfettoOptions = {},
): Promise<void> {
  const origin = new URL(options.origin ?? PERFETTO_UI).origin;
  const win = (options.open ?? ((u) => window.open(u)))(options.origin ?? PERFETTO_UI);
  if (!win) return Promise.reject(new Error(`could not open ${origin}: the browser blocked the window`));
  return new Promise<void>((resolve, reject) => {
    let ready: PerfettoPayload | null = null;
    let ponged = false;
    const stop = () => {
      clearInterval(ping);
      clearTimeout(deadline);
      window.removeEventListener("message", onMessage);
    };
    const fail = (e: Error) => {
      stop();
      reject(e);
    };
    const send = () => {
      if (!ponged || !ready) return;
      stop();
      win.postMessage({ perfetto: ready }, origin);
      resolve();
    };
    const onMessage = (e: MessageEvent) => {
      if (e.source !== win || e.origin !== origin || e.data !== "PONG") return;
      ponged = true;
      send();
    };
    window.addEventListener("message", onMessage);
    const reach = options.reach ?? ((u: string) => fetch(u, { mode: "no-cors", cache: "no-store" }));
    reach(options.origin ?? PERFETTO_UI).catch(() => {
      if (ponged) return;
      win.close();
      fail(new Error(`cannot reach ${origin} (offline, or blocked)`));
    });
    const ping = setInterval(() => {
      if (win.closed) fail(new Error(`the ${origin} window was closed before it took the trace`));
      else if (!ponged) win.postMessage("PING", origin);
    }, options.pingMs ?? 50);
    const deadline = setTimeout(
      () => fail(new Error(`${origin} did not answer PING within ${(options.timeoutMs ?? 30_000) / 1000} s`)),
      options.timeoutMs ?? 30_000,
    );
    payload.then(
      (p) => {
        ready = p;
        send();
      },
      (e: Error) => fail(e),
    );
  });
}

/**
 * The workspace action: the run's trace into a new Perfetto UI tab. When the UI cannot take it, rejects with
 * PerfettoUnreachable carrying the trace, which the page offers as a download to open in Perfetto UI later.
 */
export async function openRunInPerfetto(
  engine: SqlEngine,
  runId: string,
  tables: readonly string[],
  options: OpenInPerfettoOptions = {},
): Promise<void> {
  const trace = runTrace(engine, runId, tables);
  const payload = trace.then((t) => ({
    buffer: t.slice().buffer,
    title: `${runId} (jankbook)`,
    url: location.href,
  }));
  try {
    await openInPerfetto(payload, options);
  } catch (e) {
    const bytes = await trace.catch(() => null);
    throw bytes ? new PerfettoUnreachable((e as Error).message, bytes) : e;
  }
}
