// Test support: the real adb server plus a simulated phone on a test-owned port.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { adbClient, DeviceShell } from "../../../collectors/adb/shell";
import { SimulatedPhone, type PhoneOptions } from "../../../collectors/simulator/phone";

const run = promisify(execFile);

export async function startAdb() {
  await run("adb", ["start-server"]);
}

export async function attachPhone(options: PhoneOptions, port: number, timeoutMs = 5000) {
  const phone = new SimulatedPhone(options);
  await phone.listen(port);
  const { stdout } = await run("adb", ["connect", `127.0.0.1:${port}`]);
  if (!/connected to/.test(stdout)) throw new Error(`adb connect 127.0.0.1:${port}: ${stdout}`);
  const client = adbClient();
  for (let i = 0; i < 50; i++) {
    const list = (await client.listDevices()) as { id: string; type: string }[];
    if (list.some((d) => d.id === phone.serial && d.type === "device")) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { phone, shell: new DeviceShell(client, phone.serial, timeoutMs), client };
}

export async function detachPhone(phone: SimulatedPhone) {
  await run("adb", ["disconnect", phone.serial]).catch(() => {});
  await phone.close();
}
