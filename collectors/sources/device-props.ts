// Device context from small shell outputs: getprop, `wm size`, `dumpsys battery`, `dumpsys display`,
// `dumpsys connectivity`. Each parser is pure and reports what it could not read.

/** `getprop`: `[key]: [value]` lines; a value may run over several lines until its closing `]`. */
export function parseGetprop(
  text: string,
  file = "getprop",
): { props: Record<string, string>; warnings: string[] } {
  const props: Record<string, string> = {};
  const warnings: string[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    const m = /^\[([^\]]+)\]: \[(.*)$/.exec(line);
    if (!m) {
      warnings.push(`${file} line ${i + 1}: expected "[key]: [value]", got "${line.slice(0, 60)}"`);
      continue;
    }
    let value = m[2]!;
    const start = i;
    while (!value.endsWith("]") && i + 1 < lines.length) value += "\n" + lines[++i]!;
    if (!value.endsWith("]")) {
      warnings.push(`${file} line ${start + 1}: value of ${m[1]} never closed`);
      break;
    }
    props[m[1]!] = value.slice(0, -1);
  }
  return { props, warnings };
}

/** `wm size`: the override size when set (what apps see), else the physical size. */
export function parseWmSize(
  text: string,
): { width: number; height: number; physical: { width: number; height: number } | null } | null {
  const physical = /Physical size:\s*(\d+)x(\d+)/.exec(text);
  const override = /Override size:\s*(\d+)x(\d+)/.exec(text);
  const use = override ?? physical;
  if (!use) return null;
  return {
    width: Number(use[1]),
    height: Number(use[2]),
    physical: physical ? { width: Number(physical[1]), height: Number(physical[2]) } : null,
  };
}

/** `dumpsys battery`: `key: value` lines under "Current Battery Service state:". */
export function parseBattery(text: string): { level: number | null; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s+([A-Za-z][A-Za-z ]*?):\s*(.*)$/.exec(line);
    if (m) fields[m[1]!.trim()] = m[2]!.trim();
  }
  const level = fields.level !== undefined && /^\d+$/.test(fields.level) ? Number(fields.level) : null;
  const scale = fields.scale !== undefined && /^\d+$/.test(fields.scale) ? Number(fields.scale) : 100;
  return { level: level === null ? null : Math.round((level * 100) / (scale || 100)), fields };
}

/**
 * `dumpsys display`: the refresh rate of the active mode of the default display. Newer releases list
 * modes as `{id=1, width=1080, height=2400, fps=90.0...}` with `modeId 1`; older ones print `refreshRate 60.0`
 * or `mRefreshRate=60.0`.
 */
export function parseDisplayRefresh(text: string): number | null {
  const info = /(DisplayDeviceInfo|mBaseDisplayInfo|DisplayInfo)\{[^\n]*/.exec(text)?.[0] ?? text;
  const modeId = /modeId (\d+)/.exec(info)?.[1];
  if (modeId !== undefined) {
    const mode = new RegExp(`\\{id=${modeId}, width=\\d+, height=\\d+, fps=([\\d.]+)`).exec(info);
    if (mode) return Number(mode[1]);
  }
  const direct =
    /(?:refreshRate|mRefreshRate|renderFrameRate)[ =]([\d.]+)/.exec(text) ?? /fps=([\d.]+)/.exec(text);
  return direct ? Number(direct[1]) : null;
}

/** `dumpsys connectivity`: the active default network's transport (wifi, cellular, ethernet) or none. */
export function parseConnectivity(text: string): string | null {
  if (/Active default network:\s*none/i.test(text)) return "none";
  const nai = /NetworkAgentInfo\s*\{[^\n]*/.exec(text)?.[0] ?? text;
  const t = /Transports:\s*([A-Z_|]+)/.exec(nai)?.[1] ?? /type:\s*(WIFI|MOBILE|ETHERNET)/.exec(nai)?.[1];
  if (!t) return null;
  if (/WIFI/.test(t)) return "wifi";
  if (/CELLULAR|MOBILE/.test(t)) return "cellular";
  if (/ETHERNET/.test(t)) return "ethernet";
  return t.toLowerCase();
}

/** The run context a getprop dump gives; each field falls back to the partition-specific property. */
export function contextFromGetprop(props: Record<string, string>): {
  device_model: string | null;
  manufacturer: string | null;
  sdk_release: string | null;
  api_level: number | null;
  cpu_abi: string | null;
} {
  const first = (...keys: string[]) => {
    for (const k of keys) {
      const v = props[k]?.trim();
      if (v) return v;
    }
    return null;
  };
  const sdk = first("ro.build.version.sdk", "ro.system.build.version.sdk");
  return {
    device_model: first("ro.product.model", "ro.product.system.model", "ro.product.vendor.model"),
    manufacturer: first(
      "ro.product.manufacturer",
      "ro.product.system.manufacturer",
      "ro.product.vendor.manufacturer",
    ),
    sdk_release: first(
      "ro.build.version.release",
      "ro.build.version.release_or_codename",
      "ro.system.build.version.release",
    ),
    api_level: sdk !== null && /^\d{1,4}$/.test(sdk) ? Number(sdk) : null,
    // ro.product.cpu.abi is gone on some Android 10+ builds; abilist lists the preferred ABI first.
    cpu_abi:
      first("ro.product.cpu.abi") ??
      first("ro.product.cpu.abilist", "ro.vendor.product.cpu.abilist")?.split(",")[0] ??
      null,
  };
}

/** getprop output: the first non-blank lines are `[key]: [value]`. */
export function looksLikeGetprop(text: string): boolean {
  const head = text
    .slice(0, 4096)
    .split(/\r?\n/)
    .filter((l) => l.trim() !== "")
    .slice(0, 5);
  return (
    head.length > 0 &&
    head.filter((l) => /^\[[^\]\n]{1,200}\]: \[/.test(l)).length >= Math.ceil(head.length / 2)
  );
}
export const looksLikeWmSize = (text: string): boolean =>
  text.length < 4096 && /^\s*(Physical|Override) size: *\d+x\d+/m.test(text);
export const looksLikeDumpsysDisplay = (text: string): boolean =>
  /DISPLAY MANAGER \(dumpsys display\)|^\s*mDisplayDevices?:|DisplayDeviceInfo\{/m.test(text.slice(0, 65536));
export const looksLikeDumpsysBattery = (text: string): boolean =>
  /^\s*Current Battery Service state:/m.test(text.slice(0, 4096));
