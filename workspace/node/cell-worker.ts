// The notebook worker (docs/architecture.md, "Decisions"): runs a notebook's cells in a worker_threads Worker
// the headless runner can terminate; the SQL engine stays with the runner (remote-engine.ts). Each cell is
// reported as it changes, rendered for the report being written and capped per cell, so the runner can write
// the report of everything else when it has to stop a cell that never returns (`while (true) {}`), never
// settles (an infinite generator) or runs the worker out of memory. Started by cell-worker-boot.mjs; messages
// in worker-protocol.ts.
import { readFile } from "node:fs/promises";
import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import { boundedJson, describeValue } from "../publish/bounded-json";
import { escapeHtml, renderDisplay, type PublishContext } from "../publish/publish";
import { parseNotebook } from "../notebook/format";
import { cellLabel } from "../notebook/cell-state";
import { explainLoadFailures } from "../notebook/load-failures";
import { remoteEngine } from "./remote-engine";
import { NotebookRuntime, type CellState } from "../notebook/runtime";
import { snapshotValue } from "../notebook/snapshot";
import type { CellRecord, WorkerInit, WorkerMessage } from "./worker-protocol";
import { setTimeOrigin } from "../../bundle/time-origins";

// The runner starts this worker before its runs are loaded, so that loading these modules overlaps the load; the
// notebook to run comes after, in the first message (workerData when started with it).
const init = ((workerData as (WorkerInit & { port: MessagePort }) | null) ??
  (await new Promise((resolve) => parentPort!.once("message", resolve)))) as WorkerInit & {
  port: MessagePort;
};
const post = (m: WorkerMessage) => parentPort!.postMessage(m);
for (const [runId, ns] of init.origins ?? []) setTimeOrigin(runId, ns);

/** A display's label for publish (file name of its embedded data), as publishNotebook makes it. */
function labels(source: string): Map<string, string> {
  const nb = parseNotebook(source);
  const out = new Map<string, string>();
  let index = 0;
  for (const b of nb.blocks)
    if (b.type !== "prose") out.set(b.id, (b.name ?? `cell-${++index}`).replace(/[^\w.-]/g, "_"));
    else continue;
  return out;
}

function renderHtml(s: CellState, label: string, ctx: PublishContext, cap: number): string[] {
  const out: string[] = [];
  let used = 0;
  for (const [k, d] of s.displays.entries()) {
    const html = renderDisplay(d, label, { ...ctx, maxChars: cap });
    if (used + html.length <= cap) {
      out.push(html);
      used += html.length;
      continue;
    }
    out.push(
      `<div class="error">${escapeHtml(cellLabel(s))}: output ${k + 1} (${escapeHtml(describeValue(d))}) is not embedded: ` +
        `it is over the report's cap of ${cap.toLocaleString("en-US")} characters per cell</div>`,
    );
    used += 200;
  }
  return out;
}

/** `resolved`: the runtime's current value of names whose export is a generator (a view's input, say). */
function snapshotOf(
  s: CellState,
  cap: number,
  resolved: Record<string, unknown> = {},
): CellRecord["snapshot"] {
  // A report holds every item of a list (an item takes at least two characters: more than cap / 2 cannot fit).
  const full = (v: unknown) => snapshotValue(v, 0, Math.ceil(cap / 2));
  const values: Record<string, unknown> = {};
  if (s.status === "fulfilled")
    for (const name of s.defines)
      values[name] = full(
        name in resolved
          ? resolved[name]
          : s.kind === "sql"
            ? s.value
            : (s.value as Record<string, unknown>)?.[name],
      );
  const snap = {
    values,
    value: s.kind === "sql" || !s.defines.length ? full(s.value) : undefined,
    displays: s.displays.map(full),
  };
  if (boundedJson(snap, cap) !== null) return snap;
  const over = (v: unknown) => (boundedJson(full(v), cap) === null ? describeValue(v) : null);
  const note = `not embedded: cell ${cellLabel(s)} is over the report's cap of ${cap.toLocaleString("en-US")} characters per cell`;
  return {
    values: Object.fromEntries(
      Object.entries(values).map(([k, v]) => [k, boundedJson(v, cap) === null ? { omitted: note } : v]),
    ),
    value: snap.value === undefined ? undefined : { omitted: `${over(s.value) ?? "value"} ${note}` },
    displays: s.displays.map((d) => ({ omitted: `${over(d) ?? "display"} ${note}` })),
  };
}

