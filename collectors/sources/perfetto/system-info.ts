// The device and its packages as the trace records them: SystemInfo (TracePacket field 45,
// protos/perfetto/common/system_info.proto) and PackagesList (field 47, protos/perfetto/trace/android/packages_list.proto),
// read into the run's context the way getprop fills it (collectors/sources/device-props.ts).
import type { RunContext } from "../../../bundle/manifest";
import type { ProtoReader } from "./proto-reader";

export interface PackageRow {
  name: string;
  uid: number | null;
  version_code: number | null;
  debuggable: boolean | null;
  profileable_from_shell: boolean | null;
}

// Android release to API level, for a trace whose SystemInfo has a fingerprint but no android_sdk_version (trace
// processor derives it the same way: its config_metadata diff test gives release 12 as SDK 31).
const API_BY_RELEASE: Record<string, number> = {
  "9": 28,
  "10": 29,
  "11": 30,
  "12": 31,
  "12L": 32,
  "13": 33,
  "14": 34,
  "15": 35,
  "16": 36,
};

// utsname.machine to the Android ABI name getprop's ro.product.cpu.abi would give.
const ABI_BY_MACHINE: Record<string, string> = {
  aarch64: "arm64-v8a",
  armv8l: "armeabi-v7a",
  armv7l: "armeabi-v7a",
  x86_64: "x86_64",
  i686: "x86",
};

export class SystemInfo {
  fingerprint: string | null = null;
  manufacturer: string | null = null;
  sdk: number | null = null;
  machine: string | null = null;
  socModel: string | null = null;
  readonly packages: PackageRow[] = [];

  /** One SystemInfo message; a later packet's fields override an earlier one's. */
  system(r: ProtoReader): void {
    while (r.more()) {
      const t = r.tag();
      const f = t >>> 3;
      if (t === 10) {
        const u = r.message();
        while (u.more()) {
          const ut = u.tag();
          if (ut === 34) this.machine = u.string();
          else u.skip(ut & 7);
        }
      } else if (t === 18) this.fingerprint = r.string();
      else if (f === 14 && (t & 7) === 2) this.manufacturer = r.string();
      else if (f === 9 && (t & 7) === 2) this.socModel = r.string();
      else if (t === 40) this.sdk = r.varint();
      else r.skip(t & 7);
    }
  }

  /** One PackagesList message: its packages are added. */
  packageList(r: ProtoReader): void {
    while (r.more()) {
      const t = r.tag();
      if (t !== 10) {
        r.skip(t & 7);
        continue;
      }
      const m = r.message();
      const p: PackageRow = {
        name: "",
        uid: null,
        version_code: null,
        debuggable: null,
        profileable_from_shell: null,
      };
      while (m.more()) {
        const mt = m.tag();
        if (mt === 10) p.name = m.string();
        else if (mt === 16) p.uid = m.varint();
        else if (mt === 24) p.debuggable = m.varint() !== 0;
        else if (mt === 32) p.profileable_from_shell = m.varint() !== 0;
        else if (mt === 40) p.version_code = m.int64();
        else m.skip(mt & 7);
      }
      if (p.name) this.packages.push(p);
    }
  }

  /** Device fields for the run's context; the fingerprint is brand/product/device:release/id/incremental:type/tags. */
  context(): Partial<RunContext> {
    const out: Partial<RunContext> = {};
    const m = this.fingerprint ? /^([^/]*)\/([^/]*)\/([^/:]*):([^/]*)\//.exec(this.fingerprint) : null;
    // SystemInfo carries no ro.product.model: the build's device name (e.g. coral) is the closest it has.
    if (m?.[3]) out.device_model = m[3];
    const manufacturer = this.manufacturer || m?.[1];
    if (manufacturer) out.manufacturer = manufacturer;
    if (m?.[4]) out.sdk_release = m[4];
    const api = this.sdk ?? (m ? API_BY_RELEASE[m[4]!] : undefined);
    if (api) out.api_level = api;
    const abi = this.machine ? ABI_BY_MACHINE[this.machine] : undefined;
    if (abi) out.cpu_abi = abi;
    return out;
  }

  /** The package a process belongs to: by name, else by its app uid (a secondary user's uid modulo 100000). */
  packageOf(name: string | null, uid: number | null): PackageRow | null {
    const byName = name ? this.packages.find((p) => p.name === name.split(":")[0]) : undefined;
    if (byName) return byName;
    if (uid === null) return null;
    return this.packages.find((p) => p.uid === uid % 100000) ?? null;
  }
}
