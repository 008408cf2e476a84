// DuckDB-WASM's blocking Node build: the engine of the headless runner and the tests (simpler than the
// async worker build; docs/architecture.md, "Engines").
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Table } from "apache-arrow";
import { arrowLoader } from "../arrow-loader";
import { ATTACH_DATABASE_SQL, USE_DATABASE_SQL, type SqlEngine } from "../engine";

const require = createRequire(import.meta.url);

type BlockingConnection = {
  query(sql: string): Table;
  prepare(sql: string): { query(...params: unknown[]): Table; close(): void };
  insertArrowFromIPCStream(buffer: Uint8Array, options: { name: string; create?: boolean }): void;
  close(): void;
};

export async function createNodeEngine(): Promise<SqlEngine> {
  const duckdb = require("@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs");
  const dist = dirname(require.resolve("@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs"));
  const bundles = {
    mvp: { mainModule: join(dist, "duckdb-mvp.wasm"), mainWorker: join(dist, "duckdb-node-mvp.worker.cjs") },
    eh: { mainModule: join(dist, "duckdb-eh.wasm"), mainWorker: join(dist, "duckdb-node-eh.worker.cjs") },
  };
  const db = await duckdb.createDuckDB(bundles, new duckdb.VoidLogger(), readOnlyFiles(duckdb));
  await db.instantiate();
  const connect = (): BlockingConnection => {
    const c: BlockingConnection = db.connect();
    c.query(USE_DATABASE_SQL);
    return c;
  };
  const setup: BlockingConnection = db.connect();
  setup.query(ATTACH_DATABASE_SQL);
  setup.close();
  let conn = connect();
  return {
    async query(sql, params = []) {
      if (params.length === 0) return conn.query(sql);
      const stmt = conn.prepare(sql);
      try {
        return stmt.query(...params);
      } finally {
        stmt.close();
      }
    },
    insertArrowStream: arrowLoader(
      () => conn,
      () => (conn = connect()),
    ),
    async registerDatabaseFile(name, file) {
      // A path is read where it lies, page by page as DuckDB asks (readOnlyFiles below), never copied whole
      // into the wasm heap: a 10M-frame run's database is 336 MB.
      if ("path" in file) {
        readOnlyPaths.add(file.path);
        db.registerFileURL(name, file.path, duckdb.DuckDBDataProtocol.NODE_FS, false);
      } else if ("blob" in file) db.registerFileBuffer(name, new Uint8Array(await file.blob.arrayBuffer()));
      else throw new Error(`${name}: the Node DuckDB-WASM engine reads no URLs (${file.url})`);
      return name;
    },
    async interrupt() {
      // The blocking build runs queries synchronously: nothing is ever in flight between awaits.
    },
    async close() {
      conn.close();
      await db.terminate?.();
    },
  };
}

/** What DuckDB-WASM's Node runtime keeps of its open files (dist/duckdb-node-blocking.cjs, NODE_RUNTIME). */
interface NodeRuntime {
  _fileInfoCache: Map<number, unknown>;
  resolveFileInfo(mod: WasmModule, fileId: number): { dataProtocol: number; dataUrl: string } | null;
  openFile(mod: WasmModule, fileId: number, flags: number): number;
  readFile(mod: WasmModule, fileId: number, buf: number, bytes: number, location: number): number;
  closeFile(mod: WasmModule, fileId: number): number;
}
type WasmModule = { _malloc(n: number): number; HEAPF64: Float64Array; HEAPU8: Uint8Array };
const NODE_FS = 1;
const FILE_FLAGS_WRITE = 2;

/** Paths registered to be read where they lie, and the descriptors open on them per wasm module and file id. */
const readOnlyPaths = new Set<string>();
const openFds = new WeakMap<WasmModule, Map<number, number>>();
let runtime: NodeRuntime | undefined;

/**
 * DuckDB-WASM's Node runtime, except that a path in `readOnlyPaths` opens read-only. Its own openFile opens every
 * file for writing (creating it when missing) and, asked to open a file only if it exists (as ATTACH ... READ_ONLY
 * asks), refuses one it has not opened before: a database could only be attached as a copy of its bytes in the
 * wasm heap. Every DuckDB-WASM in a thread calls the one runtime in globalThis.DUCKDB_RUNTIME, so this one is
 * shared, and keys its descriptors by module.
 */
function readOnlyFiles(duckdb: { NODE_RUNTIME: NodeRuntime }): NodeRuntime {
  const base = duckdb.NODE_RUNTIME;
  return (runtime ??= {
    ...base,
    openFile(mod, fileId, flags) {
      base._fileInfoCache.delete(fileId);
      const info = base.resolveFileInfo(mod, fileId);
      if (
        !info ||
        info.dataProtocol !== NODE_FS ||
        !readOnlyPaths.has(info.dataUrl) ||
        flags & FILE_FLAGS_WRITE
      )
        return base.openFile(mod, fileId, flags);
      let fd: number;
      try {
        fd = openSync(info.dataUrl, "r");
      } catch {
        // missing or unreadable: DuckDB reports that the database does not exist
        return 0;
      }
      if (!openFds.has(mod)) openFds.set(mod, new Map());
      openFds.get(mod)!.set(fileId, fd);
      // the runtime's answer: a malloc'd pair of doubles, the file's size and its (absent) buffer
      const out = mod._malloc(16);
      mod.HEAPF64[out >> 3] = fstatSync(fd).size;
      mod.HEAPF64[(out >> 3) + 1] = 0;
      return out;
    },
    readFile(mod, fileId, buf, bytes, location) {
      const fd = openFds.get(mod)?.get(fileId);
      if (fd === undefined) return base.readFile(mod, fileId, buf, bytes, location);
      return readSync(fd, mod.HEAPU8, buf, bytes, location);
    },
    closeFile(mod, fileId) {
      const fd = openFds.get(mod)?.get(fileId);
      if (fd === undefined) return base.closeFile(mod, fileId);
      openFds.get(mod)!.delete(fileId);
      closeSync(fd);
      return 0;
    },
  });
}
