// One simulated run in process, for the accuracy bench: the scenario's model (with its noise) turned into the
// tables a collected bundle would hold, through the collector's own table builders (collectors/bundle-tables.ts),
// without a phone, adb or polling: thousands of runs in seconds. Frames carry what the jank rules read.
import type { Table } from "apache-arrow";
import { agentTables, framesTable } from "../../collectors/bundle-tables";
import { AgentLineReader } from "../../collectors/sources/agent-lines";
import type { DeviceProfile } from "../../collectors/simulator/device-profiles";
import type { ScenarioNoise } from "../../collectors/simulator/scenario-parts";
import { buildScenario, type GroundTruth, type ScenarioName } from "../../collectors/simulator/scenarios";

export interface SimRun {
  runId: string;
  truth: GroundTruth;
  frames: Table;
  uiEvents: Table | undefined;
  renderOps: Table | undefined;
}

/** CLOCK_MONOTONIC at the scenario's start, as the simulated phone's default (an hour after boot). */
const BASE = 3_600_000_000_000n;

export function simulateRun(
  runId: string,
  scenario: ScenarioName,
  device: DeviceProfile,
  seed: number,
  noise: ScenarioNoise = {},
  viewHooks = true,
): SimRun {
  const { sim, truth } = buildScenario(scenario, device, seed, viewHooks, noise);
  const abs = (x: number) => BASE + BigInt(Math.round(x));
  const frames = framesTable(
    runId,
    sim.frames.map((f, i) => ({
      window: f.window,
      line: i + 1,
      values: {
        intended_vsync: abs(f.intended),
        vsync: abs(f.vsync),
        draw_start: abs(f.draw_start),
        sync_queued: abs(f.sync_queued),
        swap_buffers: abs(f.swap),
        frame_completed: abs(f.completed),
      },
    })),
    device.refresh_hz,
  ).table;
  // The reader's own empty data, filled with the records as it would have read them from the agent's lines.
  const data = new AgentLineReader().data;
  for (const l of sim.log) {
    const r = l.record;
    if (typeof r === "string") continue;
    if (r.type === "input")
      data.uiEvents.push({ ts: BASE + r.ts, kind: r.kind, target: r.target ?? null, source: r.source });
    else if (r.type === "op") {
      const { type: _, ...op } = r;
      data.renderOps.push({ ...op, start: BASE + op.start });
    }
  }
  const t = agentTables(runId, data);
  return { runId, truth, frames, uiEvents: t.ui_events, renderOps: t.render_ops };
}
