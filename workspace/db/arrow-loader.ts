// How both engines put an Arrow IPC stream into DuckDB on their load connection (SqlEngine.insertArrowStream):
// one set of rules, each engine supplying only its connection.
import type { Table } from "apache-arrow";
import { quoteIdent, type InsertOutcome } from "./engine";

/** The two calls a load needs; DuckDB-WASM's blocking and async connections both have them. */
export interface LoadConnection {
  insertArrowFromIPCStream(ipc: Uint8Array, options: { name: string; create: boolean }): unknown;
  query(sql: string): Table | Promise<Table>;
}

/**
 * SqlEngine.insertArrowStream over the connection `current()` returns. A failed insert poisons a connection
 * (docs/architecture.md, "Pins and traps"), so after one `reconnect` must replace what `current()` returns
 * before the error goes up.
 */
export function arrowLoader(current: () => LoadConnection, reconnect: () => unknown) {
  let temporaries = 0;
  // One round trip (a run's tables are registered before the first chart). The name is one of ours, quoted.
  const exists = async (name: string) => {
    const t = await current().query(
      `SELECT count(*)::INTEGER AS n FROM information_schema.tables WHERE table_name = '${name.replace(/'/g, "''")}'`,
    );
    return Number(t.getChild("n")!.get(0)) > 0;
  };
  const insert = async (ipc: Uint8Array, name: string, create: boolean) => {
    try {
      await current().insertArrowFromIPCStream(ipc, { name, create });
    } catch (e) {
      await reconnect();
      throw e;
    }
  };
  return async (table: string, ipc: Uint8Array, options?: { append?: boolean }): Promise<InsertOutcome> => {
    if (options?.append) {
      await insert(ipc, table, false);
      return "appended";
    }
    const target = (await exists(table)) ? `_load_${++temporaries}` : table;
    await insert(ipc, target, true);
    // insertArrowFromIPCStream can fail silently: check the table is really there.
    if (!(await exists(target))) {
      await reconnect();
      throw new Error(`DuckDB did not create ${target} from the Arrow stream`);
    }
    if (target === table) return "created";
    await current().query(`INSERT INTO ${quoteIdent(table)} BY NAME SELECT * FROM ${quoteIdent(target)}`);
    await current().query(`DROP TABLE ${quoteIdent(target)}`);
    return "merged";
  };
}
