// The workspace's trace (workspace/app/open-in-perfetto.ts runTrace: the run's tables read back from DuckDB)
// holds the same tracks and spans as the CLI's export of the bundle folder, for two runs loaded side by side.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBundleFolder } from "../../bundle/node-io";
import { bundleToPerfetto } from "../../export/bundle-to-perfetto";
import { runTrace } from "../../workspace/app/open-in-perfetto";
import type { SqlEngine } from "../../workspace/db/engine";
import { createNodeEngine } from "../../workspace/db/node/duckdb-node";
import { SAMPLES_DIR } from "../../workspace/node/headless";
import { loadTables } from "../support/memory-bundle";
import { decode, int, str, sub, subs } from "./proto-decode";

/** Every slice begin and counter as `track name|ts|type|name`, sorted: the trace's content, not its layout. */
function content(trace: Uint8Array): string[] {
  const names = new Map<bigint, string>();
  const out: string[] = [];
  const interned = new Map<bigint, string>();
  for (const p of subs(decode(trace), 1)) {
    for (const n of subs(sub(p, 12) ?? new Map(), 2)) interned.set(int(n, 1)!, str(n, 2)!);
    const d = sub(p, 60);
    if (d)
      names.set(
        int(d, 1)!,
        str(d, 2) ?? str(sub(d, 4) ?? new Map(), 5) ?? str(sub(d, 3) ?? new Map(), 6) ?? "",
      );
    const e = sub(p, 11);
    if (e)
      out.push(`${names.get(int(e, 11)!)}|${int(p, 8)}|${int(e, 9)}|${interned.get(int(e, 10) ?? 0n) ?? ""}`);
  }
  return out.sort();
}

let engine: SqlEngine;
const runs = ["paper-cases-pixel-4a", "feed-methods-pixel-4a"];
const bundles = await Promise.all(runs.map((r) => readBundleFolder(SAMPLES_DIR + r)));

beforeAll(async () => {
  engine = await createNodeEngine();
  for (const b of bundles) await loadTables(engine, b.manifest, Object.fromEntries(b.tables));
});
afterAll(() => engine?.close());

describe("runTrace", () => {
  it.each(runs.map((r, i) => [r, i] as const))(
    "%s: the same content as the folder's export",
    async (run, i) => {
      const b = bundles[i]!;
      const want = content(bundleToPerfetto(b.tables).trace);
      expect(want.length).toBeGreaterThan(100);
      const got = content(await runTrace(engine, run, [...b.tables.keys()]));
      expect(got).toEqual(want);
    },
  );
});
