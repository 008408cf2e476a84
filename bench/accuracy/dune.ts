// DUNE's accuracy family (issue 20, "What to build" 5): per-event precision and recall against the injected
// regressions (§8.4, Table 3: the paper's 0.53 precision and 0.83 recall per event, ExoPlayer), over many seeded
// device labs and noise levels. A lab: every device runs the app's test scenario `rounds` times (the history,
// §7.4), then once more in the new context (upgraded OS, or the next app version); each new run is labelled
// against the history (§5.3: similarity cluster, IQR per UI-event bucket), and the buckets labelled Outlier−
// are scored against the buckets the scenario regressed. The healthy counterpart (the new context without the
// regression) is labelled too: its flagged buckets are false alarms, counted per run.
import { deviationLabels, regressedEvents, type RunWithContext } from "../../cells/dune/deviation-labels";
import { eventPrecisionRecall } from "../../cells/dune/event-precision-recall";
import { frameMetrics, toRunMetrics } from "../../cells/dune/frame-metrics";
import { PROFILES, upgraded, type DeviceProfile } from "../../collectors/simulator/device-profiles";
import type { ScenarioName } from "../../collectors/simulator/scenarios";
import { distribution, type AccuracyRow, type NoiseLevel } from "./distribution";
import { simulateRun, type SimRun } from "./sim-run";

export interface DuneFamily {
  name: string;
  history: ScenarioName;
  regressed: ScenarioName;
  healthy: ScenarioName;
  /** the new context is an OS upgrade (else a new app version, which the scenario's app carries) */
  upgrade: boolean;
  /** the buckets the regressed run's scenario regressed */
  truth(run: SimRun): number[];
}

const fromTruth = (key: string) => (run: SimRun) =>
  (run.truth.cases[0]?.culprit[key] as number[] | undefined) ?? [];

export const DUNE_FAMILIES: DuneFamily[] = [
  {
    name: "dune-exoplayer",
    history: "exoplayer",
    regressed: "exoplayer-injected",
    healthy: "exoplayer-next",
    upgrade: false,
    truth: fromTruth("janky_events"),
  },
  {
    name: "dune-spaceblaster",
    history: "spaceblaster",
    regressed: "spaceblaster-regressed",
    healthy: "spaceblaster",
    upgrade: true,
    truth: fromTruth("regressed_events"),
  },
  // K-9's scenario (scenarios.ts) takes no noise options: only the seeds and the lab's devices vary.
  {
    name: "dune-k9",
    history: "k9",
    regressed: "k9-regressed",
    healthy: "k9",
    upgrade: true,
    // K-9's scenario records no bucket numbers: the events that open a message (§8.1)
    truth: (run) => {
      const t = run.uiEvents?.getChild("target");
      const out: number[] = [];
      for (let i = 0; i < (run.uiEvents?.numRows ?? 0); i++)
        if (t?.get(i) === "message_list_item") out.push(i + 1);
      return out;
    },
  },
];

/** The lab's phones and the release each is upgraded to (the four of `npm run sample-data`, then two more). */
const LAB: [DeviceProfile, DeviceProfile][] = [
  [PROFILES["nexus-5x"]!, upgraded(PROFILES["nexus-5x"]!, "7.0", 24)],
  [PROFILES["pixel-2"]!, upgraded(PROFILES["pixel-2"]!, "10", 29)],
  [PROFILES["pixel-4a"]!, upgraded(PROFILES["pixel-4a"]!, "12", 31)],
  [PROFILES["galaxy-s21"]!, upgraded(PROFILES["galaxy-s21"]!, "13", 33)],
  [PROFILES["pixel-7"]!, upgraded(PROFILES["pixel-7"]!, "15", 35)],
  [PROFILES["pixel-8"]!, upgraded(PROFILES["pixel-8"]!, "17", 37)],
];

export const DUNE_NOISE: NoiseLevel[] = [
  { name: "clean", devices: 4, noise: {} },
  { name: "busy", devices: 4, noise: { backgroundLoad: 0.05, extraEvents: 4 } },
  { name: "busier, 6 devices", devices: 6, noise: { backgroundLoad: 0.15, extraEvents: 8 } },
];

