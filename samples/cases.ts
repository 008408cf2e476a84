// `npm run sample-cases`: the runs of the case-study notebooks (notebooks/cases/*.md), each a scenario of the
// simulated app collected from a simulated phone through the real adb server and collector (as
// samples/generate.ts does), or a run generated without a phone. Seeded: every generation gives the same runs.
// Writes notebooks/cases/runs/<run>/ (bundle + ground_truth.json) and removes run folders no longer listed.
//
// One line per run, but for the later recordings of a case recorded RECORDINGS times a side
// (samples/cases-dune-draw.ts), added at the end; a notebook's `runs:` names its case's runs and `healthy:` the
// counterpart without the bug.
// `npm run sample-cases -- <prefix>...` rewrites only the runs whose name starts with a prefix (Arrow numbers
// dictionaries per process, so such runs differ in bytes, not values, from a full generation: commit a full one).
// Between two full generations only heap_samples differ: the collector samples `dumpsys meminfo` on the wall clock.
import { execFile } from "node:child_process";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { format } from "prettier";
import { newManifest } from "../bundle/manifest";
import { writeBundleFolder } from "../bundle/node-io";
import { methodTraceTables } from "../collectors/method-trace-tables";
import { PROFILES, type DeviceProfile } from "../collectors/simulator/device-profiles";
import {
  contendedFrameTrace,
  longjmpTrace,
  type TraceScenario,
} from "../collectors/simulator/scenarios-androscope";
import { readMethodTrace } from "../collectors/sources/method-trace";
import { writeMethodTrace } from "../collectors/sources/method-trace-writer";
import type { ScenarioName } from "../collectors/simulator/scenarios";
import { OLD_DEVICES } from "../collectors/simulator/scenarios-diagdroid";
import { DUNE_DRAW_CASE_RUNS, RECORDINGS, recording } from "./cases-dune-draw";
import { collectBatch } from "./generate";
import { profileContext } from "./profile-context";

/** A run collected from a simulated phone playing `scenario` on `device` (a PROFILES or OLD_DEVICES key). */
export interface PhoneRun {
  run: string;
  scenario: ScenarioName;
  device: string;
  seed: number;
  /** false: the agent runs without its View hooks (no render_ops) */
  viewHooks?: boolean;
}
/** A run written by `generate(dir)` without a phone (e.g. a method trace put through the importer). */
export interface GeneratedRun {
  run: string;
  generate: (dir: string) => Promise<void>;
}
export type CaseRun = PhoneRun | GeneratedRun;

/** The DiagDroid cases whose finding rests on a few tasks a recording: each side recorded RECORDINGS times. */
const RECORDED: readonly PhoneRun[] = [
  { run: "diagdroid-1-openlaw", scenario: "openlaw", device: "pixel-2", seed: 601 },
  { run: "diagdroid-1-openlaw-fixed", scenario: "openlaw-fixed", device: "pixel-2", seed: 601 },
  { run: "diagdroid-3-fbreader", scenario: "fbreader", device: "pixel-2", seed: 603 },
  { run: "diagdroid-3-fbreader-fixed", scenario: "fbreader-fixed", device: "pixel-2", seed: 603 },
  { run: "diagdroid-4-transportr", scenario: "transportr", device: "pixel-2", seed: 604 },
  { run: "diagdroid-4-transportr-fixed", scenario: "transportr-fixed", device: "pixel-2", seed: 604 },
];
const recorded = (r: PhoneRun, k: number): PhoneRun => ({ ...r, ...recording(r.run, r.seed, k) });
/** AndroScope §V-2's traces, k-th recording: 3 corrupt images a trace is 3 of 40 decodes. */
const longjmpRuns = (k: number): CaseRun[] =>
  [true, false].map((corrupt) => {
    const r = recording(`androscope-5-2-${corrupt ? "corrupt" : "valid"}-jpeg`, 652, k);
    return { run: r.run, generate: traceRun("com.example.gallery", () => longjmpTrace(r.seed, corrupt)) };
  });
const later = (k: number): CaseRun[] => [...RECORDED.map((r) => recorded(r, k)), ...longjmpRuns(k)];

