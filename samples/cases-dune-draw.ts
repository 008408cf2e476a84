// The runs of DUNE's and DRAW's case notebooks (notebooks/cases/dune-*.md, draw-*.md), seeded: CASES lists one
// entry per run, grouped by case, each with the run id, scenario, device and seed. Each run is the scenario's
// model turned into bundle tables through the collector's table builders (bench/accuracy/sim-run.ts), with the
// device context a lab records and the scenario's ground truth beside it: no phone, so a lab of 48 DUNE runs
// takes seconds. DUNE_DRAW_CASE_RUNS has them as samples/cases.ts's generated runs ({run, generate(dir)});
// `npx tsx samples/cases-dune-draw.ts` rewrites notebooks/cases/runs/ for these entries only.
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { newManifest } from "../bundle/manifest";
import { writeBundleFolder } from "../bundle/node-io";
import { PROFILES, upgraded, type DeviceProfile } from "../collectors/simulator/device-profiles";
import type { ScenarioName } from "../collectors/simulator/scenarios";
import { simulateRun } from "../bench/accuracy/sim-run";
import { profileContext } from "./profile-context";

export interface CaseRun {
  /** the notebook it belongs to (notebooks/cases/<case>.md) */
  case: string;
  runId: string;
  scenario: ScenarioName;
  profile: DeviceProfile;
  seed: number;
  /** the test scenario a device lab records for the run (DUNE's "same scenario" context, §5.3) */
  test: string;
  /** false: a healthy counterpart's run (listed under the notebook's `healthy:`) */
  inCase: boolean;
  /** false: run without the agent's View hooks (DUNE needs frames and events only) */
  viewHooks: boolean;
  startedAt: string;
}

const day = (d: number, h: number) => new Date(Date.UTC(2026, 9, 1 + d, h)).toISOString();
const LAB: [string, DeviceProfile, DeviceProfile][] = [
  ["nexus-5x", PROFILES["nexus-5x"]!, upgraded(PROFILES["nexus-5x"]!, "7.0", 24)],
  ["pixel-2", PROFILES["pixel-2"]!, upgraded(PROFILES["pixel-2"]!, "10", 29)],
  ["pixel-4a", PROFILES["pixel-4a"]!, upgraded(PROFILES["pixel-4a"]!, "12", 31)],
  ["galaxy-s21", PROFILES["galaxy-s21"]!, upgraded(PROFILES["galaxy-s21"]!, "13", 33)],
];

/** DUNE §7.4: the lab runs the test twice on every phone (the history), then once in the new context. */
function duneLab(
  name: string,
  test: string,
  history: ScenarioName,
  regressed: ScenarioName,
  healthy: ScenarioName,
  newContext: "upgrade" | "version",
  seed: number,
): CaseRun[] {
  const out: CaseRun[] = [];
  const base = { case: `dune-${name}`, test, viewHooks: false };
  const id = `dune-${name}`;
  LAB.forEach(([dev, before, after], i) => {
    for (let r = 0; r < 2; r++) {
      const common = { ...base, profile: before, startedAt: day(r * 7, 9 + i) };
      out.push({
        ...common,
        runId: `${id}-${dev}-r${r + 1}`,
        scenario: history,
        seed: seed + r * 10 + i,
        inCase: true,
      });
    }
    const profile = newContext === "upgrade" ? after : before;
    const tag = newContext === "upgrade" ? `android${after.sdk_release}` : "next";
    const common = { ...base, profile, seed: seed + 50 + i, startedAt: day(21, 9 + i) };
    out.push({ ...common, runId: `${id}-${dev}-${tag}`, scenario: regressed, inCase: true });
    out.push({ ...common, runId: `${id}-${dev}-${tag}-healthy`, scenario: healthy, inCase: false });
  });
  return out;
}

/**
 * Recordings a side of a case gets when its finding rests on a few tasks, calls or UI-event buckets a recording:
 * its buggy and healthy runs are each recorded this many times (other seeds), so that comparing them is a test
 * over runs, 8 against 8 (docs/compare.md, "The case runs"). The first recording keeps the run's plain name.
 */