/** The similarity dimensions of notebooks/triage.md: every history run of the scenario is in cluster 0. */
const DIMENSIONS = ["app_version", "scenario", "cpu_abi", "refresh_hz"];

function withContext(run: SimRun, device: DeviceProfile): RunWithContext {
  const [m] = frameMetrics(run.frames, { uiEvents: run.uiEvents });
  return {
    context: {
      app_version: run.truth.app_version,
      scenario: run.truth.scenario.replace(/-(regressed|injected|next)$/, ""),
      cpu_abi: device.cpu_abi,
      refresh_hz: String(device.refresh_hz),
      device_model: device.model,
      sdk_release: device.sdk_release,
    },
    metrics: toRunMetrics(m!),
  };
}

export interface LabOutcome {
  precision: number[];
  recall: number[];
  coarseRegressed: number;
  targets: number;
  healthyFlagged: number[];
}

/** One seeded lab of a family at a noise level. */
export function duneLab(f: DuneFamily, seed: number, level: NoiseLevel, rounds = 2): LabOutcome {
  const lab = LAB.slice(0, level.devices);
  const history: RunWithContext[] = [];
  lab.forEach(([before], d) => {
    for (let r = 0; r < rounds; r++) {
      const run = simulateRun(`h${d}r${r}`, f.history, before, seed * 1000 + d * 10 + r, level.noise, false);
      history.push(withContext(run, before));
    }
  });
  const out: LabOutcome = { precision: [], recall: [], coarseRegressed: 0, targets: 0, healthyFlagged: [] };
  lab.forEach(([before, after], d) => {
    const device = f.upgrade ? after : before;
    const s = seed * 1000 + d * 10 + 9;
    const bad = simulateRun(`n${d}`, f.regressed, device, s, level.noise, false);
    const labels = deviationLabels(withContext(bad, device), history, { dimensions: DIMENSIONS });
    const pr = eventPrecisionRecall(regressedEvents(labels), f.truth(bad));
    out.precision.push(pr.precision);
    out.recall.push(pr.recall);
    out.targets++;
    if (labels.coarse.label === "Outlier-") out.coarseRegressed++;
    const good = simulateRun(`g${d}`, f.healthy, device, s, level.noise, false);
    out.healthyFlagged.push(
      regressedEvents(deviationLabels(withContext(good, device), history, { dimensions: DIMENSIONS })).length,
    );
  });
  return out;
}

/** Per family and noise level: the distributions over `seeds` labs × the lab's new runs. */
export function duneAccuracy(seeds = 10, levels = DUNE_NOISE, families = DUNE_FAMILIES): AccuracyRow[] {
  const rows: AccuracyRow[] = [];
  for (const f of families)
    for (const level of levels) {
      const all: LabOutcome[] = [];
      for (let s = 1; s <= seeds; s++) all.push(duneLab(f, s, level));
      const flat = (k: "precision" | "recall" | "healthyFlagged") => all.flatMap((o) => o[k]);
      const coarse = all.map((o) => o.coarseRegressed / o.targets);
      const base = { family: f.name, noise: level.name };
      rows.push(
        { ...base, ...distribution("per-event precision", flat("precision")), paper: 0.53, better: "higher" },
        { ...base, ...distribution("per-event recall", flat("recall")), paper: 0.83, better: "higher" },
        {
          ...base,
          ...distribution("share of new runs labelled Outlier-", coarse),
          paper: 1,
          better: "higher",
        },
        {
          ...base,
          ...distribution("events flagged on a healthy new run", flat("healthyFlagged")),
          better: "lower",
        },
      );
    }
  return rows;
}

// `npx tsx bench/accuracy/dune.ts [seeds]` prints the table.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { formatAccuracy } = await import("./distribution");
  process.stdout.write(formatAccuracy(duneAccuracy(Number(process.argv[2] ?? 10))) + "\n");
}