export const CASE_RUNS: readonly CaseRun[] = [
  RECORDED[0]!,
  RECORDED[1]!,
  { run: "diagdroid-2-bartrunner", scenario: "bartrunner", device: "nexus-5x", seed: 602 },
  { run: "diagdroid-2-bartrunner-fixed", scenario: "bartrunner-fixed", device: "nexus-5x", seed: 602 },
  RECORDED[2]!,
  RECORDED[3]!,
  RECORDED[4]!,
  RECORDED[5]!,
  { run: "diagdroid-5-lucid-browser-gt-i9105p", scenario: "lucid-browser", device: "gt-i9105p", seed: 605 },
  { run: "diagdroid-5-lucid-browser-k50-t5", scenario: "lucid-browser", device: "k50-t5", seed: 605 },
  ...longjmpRuns(1),
  {
    run: "androscope-5-3-contended",
    generate: traceRun("com.example.feed", () => contendedFrameTrace(653, true)),
  },
  {
    run: "androscope-5-3-background",
    generate: traceRun("com.example.feed", () => contendedFrameTrace(653, false)),
  },
  ...DUNE_DRAW_CASE_RUNS,
  // the later recordings last, so the runs above keep their start times (a phone run's is its place in this list)
  ...Array.from({ length: RECORDINGS - 1 }, (_, k) => later(k + 2)).flat(),
];

export const CASES_DIR = new URL("../notebooks/cases/runs/", import.meta.url).pathname;
/** Ports of the simulated phones, away from samples/generate.ts's 6601 and adb's 5555-5585. */
const FIRST_PORT = 6671;

/**
 * A run holding one method trace of an AndroScope scenario on a Nexus 5X, written by the trace writer (ART,
 * dual clock) and read back by the reader, as `jankbook import` reads a pulled trace.
 */
function traceRun(app: string, scenario: () => TraceScenario): (dir: string) => Promise<void> {
  return async (dir) => {
    const runId = dir.split("/").pop()!;
    const s = scenario();
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
    const d = PROFILES["nexus-5x"]!;
    const manifest = newManifest(
      runId,
      {
        app,
        app_version: "1.0",
        scenario: s.truth.case,
        ...profileContext(d),
      },
      {
        synthetic: true,
        created_by: "jankbook samples/cases.ts",
        started_at: "2026-11-02T11:00:00.000Z",
        clock: { domain: "method trace wall clock", offset_ns: 0, note: "ns since tracing began" },
        sources: [
          {
            kind: "method-trace",
            origin: "collectors/simulator/scenarios-androscope.ts (generated, written and read back)",
            tables: ["methods", "threads", "method_events", "calls"],
          },
        ],
      },
    );
    await writeBundleFolder(dir, manifest, tables);
    await writeFile(
      join(dir, "ground_truth.json"),
      JSON.stringify({ run_id: runId, cases: [s.truth] }, null, 2) + "\n",
    );
  };
}

export function caseDevice(name: string): DeviceProfile {
  const d = PROFILES[name] ?? OLD_DEVICES[name];
  if (!d) throw new Error(`samples/cases.ts: unknown device ${name}`);
  return d;
}

/** Writes every run of `runs` into `out`, one phone at a time (byte-identical bundles, see generate.ts). */
export async function generateCaseRuns(out: string, runs: readonly CaseRun[] = CASE_RUNS): Promise<string[]> {
  await promisify(execFile)("adb", ["start-server"]);
  await mkdir(out, { recursive: true });
  const done: string[] = [];
  for (const r of runs) {
    if ("generate" in r) {
      await rm(join(out, r.run), { recursive: true, force: true });
      await r.generate(join(out, r.run));
      done.push(r.run);
      continue;
    }
    const at = CASE_RUNS.findIndex((x) => x.run === r.run);
    const startedAt = new Date(Date.UTC(2026, 10, 2, 9, 0, Math.max(0, at))).toISOString();
    const batch = [
      {
        runId: r.run,
        profile: caseDevice(r.device),
        scenario: r.scenario,
        seed: r.seed,
        viewHooks: r.viewHooks ?? true,
        startedAt,
        // framestats needs API 23: an older phone's run has no frames and says so
        allowIncomplete: caseDevice(r.device).api_level < 23,
      },
    ];
    done.push(...(await collectBatch(batch, out, FIRST_PORT)));
  }
  for (const run of done) await formatJson(join(out, run));
  return done;
}

/** The run's JSON files as `prettier --write` leaves them, so the tree stays prettier-clean. */
async function formatJson(dir: string): Promise<void> {
  for (const name of await readdir(dir))
    if (name.endsWith(".json")) {
      const text = await readFile(join(dir, name), "utf8");
      await writeFile(join(dir, name), await format(text, { parser: "json", printWidth: 110 }));
    }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.argv.slice(2);
  const runs = only.length ? CASE_RUNS.filter((r) => only.some((o) => r.run.startsWith(o))) : CASE_RUNS;
  const written = await generateCaseRuns(CASES_DIR, runs);
  if (!only.length)
    for (const e of await readdir(CASES_DIR, { withFileTypes: true }))
      if (e.isDirectory() && !written.includes(e.name))
        await rm(join(CASES_DIR, e.name), { recursive: true, force: true });
  process.stdout.write(`wrote ${written.length} case runs to ${CASES_DIR}\n`);
}