export const RECORDINGS = 8;
/** The name and seed of a run's k-th recording (k from 1). */
export const recording = (run: string, seed: number, k: number) =>
  k === 1 ? { run, seed } : { run: `${run}-r${k}`, seed: seed + 1000 * (k - 1) };

/** DRAW: one run of the case (on several phones for case 4, §VI-D) and one of its fix, each `recordings` times. */
function drawCase(
  n: number,
  name: string,
  scenario: ScenarioName,
  devices: string[],
  seed: number,
  recordings = 1,
): CaseRun[] {
  return devices.flatMap((dev, i) =>
    Array.from({ length: recordings }, (_, k) =>
      [false, true].map((fixed) => {
        const r = recording(`draw-${n}-${name}-${dev}${fixed ? "-fixed" : ""}`, seed + i, k + 1);
        return {
          case: `draw-${n}-${name}`,
          runId: r.run,
          scenario: (fixed ? `${scenario}-fixed` : scenario) as ScenarioName,
          profile: PROFILES[dev]!,
          seed: r.seed,
          test: scenario,
          inCase: !fixed,
          viewHooks: true,
          startedAt: day(30 + k, 10 + i),
        };
      }),
    ).flat(),
  );
}

export const CASES: CaseRun[] = [
  ...duneLab("k9", "k9-open-messages", "k9", "k9-regressed", "k9", "upgrade", 300),
  ...duneLab(
    "spaceblaster",
    "spaceblaster-play",
    "spaceblaster",
    "spaceblaster-regressed",
    "spaceblaster",
    "upgrade",
    400,
  ),
  ...duneLab(
    "exoplayer",
    "exoplayer-two-videos",
    "exoplayer",
    "exoplayer-injected",
    "exoplayer-next",
    "version",
    500,
  ),
  ...drawCase(1, "faceq", "faceq", ["pixel-4a"], 600),
  ...drawCase(2, "picsplay", "picsplay", ["pixel-4a"], 610, RECORDINGS),
  ...drawCase(3, "pregnancy", "pregnancy-article", ["pixel-4a"], 620, RECORDINGS),
  ...drawCase(4, "pregnancy", "pregnancy-timeline", ["pixel-4a", "galaxy-s21", "nexus-5x"], 630),
];

/** Writes one run's bundle and ground truth into `dir` (the run's folder). */
export async function writeCaseRun(dir: string, c: CaseRun): Promise<void> {
  const run = simulateRun(c.runId, c.scenario, c.profile, c.seed, {}, c.viewHooks);
  const p = c.profile;
  const manifest = newManifest(
    c.runId,
    {
      app: run.truth.package,
      app_version: run.truth.app_version,
      scenario: c.test,
      ...profileContext(p),
      network: p.network,
      battery_level: p.battery_level,
    },
    {
      started_at: c.startedAt,
      synthetic: true,
      sources: [{ kind: "generator", origin: `samples/cases-dune-draw.ts: ${c.scenario} seed ${c.seed}` }],
    },
  );
  const tables = { frames: run.frames, ui_events: run.uiEvents, render_ops: run.renderOps };
  await writeBundleFolder(dir, manifest, Object.fromEntries(Object.entries(tables).filter(([, t]) => t)));
  await writeFile(join(dir, "ground_truth.json"), JSON.stringify(run.truth, null, 2) + "\n");
}

/** The entries in samples/cases.ts's shape for runs generated without a phone. */
export const DUNE_DRAW_CASE_RUNS = CASES.map((c) => ({
  run: c.runId,
  generate: (dir: string) => writeCaseRun(dir, c),
}));

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = new URL("../notebooks/cases/runs/", import.meta.url).pathname;
  for (const r of DUNE_DRAW_CASE_RUNS) {
    await rm(join(out, r.run), { recursive: true, force: true });
    await r.generate(join(out, r.run));
  }
  process.stdout.write(`wrote ${CASES.length} case runs to ${out}\n`);
}
