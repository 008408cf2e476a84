// The run's device context over adb (docs/tables.md, runs): getprop, `wm size`, `dumpsys display`
// (refresh rate), `dumpsys battery`, `dumpsys connectivity`, and the app's versionName from `dumpsys package`.
import type { RunContext } from "../../bundle/manifest";
import {
  parseBattery,
  parseConnectivity,
  parseDisplayRefresh,
  parseGetprop,
  parseWmSize,
} from "../sources/device-props";
import type { Collection } from "./collection";

export interface DeviceContext {
  context: RunContext;
  /** a simulated phone says so in getprop; its runs are marked synthetic like any generated data */
  synthetic: boolean;
}

export async function readDeviceContext(
  c: Collection,
  pkg: string,
  scenario: string,
): Promise<DeviceContext> {
  const context: RunContext = { app: pkg, scenario };
  const getprop = await c.run("getprop", "getprop");
  if (getprop !== null) {
    const { props, warnings } = parseGetprop(getprop, "getprop");
    for (const x of warnings.slice(0, 3)) c.warn(x, false);
    context.device_model = props["ro.product.model"] ?? null;
    context.manufacturer = props["ro.product.manufacturer"] ?? null;
    context.sdk_release = props["ro.build.version.release"] ?? null;
    context.api_level = props["ro.build.version.sdk"] ? Number(props["ro.build.version.sdk"]) : null;
    context.cpu_abi = props["ro.product.cpu.abi"] ?? null;
    c.sources.push({ kind: "getprop", origin: "adb shell getprop" });
  }
  const wm = await c.run("wm size", "wm size");
  const size = wm === null ? null : parseWmSize(wm);
  if (size) Object.assign(context, { screen_width: size.width, screen_height: size.height });
  const display = await c.run("dumpsys display", "dumpsys display");
  context.refresh_hz = display === null ? null : parseDisplayRefresh(display);
  if (display !== null && context.refresh_hz === null)
    c.warn("dumpsys display: no refresh rate found; jank deadlines use FrameDeadline or 16.67 ms", false);
  const battery = await c.run("dumpsys battery", "dumpsys battery");
  context.battery_level = battery === null ? null : parseBattery(battery).level;
  const conn = await c.run("dumpsys connectivity", "dumpsys connectivity");
  context.network = conn === null ? null : parseConnectivity(conn);
  const pkgInfo = await c.run(`dumpsys package ${pkg}`, "dumpsys package");
  context.app_version = pkgInfo === null ? null : (/versionName=(\S+)/.exec(pkgInfo)?.[1] ?? null);
  if (pkgInfo !== null && context.app_version === null)
    c.warn(`package ${pkg}: no versionName (is it installed?)`, false);
  if (context.api_level != null && context.api_level < 23)
    c.warn(
      `API ${context.api_level}: dumpsys gfxinfo framestats needs Android 6.0 (API 23); no per-frame data`,
    );
  const synthetic = getprop !== null && /\[ro\.jankbook\.simulated\]: \[1\]/.test(getprop);
  return { context, synthetic };
}
