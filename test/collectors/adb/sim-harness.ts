// Test support: the real adb server plus a simulated phone on a test-owned port.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { adbClient, DeviceShell } from "../../../collectors/adb/shell";
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
