import { describe, expect, it } from "vitest";
import {
  contextFromGetprop,
  parseBattery,
  parseConnectivity,
  parseDisplayRefresh,
  parseGetprop,
  parseWmSize,
} from "../../../collectors/sources/device-props";

describe("device context parsers", () => {
  it("getprop: single and multi-line values, bad lines named", () => {
    const r = parseGetprop(
      "[ro.product.model]: [Pixel 4a]\n[ro.build.version.sdk]: [30]\n[persist.x]: [line one\nline two]\ngarbage\n",
      "gp",
    );
    expect(r.props).toEqual({
      "ro.product.model": "Pixel 4a",
      "ro.build.version.sdk": "30",
      "persist.x": "line one\nline two",
    });
    expect(r.warnings).toEqual(['gp line 5: expected "[key]: [value]", got "garbage"']);
  });
  it("wm size prefers the override", () => {
    expect(parseWmSize("Physical size: 1080x2400\n")).toEqual({
      width: 1080,
      height: 2400,
      physical: { width: 1080, height: 2400 },
    });
    expect(parseWmSize("Physical size: 1440x3040\nOverride size: 1080x2280\n")!.width).toBe(1080);
    expect(parseWmSize("error")).toBeNull();
  });
  it("battery level scaled to percent", () => {
    expect(
      parseBattery("Current Battery Service state:\n  AC powered: false\n  level: 85\n  scale: 100\n").level,
    ).toBe(85);
    expect(parseBattery("Current Battery Service state:\n  level: 50\n  scale: 200\n").level).toBe(25);
  });
  it("display refresh: the active mode's fps, or the older refreshRate fields", () => {
    expect(
      parseDisplayRefresh(
        'DisplayDeviceInfo{"Built-in Screen": uniqueId="local:0", 1080 x 2400, modeId 2, defaultModeId 1, supportedModes [{id=1, width=1080, height=2400, fps=60.0}, {id=2, width=1080, height=2400, fps=90.0}], density 420}',
      ),
    ).toBe(90);
    expect(
      parseDisplayRefresh("  mPhys=PhysicalDisplayInfo{1080 x 1920, 60.000004 fps}\n  refreshRate 59.0\n"),
    ).toBe(59);
    expect(parseDisplayRefresh("nothing here")).toBeNull();
  });
  it("connectivity transport", () => {
    expect(
      parseConnectivity(
        "Active default network: 100\n  NetworkAgentInfo{network{100} ni{WIFI CONNECTED} Transports: WIFI Capabilities: INTERNET}",
      ),
    ).toBe("wifi");
    expect(
      parseConnectivity("NetworkAgentInfo{ ni{MOBILE[LTE] CONNECTED} Transports: CELLULAR Capabilities: X}"),
    ).toBe("cellular");
    expect(parseConnectivity("Active default network: none\n")).toBe("none");
  });
  it("getprop to context: the first property that is set, abilist's first ABI when cpu.abi is gone", () => {
    expect(
      contextFromGetprop({
        "ro.product.vendor.model": "SM-G991B",
        "ro.product.manufacturer": "samsung",
        "ro.build.version.release_or_codename": "14",
        "ro.build.version.sdk": "34",
        "ro.product.cpu.abilist": "arm64-v8a,armeabi-v7a,armeabi",
      }),
    ).toEqual({
      device_model: "SM-G991B",
      manufacturer: "samsung",
      sdk_release: "14",
      api_level: 34,
      cpu_abi: "arm64-v8a",
    });
    expect(contextFromGetprop({ "ro.build.version.sdk": "thirty" }).api_level).toBeNull();
  });
});
