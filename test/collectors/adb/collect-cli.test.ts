// `jankbook collect` as a user runs it: a child process on a private adb server with simulated phones.
// Exit codes and messages for bad options and missing devices or packages, Ctrl-C mid-run, a device lab
// (--all-devices), a fault's message, and the progress line. Each test's timeout is a hang guard for CLIs started
// from sources on a loaded 2-core machine, not a measure of speed.
import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { readBundleFolder } from "../../../bundle/node-io";
import { main } from "../../../cli/main";
import { PROFILES } from "../../../collectors/simulator/device-profiles";
import type { PhoneOptions, SimulatedPhone } from "../../../collectors/simulator/phone";
import { attachPhone, detachPhone, startAdbOn, stopAdb } from "./sim-harness";

const ADB = 5141;
const S = 1e9;
const PKG = "org.jankbook.sample";
let phones: SimulatedPhone[] = [];
let out = "";

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI; `whileRunning` gets the child (to send it a signal) once it has started. */
function jankbook(
  args: string[],
  whileRunning?: (kill: (sig: NodeJS.Signals) => void) => void,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["cli/jankbook.js", "collect", "--adb-port", String(ADB), ...args],
      {
        cwd: process.cwd(),
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, JANKBOOK_FROM_SOURCES: "1" }, // the sources, as tests run them
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    whileRunning?.((sig) => child.kill(sig));
  });
}

/** Command-line options from `{ name: value }` in the order given; `true` stands for a flag with no value. */
const options = (o: Record<string, string | true>): string[] =>
  Object.entries(o).flatMap(([name, value]) => (value === true ? [`--${name}`] : [`--${name}`, value]));

/** The same command in this process (quicker for the option checks): exit code and stderr. */
async function jankbookHere(args: string[]): Promise<Run> {
  const write = process.stderr.write;
  let stderr = "";
  process.stderr.write = ((s: string) => ((stderr += s), true)) as typeof process.stderr.write;
  try {
    const code = await main(["node", "jankbook", "collect", "--adb-port", String(ADB), ...args]);
    return { code, stdout: "", stderr };
  } finally {
    process.stderr.write = write;
  }
}

// The phones run 5x faster than the wall clock: a framestats dump holds every frame (not the last 120), so polls
// that a loaded machine delays lose no frame and a bundle still matches its phone (late polls: collect-faults).
async function attach(options: Partial<PhoneOptions>, port: number): Promise<SimulatedPhone> {
  const { phone } = await attachPhone(
    {
      profile: PROFILES["pixel-4a"]!,
      scenario: "openlaw",
      seed: 11,
      timeScale: 5,
      framestatsRing: 1_000_000,
      ...options,
    },
    port,
    5000,
    ADB,
  );
  phones.push(phone);
  return phone;
}

async function until(cond: () => boolean, what: string, ms = 30_000) {
  for (const t0 = Date.now(); !cond(); await new Promise((r) => setTimeout(r, 20)))
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
}

beforeAll(async () => {
  await startAdbOn(ADB);
});
afterAll(async () => {
  await stopAdb(ADB);
});
afterEach(async () => {
  for (const p of phones) await detachPhone(p, ADB);
  phones = [];
  if (out) await rm(out, { recursive: true, force: true });
  out = "";
});

const bundles = async () => (await readdir(out).catch(() => [])).sort();

