// The device freezes mid-run (the simulated phone's process stopped with SIGSTOP: adb still lists it, nothing
// answers): every adb call meets its deadline, the bundle keeps what was read, and `jankbook collect` ends with
// exit 2. A hard outer timeout kills the collector, so a regression fails the test instead of hanging CI.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Socket } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBundleFolder } from "../../../bundle/node-io";
import { startAdbOn, stopAdb } from "./sim-harness";

const ADB = 5143;
const PORT = 6791;
const SERIAL = `127.0.0.1:${PORT}`;
const children: ChildProcess[] = [];
let out = "";

function jankbook(args: string[]): ChildProcess & { output: { stdout: string; stderr: string } } {
  const child = spawn(process.execPath, ["cli/jankbook.js", ...args], {
    cwd: process.cwd(),
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, JANKBOOK_FROM_SOURCES: "1" },
  }) as ChildProcess & { output: { stdout: string; stderr: string } };
  child.output = { stdout: "", stderr: "" };
  child.stdout!.on("data", (c: Buffer) => (child.output.stdout += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (child.output.stderr += c.toString()));
  children.push(child);
  return child;
}

/** The child's exit code, or null if it had to be killed at `ms`. */
function exited(child: ChildProcess, ms: number): Promise<number | null> {
  return new Promise((resolve) => {
    const t = setTimeout(() => {
      child.kill("SIGKILL");
      resolve(null);
    }, ms);
    child.on("exit", (code) => {
      clearTimeout(t);
      resolve(code);
    });
  });
}

async function until(cond: () => boolean, what: string, ms = 30_000) {
  for (const t0 = Date.now(); !cond(); await new Promise((r) => setTimeout(r, 50)))
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
}

beforeAll(async () => {
  await startAdbOn(ADB);
  out = await mkdtemp(join(tmpdir(), "jankbook-freeze-"));
});
afterAll(async () => {
  for (const c of children) {
    c.kill("SIGCONT");
    c.kill("SIGKILL");
  }
  await stopAdb(ADB);
  if (out) await rm(out, { recursive: true, force: true });
});

describe("the device freezes during collect", () => {
  it("SIGSTOP on the phone: the bundle is written, incomplete, and collect exits 2", async () => {
    const phone = jankbook([
      "simulate",
      "--scenario",
      "paper-cases",
      "--time-scale",
      "2",
      "--port",
      String(PORT),
      "--adb-port",
      String(ADB),
    ]);
    await until(() => phone.output.stdout.includes(`adb connect ${SERIAL}`), "the simulated phone");
    const collect = jankbook([
      "collect",
      "--package",
      "org.jankbook.sample",
      "--serial",
      SERIAL,
      "--scenario",
      "monkey:500",
      "--poll",
      "300",
      "--duration",
      "600s",
      "--command-timeout",
      "1500",
      "--adb-port",
      String(ADB),
      "--run-id",
      "frozen",
      "--out",
      out,
    ]);
    // frozen once the collector has seen frames
    await until(() => /frames [1-9]\d* /.test(collect.output.stderr), "the first frames", 40_000);
    phone.kill("SIGSTOP");
    // It gives up on the frozen device instead of waiting for --duration: a run that waited the 600 s is killed
    // at 100 s and fails here (the margin is for start-up and writing on a loaded machine, not for speed).
    const code = await exited(collect, 100_000);
    expect(code, `collect still running 100 s after the freeze; stderr:\n${collect.output.stderr}`).toBe(2);
    expect(collect.output.stderr).toMatch(/collection incomplete \(unresponsive\)/);
    const bundle = await readBundleFolder(join(out, "frozen"));
    expect(bundle.errors).toEqual([]);
    expect(bundle.manifest.complete).toBe(false);
    expect(
      bundle.manifest.warnings.some((w) =>
        new RegExp(`device ${SERIAL.replace(/\./g, "\\.")} stopped answering at \\d+\\.\\d s`).test(w),
      ),
    ).toBe(true);
    expect(bundle.tables.get("frames")!.numRows).toBeGreaterThan(0);
    expect(bundle.tables.get("tasks")!.numRows).toBeGreaterThan(0);
  }, 180_000);

  it("an adb server that accepts and never answers: exit 1 after the deadline, no hang", async () => {
    const held: Socket[] = [];
    const server = createServer((socket) => void held.push(socket)); // reads nothing, says nothing
    await new Promise<void>((resolve) => server.listen(5197, "127.0.0.1", resolve));
    try {
      const t0 = Date.now();
      const collect = jankbook([
        "collect",
        "--package",
        "org.jankbook.sample",
        "--adb-port",
        "5197",
        "--out",
        out,
      ]);
      // killed at 100 s: start-up from sources on a loaded machine, then the 10 s deadline
      const code = await exited(collect, 100_000);
      expect(code, `still running after 100 s; stderr:\n${collect.output.stderr}`).toBe(1);
      expect(collect.output.stderr).toBe(
        "jankbook: cannot reach the adb server on port 5197: no answer within 10 s (is adb installed? try `adb start-server`)\n",
      );
      // it waited its deadline out (a lower bound: load only lengthens it)
      expect(Date.now() - t0).toBeGreaterThanOrEqual(10_000);
    } finally {
      for (const s of held) s.destroy();
      server.close();
    }
  }, 150_000);
});
