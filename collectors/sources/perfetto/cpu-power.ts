// cpu_frequency and cpu_idle (FtraceEvent fields 11 and 13, protos/perfetto/trace/ftrace/power.proto) as per-CPU
// counters named as trace processor's cpu counter tracks are ("cpufreq", kHz; "cpuidle", the idle state, with
// 4294967295 for leaving idle, as the kernel writes it).
import type { CounterRow } from "./rows";
import type { ProtoReader } from "./proto-reader";

export const F_CPU_FREQUENCY = 11;
export const F_CPU_IDLE = 13;

export class CpuPower {
  readonly counters: CounterRow[] = [];

  /** One CpuFrequencyFtraceEvent or CpuIdleFtraceEvent (state 1, cpu_id 2) at boot time `ts`. */
  event(kind: number, r: ProtoReader, ts: number): void {
    let state = 0;
    let cpu = 0;
    while (r.more()) {
      const t = r.tag();
      if (t === 8) state = r.varint();
      else if (t === 16) cpu = r.varint();
      else r.skip(t & 7);
    }
    this.counters.push({
      ts,
      pid: null,
      cpu,
      name: kind === F_CPU_FREQUENCY ? "cpufreq" : "cpuidle",
      value: state,
    });
  }
}