describe("jankbook collect: options and devices", () => {
  it("no device online: exit 1, says so and how to get one", async () => {
    out = await mkdtemp(join(tmpdir(), "jankbook-cli-"));
    const r = await jankbook(["--package", PKG, "--out", out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "jankbook: no device online (adb devices lists none); plug in a phone with USB debugging on, or start a simulated one with `jankbook simulate`\n",
    );
    expect(await bundles()).toEqual([]);
  }, 180_000);

  it("bad --duration, --scenario, --poll, --package, or both --serial and --all-devices: exit 1 before touching a device", async () => {
    const phone = await attach({}, 6741);
    out = await mkdtemp(join(tmpdir(), "jankbook-cli-"));
    const cases: [string[], string][] = [
      [
        ["--duration", "fast"],
        "jankbook: --duration fast: expected a positive time, e.g. 120s, 2m or 500ms\n",
      ],
      [["--duration", "0s"], "jankbook: --duration 0s: expected a positive time, e.g. 120s, 2m or 500ms\n"],
      [["--scenario", "monkey:lots"], "jankbook: --scenario monkey:lots: monkey needs a number of events\n"],
      [
        ["--scenario", "replay"],
        "jankbook: --scenario replay: expected monkey:<events>, instrument:<runner> or manual\n",
      ],
      [["--poll", "-5"], "jankbook: --poll -5: expected a positive whole number\n"],
      [
        ["--meminfo-interval", "often"],
        "jankbook: --meminfo-interval often: expected a positive time, e.g. 120s, 2m or 500ms\n",
      ],
      [["--serial", phone.serial, "--all-devices"], "jankbook: --serial and --all-devices: choose one\n"],
    ];
    for (const [args, message] of cases) {
      const r = await jankbookHere(["--package", PKG, "--out", out, ...args]);
      expect([r.code, r.stderr]).toEqual([1, message]);
    }
    const bad = await jankbook(["--package", "sample", "--out", out]); // and once as its own process
    expect([bad.code, bad.stderr]).toEqual([
      1,
      "jankbook: --package sample: expected an application id like com.example.app\n",
    ]);
    expect(phone.commands).toEqual([]);
    expect(await bundles()).toEqual([]);
  }, 180_000);

  it("unknown serial, several devices without --serial, package not installed: exit 1, no bundle", async () => {
    const a = await attach({}, 6742);
    const b = await attach({ seed: 12 }, 6743);
    out = await mkdtemp(join(tmpdir(), "jankbook-cli-"));
    const unknown = await jankbook(["--package", PKG, "--serial", "127.0.0.1:6999", "--out", out]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(
      /^jankbook: device 127\.0\.0\.1:6999 not found; adb devices lists (127\.0\.0\.1:674[23] \(device\)(, )?){2}\n$/,
    );
    const several = await jankbook(["--package", PKG, "--out", out]);
    expect(several.code).toBe(1);
    expect(several.stderr).toMatch(
      /several devices online \(.*127\.0\.0\.1:6742.*\): pick one with --serial or use --all-devices/,
    );
    const missing = await jankbook(
      options({ package: "com.example.missing", serial: a.serial, scenario: "monkey:10", out }),
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      `jankbook collect: ${a.serial}: package com.example.missing is not installed on ${a.serial} (pm path printed nothing) (no bundle written)\n`,
    );
    expect(a.commands).toContain("pm path com.example.missing");
    expect(a.commands.some((c) => c.startsWith("monkey") || c.startsWith("logcat"))).toBe(false);
    expect(b.commands).toEqual([]);
    expect(await bundles()).toEqual([]);
  }, 180_000);
});

describe("jankbook collect: runs", () => {
  it("--all-devices: one bundle per device, collected at the same time, each matching its phone", async () => {
    const a = await attach({ seed: 21 }, 6744);
    const b = await attach({ seed: 22, profile: PROFILES["galaxy-s21"]! }, 6745);
    const c = await attach({ seed: 23 }, 6746); // same model as a: the serial keeps the run ids apart
    // At the same time by construction, not by the clock: no phone's scenario starts until all three have been
    // told to start it, so a collector that took the phones one after another would find no frames on the first.
    const starts = new Map<SimulatedPhone, () => void>();
    const told = new Set<SimulatedPhone>();
    for (const p of [a, b, c]) {
      starts.set(p, p.startScenario.bind(p));
      p.startScenario = () => {
        told.add(p);
        if (told.size === 3) for (const q of told) starts.get(q)!();
      };
    }
    out = await mkdtemp(join(tmpdir(), "jankbook-cli-"));
    const r = await jankbook(
      options({
        package: PKG,
        "all-devices": true,
        scenario: "monkey:50",
        poll: "150",
        duration: "30s",
        "run-id": "lab",
        out,
      }),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(await bundles()).toEqual(["lab_127-0-0-1-6744", "lab_127-0-0-1-6745", "lab_127-0-0-1-6746"]);
    expect(r.stdout.trim().split("\n").length).toBe(3);
    for (const [phone, port] of [
      [a, 6744],
      [b, 6745],
      [c, 6746],
    ] as const) {
      const bundle = await readBundleFolder(join(out, `lab_127-0-0-1-${port}`));
      expect(bundle.errors).toEqual([]);
      expect(bundle.manifest.complete).toBe(true);
      expect(phone.started).toBe(true);
      expect(bundle.manifest.context.device_model).toBe(phone.options.profile.model);
      const iv = Array.from(
        bundle.tables.get("frames")!.getChild("intended_vsync")!.toArray() as BigInt64Array,
      );
      expect(iv.length).toBeGreaterThan(0);
      expect(iv).toEqual(phone.expectedFrames().map((f) => f.intended_vsync));
      expect(bundle.tables.get("tasks")!.numRows).toBe(phone.groundTruth().counts.tasks);
    }
    // In parallel: every phone's scenario was started before any phone's collection ended (in the order the
    // phones saw the commands, which the start barrier above makes independent of the machine's load).
    const span = (p: SimulatedPhone): [number, number] => [
      p.commandTimes[p.commands.findIndex((x) => x.startsWith("monkey"))]!,
      p.commandTimes.at(-1)!,
    ];
    const spans = [a, b, c].map(span);
    for (const [start] of spans) for (const [, end] of spans) expect(start).toBeLessThanOrEqual(end);
  }, 180_000);

  it("Ctrl-C mid-run: exit 130, a valid bundle with what was collected, marked incomplete", async () => {
    const phone = await attach({ scenario: "paper-cases", timeScale: 1 }, 6747);
    out = await mkdtemp(join(tmpdir(), "jankbook-cli-"));
    let stoppedAt = 0;
    const r = await jankbook(
      options({
        package: PKG,
        serial: phone.serial,
        scenario: "monkey:500",
        poll: "150",
        duration: "60s",
        "run-id": "stopped",
        out,
      }),
      (kill) => {
        void until(() => phone.elapsed() > 3 * S, "3 s of the scenario").then(() => {
          stoppedAt = phone.elapsed();
          kill("SIGINT");
        });
      },
    );
    expect(r.code).toBe(130);
    expect(r.stderr).toContain(
      "jankbook collect: Ctrl-C: stopping and writing what was collected (Ctrl-C again to quit at once)\n",
    );
    expect(r.stderr).toMatch(
      new RegExp(
        `jankbook collect: ${phone.serial.replace(/\./g, "\\.")}: interrupted; the bundle keeps what was collected:\n  - interrupted \\(Ctrl-C\\) after \\d+\\.\\d s, before the scenario ended\n`,
      ),
    );
    expect(r.stdout).toMatch(/stopped: frames \d+, .*\[incomplete\]\n$/);
    // the live progress line went to stderr (not a terminal: printed, not rewritten)
    expect(r.stderr).toMatch(
      new RegExp(
        `^${phone.serial.replace(/\./g, "\\.")} 0:0\\d frames \\d+ tasks \\d+ events \\d+ 0 warnings$`,
        "m",
      ),
    );

    const bundle = await readBundleFolder(join(out, "stopped"));
    expect(bundle.errors).toEqual([]);
    expect(bundle.manifest.complete).toBe(false);
    const iv = Array.from(
      bundle.tables.get("frames")!.getChild("intended_vsync")!.toArray() as BigInt64Array,
    );
    const expected = phone.expectedFrames();
    // every frame finished before the Ctrl-C is there, once, and nothing the phone had not yet drawn
    const doneBefore = phone.timeline.sim.frames.filter((f) => f.completed <= stoppedAt).length;
    expect(iv.length).toBeGreaterThanOrEqual(doneBefore);
    // it stopped instead of waiting for the 24 s scenario: frames the phone went on to draw are missing
    expect(iv.length).toBeLessThan(expected.length);
    expect(iv).toEqual(expected.slice(0, iv.length).map((f) => f.intended_vsync));
    expect(bundle.tables.get("tasks")!.numRows).toBeGreaterThan(0);
  }, 180_000);

  it("Ctrl-C with --scenario manual ends the run normally: exit 0, complete", async () => {
    const phone = await attach({ startOn: "reset" }, 6748);
    out = await mkdtemp(join(tmpdir(), "jankbook-cli-"));
    const r = await jankbook(
      options({ package: PKG, serial: phone.serial, poll: "150", duration: "60s", "run-id": "manual", out }),
      (kill) => {
        void until(() => phone.elapsed() > 2 * S, "2 s of the scenario").then(() => kill("SIGINT"));
      },
    );
    expect(r.code).toBe(0);
    const bundle = await readBundleFolder(join(out, "manual"));
    expect(bundle.manifest.complete).toBe(true);
    expect(bundle.manifest.warnings.some((w) => /^stopped by the user after \d+\.\d s$/.test(w))).toBe(true);
    expect(bundle.tables.get("frames")!.numRows).toBeGreaterThan(0);
  }, 180_000);

  it("Ctrl-C with --scenario manual on an app that drew nothing: exit 2 (incomplete, no frames), not 130", async () => {
    const phone = await attach({ startOn: "reset", rendersNothing: true }, 6753);
    out = await mkdtemp(join(tmpdir(), "jankbook-cli-"));
    const r = await jankbook(
      options({ package: PKG, serial: phone.serial, poll: "150", duration: "60s", "run-id": "idle", out }),
      (kill) => {
        void until(() => phone.elapsed() > 2 * S, "2 s of the run").then(() => kill("SIGINT"));
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "collection incomplete (stopped by the user); the bundle keeps what was collected",
    );
    const bundle = await readBundleFolder(join(out, "idle"));
    expect(bundle.manifest.complete).toBe(false);
  }, 90_000);

  it("a fault (the device disconnects): exit 2, the bundle is written and the warning printed", async () => {
    // The phone goes once a framestats poll has read its first 2 s (a state, not a time: on a loaded machine the
    // collector is slow to get there, and a phone gone before any poll leaves no frames to keep). The 24 s
    // scenario at real time is still running then.
    const phone = await attach({ scenario: "paper-cases", timeScale: 1 }, 6749);
    out = await mkdtemp(join(tmpdir(), "jankbook-cli-"));
    const polls = () => phone.commands.filter((c) => c.endsWith("framestats")).length;
    const r = await jankbook(
      options({
        package: PKG,
        serial: phone.serial,
        scenario: "monkey:50",
        poll: "150",
        "run-id": "cut",
        out,
      }),
      () => {
        void until(() => phone.elapsed() > 2 * S, "2 s of the scenario", 150_000)
          .then(() => {
            const seen = polls();
            return until(() => polls() > seen, "a framestats poll after 2 s", 150_000);
          })
          .then(() => (phone.options.faults = { disconnectAt: 0 }));
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `jankbook collect: ${phone.serial.replace(/\./g, "\\.")}: collection incomplete \\(disconnected\\); the bundle keeps what was collected:\n  - device ${phone.serial.replace(/\./g, "\\.")} disconnected at`,
      ),
    );
    const bundle = await readBundleFolder(join(out, "cut"));
    expect(bundle.errors).toEqual([]);
    expect(bundle.manifest.complete).toBe(false);
    expect(bundle.tables.get("frames")!.numRows).toBeGreaterThan(0);
  }, 180_000);
});
