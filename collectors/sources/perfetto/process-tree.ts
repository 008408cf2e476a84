// ProcessTree (protos/perfetto/trace/ps/process_tree.proto): processes (pid 1, ppid 2, cmdline 3 repeated, uid 5,
// cmdline_is_comm 9) and threads (tid 1, name 2, tgid 3). The process name is argv0 as trace processor takes it
// (src/trace_processor/importers/proto/system_probes_parser.cc ParseProcessTree): a lone cmdline element is cut at
// its first space (processes that rewrite argv with spaces), and a kernel worker's transient queue suffix is cut.
import type { ProtoReader } from "./proto-reader";

export interface TreeProcess {
  pid: number;
  ppid: number | null;
  /** argv0 as above; null when the process had no cmdline */
  name: string | null;
  /** the elements joined with spaces */
  cmdline: string | null;
  uid: number | null;
  /** the cmdline is the main thread's comm (kernel threads): it names that thread too */
  cmdlineIsComm: boolean;
}

export interface TreeThread {
  tid: number;
  tgid: number | null;
  name: string | null;
}

export interface ProcessTree {
  processes: TreeProcess[];
  threads: TreeThread[];
}

// kthreadd's pid: its children are kernel threads (kernel/kthread.c).
const KTHREADD = 2;

/** `kworker/45:2-mm_percpu_wq` → `kworker/45:2`: the part after `-` or `+` is the last queue the worker served
 * (kernel/workqueue.c wq_worker_comm), not the thread's identity. */
export function kworkerName(comm: string): string {
  if (!comm.startsWith("kworker/")) return comm;
  const cut = [comm.indexOf("-", 8), comm.indexOf("+", 8)].filter((i) => i >= 0);
  return cut.length ? comm.slice(0, Math.min(...cut)) : comm;
}

export function readProcessTree(r: ProtoReader): ProcessTree {
  const out: ProcessTree = { processes: [], threads: [] };
  // processes 1, threads 2
  for (let f = r.nextLen(1, 2); f !== 0; f = r.nextLen(1, 2)) {
    const m = r.message();
    if (f === 1) {
      let pid = 0;
      let ppid: number | null = null;
      let uid: number | null = null;
      let isComm = false;
      const argv: string[] = [];
      while (m.more()) {
        const mt = m.tag();
        if (mt === 8) pid = m.int64();
        else if (mt === 16) ppid = m.int64();
        else if (mt === 26) argv.push(m.string());
        else if (mt === 40) uid = m.int64();
        else if (mt === 72) isComm = m.varint() !== 0;
        else m.skip(mt & 7);
      }
      let name: string | null = argv[0] ?? null;
      let cmdline = argv.length ? argv.join(" ") : null;
      if (name !== null && ppid === KTHREADD && kworkerName(name) !== name)
        cmdline = name = kworkerName(name);
      else if (name !== null && argv.length === 1 && name.includes(" "))
        name = name.slice(0, name.indexOf(" "));
      out.processes.push({ pid, ppid, name, cmdline, uid, cmdlineIsComm: isComm && cmdline !== null });
    } else {
      const th: TreeThread = { tid: 0, tgid: null, name: null };
      while (m.more()) {
        const mt = m.tag();
        if (mt === 8) th.tid = m.int64();
        else if (mt === 18) th.name = m.string();
        else if (mt === 24) th.tgid = m.int64();
        else m.skip(mt & 7);
      }
      out.threads.push(th);
    }
  }
  // A kernel thread's main-thread name loses its queue suffix as its process name does.
  const kthreads = new Set(out.processes.filter((p) => p.ppid === KTHREADD).map((p) => p.pid));
  for (const t of out.threads)
    if (t.name !== null && t.tid === t.tgid && kthreads.has(t.tid)) t.name = kworkerName(t.name);
  return out;
}
