// Test support: the real adb server plus a simulated phone on a test-owned port.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeAll, expect } from "vitest";
import { readBundleFolder } from "../../../bundle/node-io";
import { collectDevice, type CollectOptions } from "../../../collectors/adb/collect-device";
import { adbClient, DeviceShell } from "../../../collectors/adb/shell";
import { PROFILES } from "../../../collectors/simulator/device-profiles";
import { SimulatedPhone, type PhoneOptions } from "../../../collectors/simulator/phone";

const run = promisify(execFile);

export async function startAdb() {
  await startAdbOn(5037);
}

/** A private adb server: tests that list every device must not see other tests' phones. */
export async function startAdbOn(adbPort: number) {
  await run("adb", ["-P", String(adbPort), "start-server"]);
}

export async function stopAdb(adbPort: number) {
  await run("adb", ["-P", String(adbPort), "kill-server"]).catch(() => {});
}

export async function attachPhone(options: PhoneOptions, port: number, timeoutMs = 5000, adbPort = 5037) {
  const phone = new SimulatedPhone(options);
  await phone.listen(port);
  const { stdout } = await run("adb", ["-P", String(adbPort), "connect", `127.0.0.1:${port}`]);
  if (!/connected to/.test(stdout)) throw new Error(`adb connect 127.0.0.1:${port}: ${stdout}`);
  const client = adbClient("127.0.0.1", adbPort);
  for (let i = 0; i < 50; i++) {
    const list = (await client.listDevices()) as { id: string; type: string }[];
    if (list.some((d) => d.id === phone.serial && d.type === "device")) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { phone, shell: new DeviceShell(client, phone.serial, timeoutMs), client };
}

export async function detachPhone(phone: SimulatedPhone, adbPort = 5037) {
  await run("adb", ["-P", String(adbPort), "disconnect", phone.serial]).catch(() => {});
  await phone.close();
}

export interface SimulatedCollect {
  phone: Partial<PhoneOptions>;
  collect: Partial<CollectOptions>;
  port: number;
  /** the device shell's command timeout, ms */
  timeoutMs?: number;
  /** called with the phone once it is attached, before the collection starts (to act on its state mid-run) */
  whileRunning?: (phone: SimulatedPhone) => void;
}

/**
 * `collectDevice` against a simulated phone into a fresh temp folder, read back (with no read errors). Registers
 * the adb server before the file's tests and, after each test, detaches the phone and removes the folder.
 * Defaults: a Pixel 4a on paper-cases (seed 5, 8x time), monkey:300 for 30 s polled every 150 ms.
 */
export function simulatedCollector(prefix: string) {
  let phone: SimulatedPhone | null = null;
  let dir = "";
  beforeAll(startAdb);
  afterEach(async () => {
    if (phone) await detachPhone(phone);
    phone = null;
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return async function collect(o: SimulatedCollect) {
    const a = await attachPhone(
      { profile: PROFILES["pixel-4a"]!, scenario: "paper-cases", seed: 5, timeScale: 8, ...o.phone },
      o.port,
      o.timeoutMs,
    );
    phone = a.phone;
    o.whileRunning?.(a.phone);
    dir = await mkdtemp(join(tmpdir(), `jankbook-${prefix}-`));
    const res = await collectDevice(a.shell, {
      package: a.phone.timeline.truth.package,
      scenario: "monkey:300",
      durationMs: 30_000,
      pollMs: 150,
      dir,
      runId: prefix,
      ...o.collect,
    });
    const bundle = await readBundleFolder(dir);
    expect(bundle.errors).toEqual([]);
    return { res, bundle, phone: a.phone, shell: a.shell, dir };
  };
}
