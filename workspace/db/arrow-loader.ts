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
  // Tables this loader has seen exist: loading many runs asked DuckDB the same question per run and table, and each
  // catalog query costs milliseconds in DuckDB-WASM. A table dropped since is found when the insert misses it.
  const known = new Set<string>();
  const exists = async (name: string) => {
    if (known.has(name)) return true;
    // The current database's own tables only: an attached run's table of the same name is not a load target.
    const t = await current().query(
      `SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' AND table_name = '${name.replace(/'/g, "''")}'`,
    );
    const found = Number(t.getChild("n")!.get(0)) > 0;
    if (found) known.add(name);
    return found;
  };
  const insert = async (ipc: Uint8Array, name: string, create: boolean) => {
    try {
      await current().insertArrowFromIPCStream(ipc, { name, create });
    } catch (e) {
      known.delete(name);
      await reconnect();
      throw e;
    }
  };
  return async (table: string, ipc: Uint8Array, options?: { append?: boolean }): Promise<InsertOutcome> => {
    if (options?.append) {
      await insert(ipc, table, false);
      return "appended";
    }
    if (!(await exists(table))) {
      await insert(ipc, table, true);
      // insertArrowFromIPCStream can fail silently: check the table is really there.
      if (!(await exists(table))) {
        await reconnect();
        throw new Error(`DuckDB did not create ${table} from the Arrow stream`);
      }
      return "created";
    }
    // Another run's table is there already: this run's rows go in by name (the two may differ in nullable columns).
    const temporary = `_load_${++temporaries}`;
    await insert(ipc, temporary, true);
    try {
      await current().query(
        `INSERT INTO ${quoteIdent(table)} BY NAME SELECT * FROM ${quoteIdent(temporary)}`,
      );
    } catch (e) {
      // The table was dropped since it was seen (a test emptying a shared engine does): this run's rows become it.
      known.delete(table);
      if (!(await exists(table)) && (await exists(temporary))) {
        await current().query(`ALTER TABLE ${quoteIdent(temporary)} RENAME TO ${quoteIdent(table)}`);
        known.delete(temporary);
        known.add(table);
        return "created";
      }
      // A temporary that was never created (the silent failure above) surfaces here, named.
      throw new Error(`could not add the rows to ${table}: ${(e as Error).message}`);
    } finally {
      await Promise.resolve(current().query(`DROP TABLE IF EXISTS ${quoteIdent(temporary)}`)).catch(
        () => undefined,
      );
    }
    return "merged";
  };
}
