// DUNE's accuracy family (docs/budgets.md, "Accuracy"): per-event precision and recall against the injected
// regressions (§8.4, Table 3: the paper's 0.53 precision and 0.83 recall per event, ExoPlayer). A trial is one
// seeded device lab: the sample lab's four phones and the noise level's run the app's test scenario twice each
// (the history, §7.4), then one of the level's phones (drawn by the seed) runs it in the new context (upgraded
// OS, or the next app version). The
// new run is labelled against the history (§5.3: similarity cluster, IQR per UI-event bucket) and the buckets
// labelled Outlier− are scored against the buckets the scenario regressed. Its healthy counterpart (the new
// context without the regression) is labelled too: the buckets it flags are false alarms.
import { deviationLabels, regressedEvents, type RunWithContext } from "../../cells/dune/deviation-labels";
import { eventPrecisionRecall } from "../../cells/dune/event-precision-recall";
import { frameMetrics, toRunMetrics } from "../../cells/dune/frame-metrics";
import { PROFILES, upgraded, type DeviceProfile } from "../../collectors/simulator/device-profiles";
import type { ScenarioName } from "../../collectors/simulator/scenarios";
import { scenarioNoise, type BenchNoise, type Family } from "./distribution";
import { simulateRun, type SimRun } from "./sim-run";

interface DuneCase {
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

const CASES: Record<string, DuneCase> = {
  "dune-exoplayer": {
    history: "exoplayer",
    regressed: "exoplayer-injected",
    healthy: "exoplayer-next",
    upgrade: false,
    truth: fromTruth("janky_events"),
  },
  "dune-spaceblaster": {
    history: "spaceblaster",
    regressed: "spaceblaster-regressed",
    healthy: "spaceblaster",
    upgrade: true,
    truth: fromTruth("regressed_events"),
  },
  // K-9's scenario (scenarios.ts) takes no noise options: only the seeds and the lab's devices vary.
  "dune-k9": {
    history: "k9",
    regressed: "k9-regressed",
    healthy: "k9",
    upgrade: true,
    // its ground truth names the event, not bucket numbers: the events that open a message (§8.1)
    truth: (run) => {
      const t = run.uiEvents?.getChild("target");
      const out: number[] = [];
      for (let i = 0; i < (run.uiEvents?.numRows ?? 0); i++)
        if (t?.get(i) === "message_list_item") out.push(i + 1);
      return out;
    },
  },
};

/** The release each phone is upgraded to (the first four as in `npm run sample-data`). */
const UPGRADES: Record<string, [string, number]> = {
  "nexus-5x": ["7.0", 24],
  "pixel-2": ["10", 29],
  "pixel-4a": ["12", 31],
  "galaxy-s21": ["13", 33],
  "pixel-7": ["15", 35],
  "pixel-8": ["17", 37],
};

const LAB = ["nexus-5x", "pixel-2", "pixel-4a", "galaxy-s21"];

/** The similarity dimensions of notebooks/triage.md: every history run of the test is in cluster 0. */
const DIMENSIONS = ["app_version", "scenario", "cpu_abi", "refresh_hz"];

function withContext(run: SimRun, device: DeviceProfile): RunWithContext {
  const [m] = frameMetrics(run.frames, { uiEvents: run.uiEvents });
  return {
    context: {
      app_version: run.truth.app_version,
      scenario: run.truth.scenario.replace(/-(regressed|injected|next)$/, ""),
      cpu_abi: device.cpu_abi,
      refresh_hz: String(device.refresh_hz),
    },
    metrics: toRunMetrics(m!),
  };
}

/** One lab: precision and recall of the new run's flagged buckets, its coarse label, the healthy run's flags. */
function trial(name: string, seed: number, level: BenchNoise): Record<string, number> {
  const c = CASES[name];
  if (!c) throw new Error(`dune accuracy: unknown scenario family ${name}`);
  const noise = scenarioNoise(level);
  const history: RunWithContext[] = [];
  // A lab of one phone has no spread to judge a run by (two history runs and the new one: no IQR outlier is
  // possible), so the level's phones join the four of the sample lab.
  const lab = [...new Set([...LAB, ...level.devices])];
  lab.forEach((dev, d) => {
    for (let r = 0; r < 2; r++) {
      const run = simulateRun(
        `h${d}r${r}`,
        c.history,
        PROFILES[dev]!,
        seed * 1000 + d * 10 + r,
        noise,
        false,
      );
      history.push(withContext(run, PROFILES[dev]!));
    }
  });
  const dev = level.devices[seed % level.devices.length]!;
  const [release, api] = UPGRADES[dev]!;
  const device = c.upgrade ? upgraded(PROFILES[dev]!, release, api) : PROFILES[dev]!;
  const s = seed * 1000 + 9;
  const bad = simulateRun("new", c.regressed, device, s, noise, false);
  const labels = deviationLabels(withContext(bad, device), history, { dimensions: DIMENSIONS });
  const pr = eventPrecisionRecall(regressedEvents(labels), c.truth(bad));
  const good = simulateRun("healthy", c.healthy, device, s, noise, false);
  const healthy = deviationLabels(withContext(good, device), history, { dimensions: DIMENSIONS });
  return {
    precision: pr.precision,
    recall: pr.recall,
    "new run labelled Outlier-": labels.coarse.label === "Outlier-" ? 1 : 0,
    "buckets flagged on the healthy run": regressedEvents(healthy).length,
  };
}

export const family: Family = {
  name: "dune",
  scenarios: Object.keys(CASES),
  goals: [
    {
      metric: "precision",
      better: "higher",
      paper: 0.53,
      aim: 0.8,
      source: "DUNE §8.4 (Table 3, ExoPlayer)",
    },
    { metric: "recall", better: "higher", paper: 0.83, aim: 0.9, source: "DUNE §8.4 (Table 3, ExoPlayer)" },
    {
      metric: "new run labelled Outlier-",
      better: "higher",
      paper: 1,
      aim: 1,
      source: "DUNE §8.1 (10 of 10)",
    },
  ],
  run: trial,
};

// `npx tsx bench/accuracy/dune.ts [seeds]` prints the table.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { formatAccuracy, runFamily } = await import("./distribution");
  process.stdout.write(formatAccuracy(runFamily(family, Number(process.argv[2] ?? 10))) + "\n");
}
