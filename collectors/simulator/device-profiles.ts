// Devices the simulated phone can pretend to be (DUNE's device lab: several models and Android releases).
export interface DeviceProfile {
  model: string;
  manufacturer: string;
  device: string;
  sdk_release: string;
  api_level: number;
  cpu_abi: string;
  width: number;
  height: number;
  refresh_hz: number;
  network: "wifi" | "cellular" | "none";
  battery_level: number;
  /** relative CPU speed: 1 = a mid-range phone; view and task costs divide by it */
  speed: number;
}

export const PROFILES: Record<string, DeviceProfile> = {
  "nexus-5x": {
    model: "Nexus 5X",
    manufacturer: "LGE",
    device: "bullhead",
    sdk_release: "6.0.1",
    api_level: 23,
    cpu_abi: "arm64-v8a",
    width: 1080,
    height: 1920,
    refresh_hz: 60,
    network: "wifi",
    battery_level: 81,
    speed: 0.7,
  },
  "pixel-2": {
    model: "Pixel 2",
    manufacturer: "Google",
    device: "walleye",
    sdk_release: "9",
    api_level: 28,
    cpu_abi: "arm64-v8a",
    width: 1080,
    height: 1920,
    refresh_hz: 60,
    network: "wifi",
    battery_level: 64,
    speed: 0.9,
  },
  "pixel-4a": {
    model: "Pixel 4a",
    manufacturer: "Google",
    device: "sunfish",
    sdk_release: "11",
    api_level: 30,
    cpu_abi: "arm64-v8a",
    width: 1080,
    height: 2340,
    refresh_hz: 60,
    network: "wifi",
    battery_level: 77,
    speed: 1,
  },
  "galaxy-s21": {
    model: "SM-G991B",
    manufacturer: "samsung",
    device: "o1s",
    sdk_release: "12",
    api_level: 31,
    cpu_abi: "arm64-v8a",
    width: 1080,
    height: 2400,
    refresh_hz: 60,
    network: "cellular",
    battery_level: 58,
    speed: 1.3,
  },
  "pixel-7": {
    model: "Pixel 7",
    manufacturer: "Google",
    device: "panther",
    sdk_release: "14",
    api_level: 34,
    cpu_abi: "arm64-v8a",
    width: 1080,
    height: 2400,
    refresh_hz: 60,
    network: "wifi",
    battery_level: 90,
    speed: 1.5,
  },
  "pixel-8": {
    model: "Pixel 8",
    manufacturer: "Google",
    device: "shiba",
    sdk_release: "16",
    api_level: 36,
    cpu_abi: "arm64-v8a",
    width: 1080,
    height: 2400,
    refresh_hz: 60,
    network: "wifi",
    battery_level: 70,
    speed: 1.6,
  },
};

/** The same model after an OS upgrade (DUNE §8.1: K-9 regressed after devices were upgraded). */
export function upgraded(p: DeviceProfile, sdk_release: string, api_level: number): DeviceProfile {
  return { ...p, sdk_release, api_level };
}
