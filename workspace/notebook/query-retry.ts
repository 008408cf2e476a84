// The engine has one connection: stopping a stale query (engine.interrupt) can also stop another cell's query
// that was running on it. Every query a notebook sends, from a SQL cell or from the `sql` builtin in a ts cell,
// goes through here so such a collateral victim runs again instead of failing.
import type { Table } from "apache-arrow";
import type { SqlEngine } from "../db/engine";

export interface InterruptClock {
  /** bumped on every interrupt of a stale query */
  interruptEpoch(): number;
}

/** `engine.query`, run again while it failed because of someone else's interrupt (and `abandoned()` is false). */
export async function queryRetryingCollateral(
  engine: SqlEngine,
  sql: string,
  params: readonly unknown[],
  clock: InterruptClock,
  abandoned: () => boolean = () => false,
): Promise<Table> {
  for (;;) {
    const epoch = clock.interruptEpoch();
    try {
      return await engine.query(sql, params);
    } catch (e) {
      if (!abandoned() && epoch !== clock.interruptEpoch()) continue;
      throw e;
    }
  }
}
