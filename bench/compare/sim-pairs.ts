// Simulated run pairs for comparing: for each case family (DiagDroid, DRAW, DUNE, AndroScope) a scenario with its
// planted change and the same scenario without it, written as run bundles from the simulator's model (as
// samples/cases-dune-draw.ts does, no phone), plus which rows of "what changed most" name the planted change.
// Used by test/cells/compare/ and `npm run bench -- compare`; A/A pairs are the same variant at two seeds.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Table } from "apache-arrow";
import type { CompareRow } from "../../cells/compare/compare-metric";
import { newManifest } from "../../bundle/manifest";
import { writeBundleFolder } from "../../bundle/node-io";
import { agentTables } from "../../collectors/bundle-tables";
import { methodTraceTables } from "../../collectors/method-trace-tables";
import { AgentLineReader } from "../../collectors/sources/agent-lines";
import { readMethodTrace } from "../../collectors/sources/method-trace";
import { writeMethodTrace } from "../../collectors/sources/method-trace-writer";
import { PROFILES } from "../../collectors/simulator/device-profiles";
import { contendedFrameTrace, longjmpTrace } from "../../collectors/simulator/scenarios-androscope";
import { buildScenario, type ScenarioName } from "../../collectors/simulator/scenarios";
import type { ScenarioNoise } from "../../collectors/simulator/scenario-parts";
import { profileContext } from "../../samples/profile-context";
import { simulateRun, type SimRun } from "../accuracy/sim-run";

/** CLOCK_MONOTONIC at the scenario's start, as bench/accuracy/sim-run.ts puts frames and events. */
const BASE = 3_600_000_000_000n;

export type CompareFamily = "diagdroid" | "draw" | "dune" | "androscope";

export interface SimCase {
  family: CompareFamily;
  name: string;
  /** [healthy, buggy] scenario names (AndroScope: the trace generator's flag) */
  healthy: ScenarioName | "trace";
  buggy: ScenarioName | "trace";
  device: string;
}

export const SIM_CASES: readonly SimCase[] = [
  { family: "diagdroid", name: "openlaw", healthy: "openlaw-fixed", buggy: "openlaw", device: "pixel-2" },
  {
    family: "diagdroid",
    name: "bartrunner",
    healthy: "bartrunner-fixed",
    buggy: "bartrunner",
    device: "nexus-5x",
  },
  { family: "diagdroid", name: "fbreader", healthy: "fbreader-fixed", buggy: "fbreader", device: "pixel-2" },
  {
    family: "diagdroid",
    name: "transportr",
    healthy: "transportr-fixed",
    buggy: "transportr",
    device: "pixel-2",
  },
  { family: "draw", name: "faceq", healthy: "faceq-fixed", buggy: "faceq", device: "pixel-4a" },
  { family: "draw", name: "picsplay", healthy: "picsplay-fixed", buggy: "picsplay", device: "pixel-4a" },
  {
    family: "draw",
    name: "pregnancy-article",
    healthy: "pregnancy-article-fixed",
    buggy: "pregnancy-article",
    device: "pixel-4a",
  },
  {
    family: "draw",
    name: "pregnancy-timeline",
    healthy: "pregnancy-timeline-fixed",
    buggy: "pregnancy-timeline",
    device: "pixel-4a",
  },
  { family: "dune", name: "k9", healthy: "k9", buggy: "k9-regressed", device: "pixel-4a" },
  {
    family: "dune",
    name: "spaceblaster",
    healthy: "spaceblaster",
    buggy: "spaceblaster-regressed",
    device: "pixel-4a",
  },
  {
    family: "dune",
    name: "exoplayer",
    healthy: "exoplayer-next",
    buggy: "exoplayer-injected",
    device: "pixel-4a",
  },
  { family: "androscope", name: "longjmp", healthy: "trace", buggy: "trace", device: "nexus-5x" },
  { family: "androscope", name: "context-switch", healthy: "trace", buggy: "trace", device: "nexus-5x" },
];

export interface WrittenRun {
  dir: string;
  runId: string;
  /** does a row of the ranked list name this run's planted change? (buggy runs only) */
  planted?: (row: CompareRow) => boolean;
}

const stringAt = (t: Table | undefined, col: string, i: number) => {
  const v = t?.getChild(col)?.get(i);
  return v === null || v === undefined ? null : String(v);
};

/** What the planted change is found from: the run's ground truth and the tables naming its views and events. */
export type TruthRun = Pick<SimRun, "renderOps" | "uiEvents"> & {
  truth: { cases: { culprit: Record<string, unknown> }[] };
};

