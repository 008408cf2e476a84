// `npm run sample-data`: the bundled sample runs, collected from simulated phones through the real adb
// server and the real collector, reproducibly from the seeds below. Writes workspace/public/samples/<run_id>/
// (bundle + ground_truth.json) and index.json (the run folders the workspace loads).
import { execFile } from "node:child_process";
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { collectDevice } from "../collectors/adb/collect-device";
import { adbClient, DeviceShell } from "../collectors/adb/shell";
import { PROFILES, upgraded, type DeviceProfile } from "../collectors/simulator/device-profiles";
import { SimulatedPhone } from "../collectors/simulator/phone";
import type { ScenarioName } from "../collectors/simulator/scenarios";
import { generateMethodTraceSample } from "./method-trace-sample";
import { generateSample } from "./synthetic-feed";

const run = promisify(execFile);
/** Device seconds per wall second: 5 keeps a 20 s scenario to 4 s while 150 ms polls stay well inside the 120-frame ring. */
const TIME_SCALE = 5;
const POLL_MS = 150;
const FIRST_PORT = 6601;

export interface Planned {
  runId: string;
  profile: DeviceProfile;
  scenario: ScenarioName;
  seed: number;
  viewHooks: boolean;
  startedAt: string;
  /** a device that cannot give every table (API < 23: no framestats) leaves an incomplete run, kept */
  allowIncomplete?: boolean;
}

/** DUNE §7.4 / §8.1: a device lab runs K-9's scenario on four models; then the models get an OS upgrade. */
function plan(): Planned[][] {
  const lab: [string, DeviceProfile, DeviceProfile][] = [
    ["nexus-5x", PROFILES["nexus-5x"]!, upgraded(PROFILES["nexus-5x"]!, "7.0", 24)],
    ["pixel-2", PROFILES["pixel-2"]!, upgraded(PROFILES["pixel-2"]!, "10", 29)],
    ["pixel-4a", PROFILES["pixel-4a"]!, upgraded(PROFILES["pixel-4a"]!, "12", 31)],
    ["galaxy-s21", PROFILES["galaxy-s21"]!, upgraded(PROFILES["galaxy-s21"]!, "13", 33)],
  ];
  const day = (d: number, h: number) => new Date(Date.UTC(2026, 9, 1 + d, h)).toISOString();
  const batches: Planned[][] = [
    [
      {
        runId: "paper-cases-pixel-4a",
        profile: PROFILES["pixel-4a"]!,
        scenario: "paper-cases",
        seed: 42,
        viewHooks: true,
        startedAt: day(30, 10),
      },
    ],
  ];
  for (let round = 0; round < 4; round++) {
    const after = round === 3;
    batches.push(
      lab.map(([name, before, upgradedTo], i) => {
        const p = after ? upgradedTo : before;
        return {
          runId: `k9-${name}-android${p.sdk_release}-${after ? "upgraded" : `r${round + 1}`}`,
          profile: p,
          scenario: after ? "k9-regressed" : "k9",
          seed: 100 + round * 10 + i,
          viewHooks: false,
          startedAt: day(round * 7, 9 + i),
        };
      }),
    );
  }
  return batches;
}

export async function collectBatch(batch: Planned[], out: string, firstPort = FIRST_PORT): Promise<string[]> {
  const client = adbClient();
  const phones = batch.map(
    (p) =>
      new SimulatedPhone({
        profile: p.profile,
        scenario: p.scenario,
        seed: p.seed,
        timeScale: TIME_SCALE,
        viewHooks: p.viewHooks,
      }),
  );
  try {
    for (const [i, phone] of phones.entries()) {
      await phone.listen(firstPort + i);
      await run("adb", ["connect", phone.serial]);
    }
    for (let i = 0; i < 50; i++) {
      const online = ((await client.listDevices()) as { id: string; type: string }[])
        .filter((d) => d.type === "device")
        .map((d) => d.id);
      if (phones.every((p) => online.includes(p.serial))) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const results = await Promise.all(
      batch.map(async (p, i) => {
        const phone = phones[i]!;
        const dir = join(out, p.runId);
        await rm(dir, { recursive: true, force: true });
        const r = await collectDevice(new DeviceShell(client, phone.serial, 10_000), {
          package: phone.timeline.truth.package,
          scenario: "monkey:300",
          durationMs: 60_000,
          pollMs: POLL_MS,
          dir,
          runId: p.runId,
          startedAt: p.startedAt,
          monkeySeed: p.seed,
        });
        if (!r.manifest.complete && !p.allowIncomplete)
          throw new Error(`${p.runId}: collection incomplete: ${r.manifest.warnings.join("; ")}`);
        await phone.writeGroundTruth(dir);
        await rm(join(dir, "driver.log"), { force: true });
        process.stdout.write(
          `  ${p.runId}: ${Object.entries(r.manifest.tables)
            .map(([k, v]) => `${k} ${v.rows}`)
            .join(", ")}\n`,
        );
        return p.runId;
      }),
    );
    return results;
  } finally {
    for (const phone of phones) {
      await run("adb", ["disconnect", phone.serial]).catch(() => {});
      await phone.close();
    }
  }
}

export async function generateSamples(out: string): Promise<string[]> {
  await run("adb", ["start-server"]);
  await mkdir(out, { recursive: true });
  // Folders of earlier generations that are no longer produced go away; the synthetic run stays while
  // notebooks and tests still name it.
  const runs = [await generateSample(out)];
  // One phone at a time: Arrow JS numbers dictionaries from a process-wide counter, so bundles finished in
  // a racing order would differ in bytes (not in values) from one generation to the next.
  for (const batch of plan()) for (const one of batch) runs.push(...(await collectBatch([one], out)));
  // A run with a method trace and hardware counters (AndroScope), generated without a phone.
  runs.push(await generateMethodTraceSample(out));
  for (const entry of await readdir(out, { withFileTypes: true }))
    if (entry.isDirectory() && !runs.includes(entry.name))
      await rm(join(out, entry.name), { recursive: true, force: true });
  await writeFile(join(out, "index.json"), JSON.stringify(runs, null, 2) + "\n");
  return runs;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = new URL("../workspace/public/samples/", import.meta.url).pathname;
  const runs = await generateSamples(out);
  process.stdout.write(`wrote ${runs.length} sample runs to ${out}\n`);
}
