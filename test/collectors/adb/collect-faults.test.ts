// Faults during collection: the bundle keeps what was read, is marked incomplete with warnings that say
// what happened, and the frames it has are still each there once.
import { describe, expect, it } from "vitest";
import type { PhoneFaults } from "../../../collectors/simulator/phone";
import type { ScenarioName } from "../../../collectors/simulator/scenarios";
import { simulatedCollector } from "./sim-harness";

const S = 1e9;
const collect = simulatedCollector("fault");

async function collectWith(
  faults: PhoneFaults,
  port: number,
  timeoutMs = 5000,
  scenario: ScenarioName = "openlaw",
) {
  const r = await collect({
    // Twice the wall clock, not five times: a poll must come within the 120-frame ring (2 s of the device, 1 s of
    // wall time here) even when the machine is busy (at 5x, polls late by 400 ms lost frames at load 15).
    phone: { scenario, seed: 11, timeScale: 2, faults },
    collect: { scenario: "monkey:50", durationMs: 20_000 },
    port,
    timeoutMs,
  });
  const frames = r.bundle.tables.get("frames");
  const iv = frames ? Array.from(frames.getChild("intended_vsync")!.toArray() as BigInt64Array) : [];
  expect(new Set(iv).size).toBe(iv.length); // never a frame twice
  return { ...r, iv };
}

describe("collection faults", () => {
  it("the device disconnects mid-run: the frames and tasks before it are kept, bundle incomplete", async () => {
    const { res, bundle, iv, phone } = await collectWith({ disconnectAt: 3 * S }, 6721);
    expect(res.ended).toBe("disconnected");
    expect(bundle.manifest.complete).toBe(false);
    expect(
      bundle.manifest.warnings.some((w) =>
        /device 127\.0\.0\.1:6721 disconnected at .* kept what was collected before/.test(w),
      ),
    ).toBe(true);
    // what was collected is exactly the scenario's frames up to about the disconnect
    const expected = phone.expectedFrames().map((f) => f.intended_vsync!);
    expect(iv.length).toBeGreaterThan(10);
    expect(iv.length).toBeLessThan(expected.length);
    expect(iv).toEqual(expected.slice(0, iv.length));
    expect(bundle.tables.get("tasks")!.numRows).toBeGreaterThan(0);
  }, 40_000);

  it("logcat restarts: it is restarted, nothing is lost or counted twice", async () => {
    const { res, bundle, phone } = await collectWith({ logcatRestartAt: 2.5 * S }, 6722);
    expect(res.ended).toBe("scenario-finished");
    expect(bundle.manifest.warnings.some((w) => /logcat stream ended at .*restarted it/.test(w))).toBe(true);
    expect(bundle.manifest.complete).toBe(true); // re-read from the tail and de-duplicated: nothing missing
    const t = phone.groundTruth().counts;
    expect(bundle.tables.get("tasks")!.numRows).toBe(t.tasks);
    expect(bundle.tables.get("render_ops")!.numRows).toBe(t.render_ops);
    expect(bundle.tables.get("ui_events")!.numRows).toBe(t.ui_events);
    expect(phone.commands.filter((c) => c.startsWith("logcat")).length).toBe(2);
  }, 40_000);

  it('framestats answers "Failure while dumping" for a while: incomplete, with the failure named', async () => {
    // 1.2 s device (600 ms wall): longer than a poll interval, shorter than the 120-frame ring
    const { res, bundle, iv, phone } = await collectWith({ framestatsFailure: [1 * S, 2.2 * S] }, 6723);
    expect(res.ended).toBe("scenario-finished");
    expect(bundle.manifest.complete).toBe(false);
    expect(
      bundle.manifest.warnings.some((w) =>
        /framestats poll \d+ line 1: Failure while dumping the app/.test(w),
      ),
    ).toBe(true);
    // the outage is shorter than the 120-frame ring, so later polls still had every frame
    expect(iv).toEqual(phone.expectedFrames().map((f) => f.intended_vsync!));
  }, 40_000);

  it('"Failure while dumping" for longer than the 120-frame ring: the lost frames are named, the rest kept once', async () => {
    // K-9 draws about 40 frames a second: 4.5 s of failed dumps let the ring move past ~60 of them
    const { bundle, iv, phone } = await collectWith(
      { framestatsFailure: [0.5 * S, 5 * S] },
      6726,
      5000,
      "k9",
    );
    expect(bundle.manifest.complete).toBe(false);
    const all = phone.expectedFrames().map((f) => f.intended_vsync!);
    const kept = new Set(iv);
    const lost = all.filter((v) => !kept.has(v));
    expect(lost.length).toBeGreaterThan(0);
    expect(bundle.manifest.warnings).toContain(
      `framestats: ${lost.length} of the ${all.length} frames the app rendered since the reset were never seen (poll final's "Total frames rendered"); polls came too far apart or failed`,
    );
    expect(iv).toEqual(all.filter((v) => kept.has(v))); // nothing that never was, in order
    // the lost frames are one run, from the last good poll into the outage; everything after it was read
    const first = all.indexOf(lost[0]!);
    expect(lost).toEqual(all.slice(first, first + lost.length));
    expect(lost.at(-1)! < BigInt(phone.base + 5 * S)).toBe(true);
  }, 40_000);

  it("a command hangs: it times out, the rest of the run is collected", async () => {
    const { res, bundle, phone } = await collectWith({ hang: { command: /^dumpsys battery/ } }, 6724, 1000);
    expect(res.ended).toBe("scenario-finished");
    expect(bundle.manifest.complete).toBe(false);
    expect(bundle.manifest.warnings).toContain(
      'dumpsys battery: "dumpsys battery" did not answer within 1.0 s; skipped',
    );
    expect(bundle.manifest.context.battery_level).toBeNull();
    expect(bundle.tables.get("frames")!.numRows).toBe(phone.groundTruth().counts.frames);
  }, 40_000);

  it("a poll hangs once: that poll times out and the frames still arrive through later polls", async () => {
    const { bundle, iv, phone } = await collectWith(
      { hang: { command: /framestats$/, times: 1 } },
      6725,
      1000,
    );
    expect(
      bundle.manifest.warnings.some((w) => /framestats poll 1: .*did not answer within 1\.0 s/.test(w)),
    ).toBe(true);
    expect(iv).toEqual(phone.expectedFrames().map((f) => f.intended_vsync!));
  }, 40_000);
});