/** The DRAW subjects (class #xml_id) of the view ids, read from the run's render operations. */
function viewSubjects(run: TruthRun, ids: readonly number[]): Set<string> {
  const want = new Set(ids);
  const out = new Set<string>();
  const t = run.renderOps!;
  const id = t.getChild("view_id")!;
  for (let i = 0; i < t.numRows; i++)
    if (want.has(Number(id.get(i)))) {
      const xml = stringAt(t, "xml_id", i);
      out.add(`${stringAt(t, "view_class", i)}${xml ? ` #${xml}` : ""}`);
    }
  return out;
}

/** The frames-bucket subjects of the 1-based bucket (event) numbers. */
function eventSubjects(run: TruthRun, buckets: readonly number[]): Set<string> {
  return new Set(
    buckets.map(
      (n) =>
        `after ${`${stringAt(run.uiEvents, "kind", n - 1)} ${stringAt(run.uiEvents, "target", n - 1) ?? ""}`.trim()}`,
    ),
  );
}

/** Whether a row names the planted change of a run of case `c` (its family and name), from its ground truth. */
export function plantedOf(c: Pick<SimCase, "family" | "name">, run: TruthRun): (row: CompareRow) => boolean {
  const culprit = run.truth.cases[0]!.culprit;
  if (c.family === "androscope") return tracePlanted(c.name, culprit);
  if (c.family === "diagdroid") {
    // the culprit's group, or a group it waited behind (DiagDroid's issue, as bench/accuracy/diagdroid.ts counts it)
    const classes = [culprit.task_class as string, ...([culprit.blocked_by ?? []].flat() as string[])];
    return (r) => r.analysis === "diagdroid" && classes.some((k) => r.subject.startsWith(`${k} from `));
  }
  if (c.family === "dune") {
    const buckets =
      (culprit.regressed_events as number[] | undefined) ??
      (culprit.janky_events as number[] | undefined) ??
      Array.from({ length: run.uiEvents!.numRows }, (_, i) => i + 1).filter(
        (n) => stringAt(run.uiEvents, "target", n - 1) === "message_list_item",
      );
    const subjects = eventSubjects(run, buckets);
    const targets = new Set(
      buckets.map((n) => stringAt(run.uiEvents, "target", n - 1)).filter((t) => t !== null),
    );
    // the frames after the regressed events, or the view those events went to
    return (r) =>
      (r.analysis === "frames" && subjects.has(r.subject)) ||
      (r.analysis === "draw" && [...targets].some((t) => r.subject.endsWith(` #${t}`)));
  }
  const ids =
    c.name === "picsplay"
      ? (culprit.hidden_submenus as { views: number[] }[]).flatMap((s) => s.views)
      : c.name === "pregnancy-article"
        ? (culprit.offscreen_views as number[])
        : [culprit.view_id as number];
  const views = viewSubjects(run, ids);
  const xml = [...views].map((v) => v.split(" #")[1]).filter(Boolean);
  // a view, or the frames after an interaction with it (DRAW §V's interactions name their view)
  return (r) =>
    (r.analysis === "draw" && views.has(r.subject)) ||
    (r.analysis === "frames" && xml.some((x) => r.subject.endsWith(` ${x}`)));
}

/** The methods an AndroScope trace case is about: the longjmp's setjmp caller and skipped frames, or the method. */
function tracePlanted(name: string, culprit: Record<string, unknown>): (row: CompareRow) => boolean {
  const methods = new Set(
    name === "longjmp"
      ? [culprit.setjmp_caller as string, ...(culprit.skipped as string[])]
      : [culprit.method as string],
  );
  return (r) => r.analysis === "methods" && methods.has(r.subject);
}

async function writeTraceRun(
  dir: string,
  runId: string,
  c: SimCase,
  buggy: boolean,
  seed: number,
): Promise<WrittenRun> {
  const s = c.name === "longjmp" ? longjmpTrace(seed, buggy) : contendedFrameTrace(seed, buggy);
  const bytes = writeMethodTrace({
    dataVersion: 3,
    clock: "dual",
    threads: s.threads,
    methods: s.methods,
    records: s.records,
    startTimeUs: Date.UTC(2026, 10, 2, 11) * 1000,
    properties: { "data-file-overflow": "false", vm: "art", pid: String(s.threads[0]!.id) },
  });
  const { tables } = methodTraceTables(readMethodTrace(bytes, { runId }), runId);
  const manifest = newManifest(
    runId,
    { app: "com.example.app", app_version: "1.0", scenario: c.name, ...profileContext(PROFILES[c.device]!) },
    { synthetic: true },
  );
  await writeBundleFolder(dir, manifest, tables);
  return { dir, runId, planted: tracePlanted(c.name, s.truth.culprit) };
}

/** Writes one simulated run of the case (its buggy or healthy variant) at the seed into `root/<runId>`. */
export async function writeSimRun(
  root: string,
  c: SimCase,
  buggy: boolean,
  seed: number,
  noise: ScenarioNoise = {},
): Promise<WrittenRun> {
  const runId = `${c.name}-${buggy ? "buggy" : "healthy"}-s${seed}`;
  const dir = join(root, runId);
  if (c.family === "androscope") return writeTraceRun(dir, runId, c, buggy, seed);
  const scenario = (buggy ? c.buggy : c.healthy) as ScenarioName;
  const device = PROFILES[c.device]!;
  const run = simulateRun(runId, scenario, device, seed, noise, true);
  const tables: Record<string, Table> = { frames: run.frames };
  if (run.uiEvents) tables.ui_events = run.uiEvents;
  if (run.renderOps) tables.render_ops = run.renderOps;
  if (c.family === "diagdroid") {
    const tl = buildScenario(scenario, device, seed, true, noise);
    const contexts = new Map([...tl.sim.contexts].map(([stack, id]) => [id, stack.split("\n")]));
    const t = agentTables(runId, {
      ...new AgentLineReader().data,
      // in the clock the frames and events are in (sim-run.ts's BASE)
      tasks: tl.sim.tasks.map((x) => ({
        ...x,
        scheduled: BASE + BigInt(x.scheduled),
        started: BASE + BigInt(x.started),
        ended: BASE + BigInt(x.ended),
        thread_id: x.tid,
        enqueued: BASE + BigInt(x.scheduled),
      })),
      contexts,
    });
    if (t.tasks) tables.tasks = t.tasks;
    if (t.contexts) tables.contexts = t.contexts;
  }
  const manifest = newManifest(
    runId,
    {
      app: run.truth.package,
      app_version: run.truth.app_version,
      scenario: c.name,
      ...profileContext(device),
    },
    { synthetic: true },
  );
  await writeBundleFolder(dir, manifest, tables);
  await writeFile(join(dir, "ground_truth.json"), JSON.stringify(run.truth) + "\n");
  return { dir, runId, planted: buggy ? plantedOf(c, run) : undefined };
}
