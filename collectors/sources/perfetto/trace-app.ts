// Which app a trace is about, when FrameTimeline does not say: the app process (Android app uid, 10000-19999 within
// a user, android.os.Process FIRST/LAST_APPLICATION_UID) with the most slices, else the one with the most thread
// states; with its package from packages_list for the version.
import type { TraceRows } from "./rows";
import type { SystemInfo } from "./system-info";

const isAppUid = (uid: number | null) => uid !== null && uid % 100000 >= 10000 && uid % 100000 <= 19999;

export function busiestAppPid(rows: TraceRows): number | null {
  const apps = new Set(rows.processes.filter((p) => isAppUid(p.uid) && p.name).map((p) => p.pid));
  if (!apps.size) return null;
  const count = new Map<number, number>();
  const add = (pid: number | null | undefined) => {
    if (pid != null && apps.has(pid)) count.set(pid, (count.get(pid) ?? 0) + 1);
  };
  const sc = rows.sliceColumns;
  if (sc)
    for (let i = 0; i < sc.length; i++) add(sc.pid[i] === sc.pid[i] ? sc.pid[i] : sc.pids.get(sc.tid[i]!));
  if (!count.size && rows.threadStateColumns) {
    const c = rows.threadStateColumns;
    for (let i = 0; i < c.length; i++) add(c.pids.get(c.tid[i]!));
  }
  let best: number | null = null;
  for (const [pid, n] of count) if (best === null || n > count.get(best)!) best = pid;
  return best;
}

/** The app's version from packages_list, for the run's app_version. */
export function appVersion(
  rows: TraceRows,
  system: SystemInfo,
  pid: number | null,
  app: string,
): string | null {
  const uid = pid === null ? null : (rows.processes.find((p) => p.pid === pid)?.uid ?? null);
  const pkg = system.packageOf(app, uid);
  return pkg?.version_code != null ? String(pkg.version_code) : null;
}
