// The simulated app's memory over device time and the `dumpsys meminfo <pkg>` text a phone of a given API
// level prints for it (the layouts of AOSP ActivityThread.dumpMemInfoTable, non-checkin form: Android 6
// "Swapped Dirty", 7-9 "SwapPss Dirty", 10+ an Rss Total column and "TOTAL PSS:/TOTAL RSS:" in the summary).
// The Java heap fills at a steady rate and a GC brings it back (a sawtooth), so a heap view has a shape.

/** KB figures at `ms` of device time after the scenario started (integers, as dumpsys prints them). */
export interface SimMemory {
  javaHeapSize: number;
  javaHeapAlloc: number;
  javaHeapPss: number;
  nativeHeapSize: number;
  nativeHeapAlloc: number;
  nativeHeapPss: number;
  code: number;
  stack: number;
  graphics: number;
  privateOther: number;
  system: number;
  pssTotal: number;
  rssTotal: number;
}

export function simMemory(ms: number, seed: number): SimMemory {
  const s = Math.max(0, ms) / 1000;
  const javaHeapAlloc = 18_000 + (seed % 7) * 500 + Math.floor((s * 2_400) % 30_000);
  const nativeHeapAlloc = 15_000 + Math.floor(s * 120);
  const javaHeapPss = Math.floor(javaHeapAlloc * 0.94);
  const nativeHeapPss = Math.floor(nativeHeapAlloc * 1.02);
  const code = 21_500 + (seed % 5) * 300;
  const stack = 1_120;
  const graphics = 9_000 + 4_096 * Math.floor(s / 10);
  const privateOther = 3_400;
  const system = 11_800;
  const pssTotal = javaHeapPss + nativeHeapPss + code + stack + graphics + privateOther + system;
  return {
    javaHeapSize: Math.ceil((javaHeapAlloc + 6_000) / 1024) * 1024,
    javaHeapAlloc,
    javaHeapPss,
    nativeHeapSize: Math.ceil((nativeHeapAlloc + 4_000) / 1024) * 1024,
    nativeHeapAlloc,
    nativeHeapPss,
    code,
    stack,
    graphics,
    privateOther,
    system,
    pssTotal,
    rssTotal: pssTotal + 58_000,
  };
}

const right = (v: string | number, w: number) => String(v).padStart(w);

export function formatMeminfo(m: SimMemory, api: number, pid: number, pkg: string, uptimeMs: number): string {
  const rss = api >= 29;
  const swap = api >= 24 ? "SwapPss" : "Swapped";
  const cols = (xs: (string | number)[]) => xs.map((x) => right(x, 8)).join(" ");
  const head1 = ["Pss", "Private", "Private", swap, ...(rss ? ["Rss"] : []), "Heap", "Heap", "Heap"];
  const head2 = ["Total", "Dirty", "Clean", "Dirty", ...(rss ? ["Total"] : []), "Size", "Alloc", "Free"];
  const row = (label: string, pss: number, heap?: [number, number]) =>
    `${right(label, 13)} ${cols([pss, pss, 0, 0, ...(rss ? [pss + 1_024] : []), ...(heap ? [heap[0], heap[1], heap[0] - heap[1]] : [])])}`;
  const other = m.pssTotal - m.javaHeapPss - m.nativeHeapPss;
  const lines = [
    "Applications Memory Usage (in Kilobytes):",
    `Uptime: ${uptimeMs} Realtime: ${uptimeMs + 1_234}`,
    "",
    `** MEMINFO in pid ${pid} [${pkg}] **`,
    `${" ".repeat(13)} ${cols(head1)}`,
    `${" ".repeat(13)} ${cols(head2)}`,
    `${" ".repeat(13)} ${cols(head1.map(() => "------"))}`,
    row("Native Heap", m.nativeHeapPss, [m.nativeHeapSize, m.nativeHeapAlloc]),
    row("Dalvik Heap", m.javaHeapPss, [m.javaHeapSize, m.javaHeapAlloc]),
    row("Dalvik Other", Math.floor(other / 4)),
    row("Stack", m.stack),
    row(".apk mmap", Math.floor(other / 4)),
    `${right("TOTAL", 13)} ${cols([m.pssTotal, m.pssTotal - 2_000, 2_000, 0, ...(rss ? [m.rssTotal] : []), m.javaHeapSize + m.nativeHeapSize, m.javaHeapAlloc + m.nativeHeapAlloc, m.javaHeapSize + m.nativeHeapSize - m.javaHeapAlloc - m.nativeHeapAlloc])}`,
    " ",
    " App Summary",
    `${" ".repeat(23)}Pss(KB)${rss ? `${" ".repeat(24)}Rss(KB)` : ""}`,
    `${" ".repeat(24)}------${rss ? `${" ".repeat(25)}------` : ""}`,
  ];
  const summary: [string, number, number | null][] = [
    ["Java Heap", m.javaHeapPss, m.javaHeapPss + 9_000],
    ["Native Heap", m.nativeHeapPss, m.nativeHeapPss + 600],
    ["Code", m.code, m.code * 3],
    ["Stack", m.stack, m.stack + 16],
    ["Graphics", m.graphics, m.graphics],
    ["Private Other", m.privateOther, null],
    ["System", m.system, null],
  ];
  for (const [label, pss, r] of summary)
    lines.push(`${right(label + ":", 21)} ${right(pss, 8)}${rss && r !== null ? right(r, 31) : ""}`);
  lines.push(" ");
  lines.push(
    rss
      ? `${right("TOTAL PSS:", 21)} ${right(m.pssTotal, 8)}${right("TOTAL RSS:", 18)} ${right(m.rssTotal, 8)}${right("TOTAL SWAP PSS:", 21)} ${right(0, 8)}`
      : `${right("TOTAL:", 21)} ${right(m.pssTotal, 8)}${right("TOTAL SWAP PSS:", 21)} ${right(0, 8)}`,
  );
  lines.push(
    " ",
    " Objects",
    `${right("Views:", 21)} ${right(42, 8)}${right("ViewRootImpl:", 21)} ${right(1, 8)}`,
    "",
  );
  return lines.join("\n") + "\n";
}
