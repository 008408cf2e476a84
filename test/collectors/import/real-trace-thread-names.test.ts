// No thread of a real trace (test/fixtures/SOURCES.md) is left unnamed where the trace names it: every tid that an
// ftrace line's task column, a sched_switch's prev/next_comm or a sched_wakeup's comm names, read here with
// regular expressions of our own over the raw text, has a name on every slice and thread state of it and in the
// threads table. (A tid only ever printed as `<...>` is one the kernel had forgotten: trace processor leaves it
// unnamed too.)
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Table } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { readBundleFolder } from "../../../bundle/node-io";
import { importFiles } from "../../../cli/commands/import";

const ROOT = join(import.meta.dirname, "../../..");
const fixture = (f: string) => join(ROOT, "test/fixtures/systrace", f);
// the ftrace text of each real systrace, as its file holds it (the .ctrace is the decompressed file zlib'd)
const TEXT: Record<string, () => string> = {
  "catapult_atrace_data.txt": () => readFileSync(fixture("catapult_atrace_data.txt"), "utf8"),
  "catapult_decompressed_atrace_data.txt": () =>
    readFileSync(fixture("catapult_decompressed_atrace_data.txt"), "utf8"),
  "catapult_compressed_atrace_data.ctrace": () =>
    readFileSync(fixture("catapult_decompressed_atrace_data.txt"), "utf8"),
  "catapult_android_systrace_js-escaped.txt": () =>
    readFileSync(fixture("catapult_android_systrace_js-escaped.txt"), "utf8").replace(/\\n\\\n/g, "\n"),
  "third_party/catapult_counter_tracks.html": () => jsString("third_party/catapult_counter_tracks.html"),
  "third_party/catapult_trivial_systrace.html": () => jsString("third_party/catapult_trivial_systrace.html"),
};

function jsString(f: string): string {
  const html = readFileSync(fixture(f), "utf8");
  const start = html.indexOf('var linuxPerfData = "') + 'var linuxPerfData = "'.length;
  return html.slice(start, html.indexOf('";', start)).replace(/\\n\\\n/g, "\n");
}

function namedTids(text: string): Set<number> {
  const named = new Set<number>();
  for (const line of text.split("\n")) {
    const m = /^\s*(.+?)-(\d+)\s+(?:\([\s\d-]+\)\s+)?\[\d+\]/.exec(line);
    if (m && m[1]!.trim() !== "<...>" && m[2] !== "0") named.add(Number(m[2]));
    for (const c of line.matchAll(/(?:prev_comm|next_comm|comm)=(.+?) (?:prev_pid|next_pid|pid)=(\d+)/g))
      if (c[1] !== "<...>" && c[2] !== "0") named.add(Number(c[2]));
  }
  return named;
}

type Row = Record<string, unknown>;
const rows = (t: Table | undefined): Row[] =>
  t ? t.toArray().map((r: { toJSON(): Row }) => r.toJSON()) : [];

describe("threads named where the real trace names them", () => {
  it.each(Object.keys(TEXT))("%s", async (f) => {
    const named = namedTids(TEXT[f]!());
    expect(named.size).toBeGreaterThan(0);
    const [run] = await importFiles([fixture(f)], mkdtempSync(join(tmpdir(), "jb-names-")));
    const b = await readBundleFolder(run!.dir);
    const unnamed = (table: string) =>
      rows(b.tables.get(table as never))
        .filter((r) => named.has(Number(r.tid)) && (r.thread_name == null || r.thread_name === ""))
        .map((r) => r.tid);
    expect(unnamed("slices")).toEqual([]);
    expect(unnamed("thread_states")).toEqual([]);
    const threads = rows(b.tables.get("threads"));
    for (const tid of named) {
      const t = threads.find((x) => x.thread_id === tid);
      // every named tid the import kept is named in the threads table
      if (t) expect(t.name, `tid ${tid}`).not.toBe("");
    }
    expect(threads.some((x) => named.has(Number(x.thread_id)))).toBe(true);
  });
});
