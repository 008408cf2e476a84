// Helpers shared by the trace-processor diff-test files: the encoded fixtures, and trace processor's expected CSVs
// next to jankbook's rows in the same text form.
import { readFileSync } from "node:fs";
import type { ProcessRow, ThreadRow } from "../../../collectors/sources/perfetto/rows";
import { decodePerfetto } from "../../../collectors/sources/perfetto/trace-decoder";

export const fixture = (name: string) =>
  new Uint8Array(readFileSync(`test/fixtures/perfetto/difftest_${name}.pftrace`));
export const decode = (name: string) => decodePerfetto(fixture(name));

// Trace processor's CSV as lines, header dropped.
export const csv = (text: string) =>
  text
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.trim());
export const q = (v: string | number | null | undefined) =>
  v === null || v === undefined ? '"[NULL]"' : typeof v === "string" ? `"${v}"` : String(v);

/** `SELECT tid, pid, process.name, thread.name FROM thread LEFT JOIN process USING(upid) WHERE tid > 0 ORDER BY
 * tid` over jankbook's rows (no pid is reused in the traces this is used on). */
export function threadTable(
  threads: ThreadRow[],
  processes: ProcessRow[],
  threadNameFirst = false,
): string[] {
  return threads.map((t) => {
    const p = processes.find((p) => p.pid === t.pid)?.name ?? null;
    return [t.tid, t.pid, ...(threadNameFirst ? [t.name, p] : [p, t.name])].map(q).join(",");
  });
}

// jankbook's threads table holds named threads only (its name column is not nullable): trace processor's rows with
// a NULL thread name are checked through the rows' pid elsewhere, not listed.
export const named = (rows: string[]) => rows.filter((r) => !r.endsWith('"[NULL]"'));
