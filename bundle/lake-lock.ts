// One writer at a time in a lake: `lake add` rewrites an app's filling run_summary file (read, add a row, write) and
// the run index, so two processes adding runs of one app at once would each drop the other's row. A lock file created with O_EXCL holds
// the holder's pid and host; a lock whose process is gone (same host) or that is older than `staleMs` is broken.
import { hostname } from "node:os";
import { join } from "node:path";
import { open, readFile, rename, rm } from "node:fs/promises";
import { randomBytes } from "node:crypto";

export const LAKE_LOCK = ".jankbook-lake.lock";

export interface LakeLockOptions {
  /** give up after this long (default 10 minutes) */
  timeoutMs?: number;
  /** a lock older than this is taken as abandoned even when its process cannot be checked (default 30 minutes) */
  staleMs?: number;
  /** told once when the lake is busy */
  onWait?: (holder: string) => void;
}

interface Holder {
  pid: number;
  host: string;
  token: string;
  since: number;
}

/** Runs `fn` holding the lake's lock; the lock is released however `fn` ends. */
export async function withLakeLock<T>(
  lake: string,
  fn: () => Promise<T>,
  options: LakeLockOptions = {},
): Promise<T> {
  const release = await acquire(join(lake, LAKE_LOCK), options);
  try {
    return await fn();
  } finally {
    await release();
  }
}

async function acquire(path: string, options: LakeLockOptions): Promise<() => Promise<void>> {
  const timeoutMs = options.timeoutMs ?? 600_000;
  const staleMs = options.staleMs ?? 1_800_000;
  const me: Holder = {
    pid: process.pid,
    host: hostname(),
    token: randomBytes(8).toString("hex"),
    since: Date.now(),
  };
  const start = Date.now();
  let told = false;
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(path, "wx");
      await handle.writeFile(JSON.stringify(me));
      await handle.close();
      return async () => {
        // only our own lock is removed (a lock broken as stale by another process is no longer ours)
        const now = await readHolder(path);
        if (typeof now === "object" && now.token === me.token) await rm(path, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    const holder = await readHolder(path);
    if (holder === "gone") continue;
    if (holder === undefined || isStale(holder, staleMs)) {
      await breakLock(path, holder);
      continue;
    }
    if (Date.now() - start > timeoutMs)
      throw new Error(
        `${path}: the lake is locked by process ${holder.pid} on ${holder.host} since ${new Date(holder.since).toISOString()}; gave up after ${Math.round(timeoutMs / 1000)} s (delete the file if that process is gone)`,
      );
    if (!told) options.onWait?.(`process ${holder.pid} on ${holder.host}`);
    told = true;
    await new Promise((r) =>
      setTimeout(r, Math.min(25 * 2 ** Math.min(attempt, 5), 500) + Math.random() * 25),
    );
  }
}

/** "gone" when the lock was released meanwhile; undefined when its content is not a holder. */
async function readHolder(path: string): Promise<Holder | "gone" | undefined> {
  const text = await readFile(path, "utf8").catch(() => undefined);
  if (text === undefined) return "gone";
  try {
    const h = JSON.parse(text) as Holder;
    return typeof h.pid === "number" && typeof h.token === "string" ? h : undefined;
  } catch {
    // a holder between open and write, or a file cut by a crash: judged by its age below
    return undefined;
  }
}

function isStale(holder: Holder, staleMs: number): boolean {
  if (Date.now() - holder.since > staleMs) return true;
  if (holder.host !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Moves the abandoned lock aside (rename is atomic, so one breaker wins), then checks it moved the lock it judged:
 * a lock taken afresh in between is put back.
 */
async function breakLock(path: string, judged: Holder | undefined): Promise<void> {
  if (judged === undefined) {
    // unreadable: give a writer mid-write a moment, then judge again by whether it is still unreadable
    await new Promise((r) => setTimeout(r, 200));
    const again = await readFile(path, "utf8").catch(() => undefined);
    if (again === undefined) return;
    try {
      JSON.parse(again);
      return;
    } catch {
      // still not a holder: abandoned
    }
  }
  const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    await rename(path, aside);
  } catch {
    return; // someone else broke or released it
  }
  const moved = await readHolder(aside);
  if (judged !== undefined && (typeof moved !== "object" || moved.token !== judged.token)) {
    // a live lock was taken between our judgement and the rename: give it back unless another was taken since
    const handle = await open(path, "wx").catch(() => undefined);
    if (handle) {
      await handle.writeFile(await readFile(aside));
      await handle.close();
    }
  }
  await rm(aside, { force: true });
}