async function main() {
  const source = await readFile(init.path, "utf8");
  const notebook = parseNotebook(source);
  const label = labels(source);
  // linkedom and DOMPurify only for an HTML report
  const ctx =
    init.report === "html"
      ? (await import("./node-context")).createNodePublishContext(emptyProvenance(), {
          embedData: init.embedData,
        })
      : null;
  const cap = init.maxCellChars;
  const lastSent = new Map<string, number>();
  const deferred = new Map<string, CellState>();
  let runtime: NotebookRuntime | undefined;
  const runsSeen = new Map<string, number>();
  const startedAt = new Map<string, number>();
  let starts = 0;
  const send = (s: CellState, resolved?: Record<string, unknown>) => {
    if (s.runs > (runsSeen.get(s.id) ?? 0)) startedAt.set(s.id, ++starts);
    runsSeen.set(s.id, s.runs);
    const record: CellRecord = {
      id: s.id,
      kind: s.kind,
      name: s.name,
      defines: s.defines,
      references: s.references,
      status: s.status,
      error: s.error,
      notApplicable: s.notApplicable,
      ms: s.ms,
      runs: s.runs,
      started: startedAt.get(s.id) ?? 0,
      checks: s.checks,
    };
    if (s.status === "fulfilled" && s.kind === "ts" && s.value && typeof s.value === "object") {
      const values = s.value as Record<string, unknown>;
      const generators = s.defines.filter((d) => isGenerator(values[d]));
      if (generators.length) record.generators = generators;
    }
    if (s.status !== "pending") {
      if (ctx) record.html = renderHtml(s, label.get(s.id) ?? s.id, ctx, cap);
      if (init.report === "json") record.snapshot = snapshotOf(s, cap, resolved);
    }
    lastSent.set(s.id, Date.now());
    post({ type: "cell", record });
    if (runtime)
      post({
        type: "inputs",
        inputs: runtime
          .inputs()
          .map(({ name, value, label }) => ({ name, value: snapshotValue(value), label })),
      });
  };
  const flush = () => {
    for (const s of deferred.values()) send(s);
    deferred.clear();
  };
  const reported = new Set<string>();
  const remote = remoteEngine(init.port);
  runtime = new NotebookRuntime({
    engine: explainLoadFailures(remote, init.runs),
    yieldBeforeCells: () => remote.idle(),
    onCell: (s) => {
      // A cell that yields many values (a generator) is rendered at most every 200 ms; everything else at once,
      // before the next cell's code can start (and perhaps never return).
      const recent = s.status === "fulfilled" && Date.now() - (lastSent.get(s.id) ?? 0) < 200 && s.runs > 0;
      if (recent && reported.has(s.id)) {
        if (!deferred.size) setTimeout(flush, 200).unref();
        deferred.set(s.id, s);
      } else send(s);
      if (s.status === "pending" || reported.has(s.id)) return;
      reported.add(s.id);
      post({
        type: "progress",
        line: `${s.status === "fulfilled" ? "ok  " : s.notApplicable !== undefined ? "n/a " : "FAIL"} ${cellLabel(s)}${s.ms !== undefined ? ` (${Math.round(s.ms)} ms)` : ""}${s.error ? `: ${s.error}` : ""}`,
      });
    },
  });
  for (const [name, value] of Object.entries(init.set)) runtime.setInput(name, value);
  // The cells' time budget starts now, not while this worker was still loading its modules.
  post({ type: "ready" });
  runtime.load(notebook);
  await runtime.settled();
  flush();
  const setErrors = runtime.setProblems(init.set);
  if (setErrors.length) post({ type: "set-errors", errors: setErrors });
  // Last, every cell with its names' settled values (a generator's, an input's), as snapshotNotebook gives them.
  for (const s of runtime.states()) {
    const resolved: Record<string, unknown> = {};
    if (s.status === "fulfilled" && s.kind === "ts")
      for (const name of s.defines)
        if (isGenerator((s.value as Record<string, unknown>)?.[name]))
          resolved[name] = await runtime.value(name).catch((e: Error) => ({ error: e.message }));
    send(s, resolved);
  }
  post({ type: "done" });
}

function isGenerator(v: unknown): boolean {
  const g = v as { next?: unknown; return?: unknown; throw?: unknown } | null;
  return !!g && typeof g === "object" && typeof g.next === "function" && typeof g.throw === "function";
}

function emptyProvenance() {
  return { notebook: init.path, runs: [], jankbookVersion: "", generatedAt: "", inputs: [] };
}

main().catch((e: Error) => post({ type: "failed", message: e.message }));
