// Test support: a run bundle held in memory, loaded into an engine through the workspace's own path
// (prepareBundle + loadPreparedBundle), as if its files had been written by the bundle writer.
import type { Table } from "apache-arrow";
import { encodeStream } from "../../bundle/encode-stream";
import type { Manifest } from "../../bundle/manifest";
import { prepareBundle } from "../../bundle/prepare-bundle";
import type { BundleSource } from "../../bundle/read-bundle";
import type { TableName } from "../../bundle/schema";
import type { LoadReport, SqlEngine } from "../../workspace/db/engine";
import { loadPreparedBundle } from "../../workspace/db/load-prepared";

/** The manifest's run with these tables (runs comes from the manifest), as a bundle source. */
export function memorySource(manifest: Manifest, tables: Partial<Record<TableName, Table>>): BundleSource {
  const files = new Map<string, Uint8Array>();
  const entries: Manifest["tables"] = {};
  for (const [name, table] of Object.entries(tables) as [TableName, Table][]) {
    if (name === "runs") continue;
    files.set(`${name}.arrows`, encodeStream(table));
    entries[name] = { file: `${name}.arrows`, rows: table.numRows };
  }
  const manifestBytes = new TextEncoder().encode(JSON.stringify({ ...manifest, tables: entries }));
  return {
    label: `memory/${manifest.run_id}`,
    async read(file) {
      const bytes = file === "manifest.json" ? manifestBytes : files.get(file);
      if (!bytes) throw new Error(`no ${file} in this bundle`);
      return bytes;
    },
  };
}

export async function loadTables(
  engine: SqlEngine,
  manifest: Manifest,
  tables: Partial<Record<TableName, Table>>,
  onTable?: Parameters<typeof loadPreparedBundle>[2],
): Promise<LoadReport> {
  return loadPreparedBundle(engine, await prepareBundle(memorySource(manifest, tables)), onTable);
}
