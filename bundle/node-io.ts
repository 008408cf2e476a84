// Node side of the bundle: a folder of .arrow files plus manifest.json.
import { createReadStream } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Table } from "apache-arrow";
import { bundlePath, bundlePathSync } from "./bundle-path";
import { crc32, crc32Hex } from "./crc32";
import { encodeStream } from "./encode-stream";
import type { Manifest } from "./manifest";
import { readBundle, type BundleSource, type LoadedBundle } from "./read-bundle";
import type { TableName } from "./schema";
import { validateTable } from "./validate";

export function folderSource(dir: string): BundleSource {
  return {
    label: dir,
    read: async (file) => new Uint8Array(await readFile(await bundlePath(dir, file))),
    stream: async function* (file) {
      yield* createReadStream(await bundlePath(dir, file), { highWaterMark: 1 << 20 });
    },
    locate: (file) => ({ path: bundlePathSync(dir, file) }),
  };
}

export function readBundleFolder(dir: string): Promise<LoadedBundle> {
  return readBundle(folderSource(dir));
}

/**
 * Writes each table as `<name>.arrows` (Arrow IPC stream: DuckDB ingests it as is, and a cut file keeps
 * its whole batches) and the manifest last, through a rename, so no reader sees a half-written bundle.
 */
export async function writeBundleFolder(
  dir: string,
  manifest: Manifest,
  tables: Partial<Record<TableName, Table>>,
  /** tables already in the folder, written batch by batch (bundle/table-file-writer.ts): their entries */
  written: Partial<Manifest["tables"]> = {},
): Promise<Manifest> {
  await mkdir(dir, { recursive: true });
  const entries: Manifest["tables"] = {};
  for (const [name, table] of Object.entries(tables) as [TableName, Table][]) {
    if (name === "runs") continue;
    const file = `${name}.arrows`;
    validateTable(table, name, join(dir, file));
    const bytes = encodeStream(table);
    await writeFile(join(dir, file), bytes);
    entries[name] = { file, rows: table.numRows, crc32: crc32Hex(crc32(bytes)) };
  }
  for (const [name, entry] of Object.entries(written)) if (entry) entries[name] = entry;
  // Tables written beforehand take their place in the order the sources list them.
  const listed = manifest.sources.flatMap((s) => s.tables ?? []);
  const rank = (name: string) => (listed.includes(name) ? listed.indexOf(name) : listed.length);
  const names = Object.keys(entries);
  if (Object.keys(written).length) names.sort((a, b) => rank(a) - rank(b));
  const done = { ...manifest, tables: Object.fromEntries(names.map((n) => [n, entries[n]!])) };
  const tmp = join(dir, "manifest.json.tmp");
  await writeFile(tmp, JSON.stringify(done, null, 2) + "\n");
  await rename(tmp, join(dir, "manifest.json"));
  return done;
}
