// The workspace's engine when `jankbook serve` started it (docs/scaling.md): queries go to the server's
// native DuckDB over HTTP (POST /api/sql → Arrow IPC stream), so the browser never holds the runs or the
// lake.
import { tableFromIPC, type Table } from "apache-arrow";
import type { SqlEngine } from "./engine";

/** Params as JSON: a bigint travels as {"$bigint": "digits"} (JSON has no 64-bit integers). */
export function encodeParams(params: readonly unknown[]): unknown[] {
  return params.map((p) => (typeof p === "bigint" ? { $bigint: p.toString() } : p));
}

export function decodeParams(params: unknown): unknown[] {
  if (params === undefined) return [];
  if (!Array.isArray(params)) throw new Error("params: expected an array");
  return params.map((p) =>
    p && typeof p === "object" && typeof (p as { $bigint?: unknown }).$bigint === "string"
      ? BigInt((p as { $bigint: string }).$bigint)
      : p,
  );
}

/** Does a jankbook serve answer at `base`? (GET /api/engine) */
export async function serverEngineInfo(base: string): Promise<Record<string, unknown> | null> {
  try {
    const r = await fetch(new URL("api/engine", base));
    return r.ok ? ((await r.json()) as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export class RemoteHttpEngine implements SqlEngine {
  private readonly base: string;
  constructor(base: string) {
    this.base = base.endsWith("/") ? base : `${base}/`;
  }

  private gone(): Error {
    return new Error(`the jankbook serve at ${this.base.replace(/\/$/, "")} is not answering`);
  }

  private async post(path: string, body: unknown): Promise<Response> {
    try {
      return await fetch(new URL(path, this.base), {
        method: "POST",
        // application/json: a cross-site page cannot send this without a preflight the server never grants.
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    } catch {
      throw this.gone();
    }
  }

  async query(sql: string, params: readonly unknown[] = []): Promise<Table> {
    const r = await this.post("api/sql", { sql, params: encodeParams(params) });
    let bytes: ArrayBuffer;
    try {
      bytes = await r.arrayBuffer();
    } catch {
      throw this.gone();
    }
    if (!r.ok) {
      let message = `HTTP ${r.status}`;
      try {
        message = (JSON.parse(new TextDecoder().decode(bytes)) as { error: string }).error ?? message;
      } catch {
        // not JSON: keep the status
      }
      throw new Error(message);
    }
    return tableFromIPC(new Uint8Array(bytes));
  }

  async insertArrowStream(): Promise<never> {
    throw new Error(
      `the jankbook serve at ${this.base} holds the runs: start it with --runs or --lake to add some`,
    );
  }

  async interrupt(): Promise<void> {
    await this.post("api/cancel", {}).catch(() => undefined);
  }

  async close(): Promise<void> {}
}
