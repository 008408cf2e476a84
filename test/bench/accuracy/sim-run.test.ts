// The accuracy bench's in-process runs (bench/accuracy/sim-run.ts) against the simulated phone that the
// collector reads (collectors/simulator/phone.ts): the same frames as framestats prints them, the same UI events
// and render operations as the agent logs them; and the bench's helpers on values worked out by hand.
import { describe, expect, it } from "vitest";
import { distribution, scenarioNoise } from "../../../bench/accuracy/distribution";
import { culpritRank } from "../../../bench/accuracy/draw";
import { simulateRun } from "../../../bench/accuracy/sim-run";
import { PROFILES } from "../../../collectors/simulator/device-profiles";
import { SimulatedPhone } from "../../../collectors/simulator/phone";

const BASE = 3_600_000_000_000n;

describe("simulateRun", () => {
  it("has the frames the phone prints in framestats, one row each, with duration and jank", () => {
    const profile = PROFILES["galaxy-s21"]!;
    const phone = new SimulatedPhone({ profile, scenario: "exoplayer-injected", seed: 21 });
    const run = simulateRun("r", "exoplayer-injected", profile, 21, {}, false);
    const expected = phone.expectedFrames();
    const iv = run.frames.getChild("intended_vsync")!.toArray() as BigInt64Array;
    const dur = run.frames.getChild("duration")!.toArray() as BigInt64Array;
    const jank = run.frames.getChild("jank")!;
    expect(run.frames.numRows).toBe(expected.length);
    const shift = BigInt(phone.base) - BASE;
    expected.forEach((f, i) => {
      expect(iv[i]! + shift).toBe(f.intended_vsync);
      expect(dur[i]).toBe(f.frame_completed! - f.intended_vsync!);
      // one 60 Hz period is the deadline where framestats has no FrameDeadline (API 31 prints one: same value)
      expect(jank.get(i)).toBe(dur[i]! > 16_666_667n);
    });
    phone.close();
  });

  it("has one UI event per input the agent logs, numbered in time order", () => {
    const run = simulateRun("r", "exoplayer", PROFILES["pixel-4a"]!, 3, {}, false);
    expect(run.uiEvents!.numRows).toBe(20);
    expect(Array.from(run.uiEvents!.getChild("seq")!.toArray() as Int32Array)).toEqual([...Array(20).keys()]);
    expect(run.renderOps).toBeUndefined(); // no View hooks
    expect(simulateRun("r", "faceq", PROFILES["pixel-4a"]!, 3).renderOps!.numRows).toBe(
      simulateRun("r", "faceq", PROFILES["pixel-4a"]!, 3).truth.counts.render_ops,
    );
  });
});

describe("accuracy helpers", () => {
  it("culpritRank is 1-based, takes the first culprit listed, Infinity when none is", () => {
    expect(culpritRank([7, 3, 9, 4], [9, 4])).toBe(3);
    expect(culpritRank([7, 3], [5])).toBe(Infinity);
  });

  it("distribution counts undefined values apart; quantiles interpolate (type 7)", () => {
    const d = distribution("x", [1, 2, NaN, 3, 4]);
    expect([d.n, d.undefined, d.mean, d.median, d.min, d.max]).toEqual([4, 1, 2.5, 2.5, 1, 4]);
    // p10 of 1..4: h = 0.3, 1 + 0.3 × (2 − 1)
    expect(d.p10).toBeCloseTo(1.3, 12);
  });

  it("scenarioNoise maps family.ts's levels onto the simulator's", () => {
    expect(scenarioNoise({ name: "high", extra: 6, load: 0.5, devices: [] })).toEqual({
      extraEvents: 12,
      backgroundLoad: 0.125,
    });
  });
});
