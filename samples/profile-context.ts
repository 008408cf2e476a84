// The device part of a sample run's manifest context, read off the simulator's profile as the collector reads
// it off a phone (getprop ro.product.*, ro.build.version.*, wm size, the display's refresh rate).
import type { RunContext } from "../bundle/manifest";
import type { DeviceProfile } from "../collectors/simulator/device-profiles";

/** Model, release, ABI and screen of `p`; network and battery are the caller's (they vary run to run). */
export function profileContext(p: DeviceProfile): Omit<RunContext, "app"> {
  return {
    device_model: p.model,
    manufacturer: p.manufacturer,
    sdk_release: p.sdk_release,
    api_level: p.api_level,
    cpu_abi: p.cpu_abi,
    screen_width: p.width,
    screen_height: p.height,
    refresh_hz: p.refresh_hz,
  };
}
