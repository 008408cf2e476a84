// ProcessTree (protos/perfetto/trace/ps/process_tree.proto): processes (pid 1, ppid 2, cmdline 3, uid 5) and
// threads (tid 1, name 2, tgid 3); later lists add to earlier ones, a thread's known name or tgid is kept.
import type { ProtoReader } from "./proto-reader";
import type { ProcessRow, ThreadRow } from "./rows";

export function readProcessTree(
  r: ProtoReader,
  processes: Map<number, ProcessRow>,
  threads: Map<number, ThreadRow>,
): void {
  // processes 1, threads 2
  for (let f = r.nextLen(1, 2); f !== 0; f = r.nextLen(1, 2)) {
    const m = r.message();
    if (f === 1) {
      const p: ProcessRow = { pid: 0, ppid: null, name: null, uid: null };
      while (m.more()) {
        const mt = m.tag();
        if (mt === 8) p.pid = m.int64();
        else if (mt === 16) p.ppid = m.int64();
        else if (mt === 26) p.name ??= m.string();
        else if (mt === 40) p.uid = m.int64();
        else m.skip(mt & 7);
      }
      processes.set(p.pid, p);
    } else {
      const th: ThreadRow = { tid: 0, name: "", pid: null };
      while (m.more()) {
        const mt = m.tag();
        if (mt === 8) th.tid = m.int64();
        else if (mt === 18) th.name = m.string();
        else if (mt === 24) th.pid = m.int64();
        else m.skip(mt & 7);
      }
      const old = threads.get(th.tid);
      threads.set(th.tid, {
        tid: th.tid,
        name: th.name || old?.name || "",
        pid: th.pid ?? old?.pid ?? null,
      });
    }
  }
}
