// Agent hook overhead (#17): time per recorded event that the bundled agent adds, measured in the fake
// Java bridge (test/collectors/agent): the same calls driven with and without the agent loaded, the
// difference divided by the events recorded. Reported, not gated. The fake's wrappers cost less than
// Frida's JNI transitions, so these are the agent's own JavaScript work (encoding, maps, stack capture),
// a floor for a phone.
import { fakeAndroid, androidOf } from "../test/collectors/agent/fake-android";
import type { FakeVm } from "../test/collectors/agent/fake-java";
import { loadAgent } from "../test/collectors/agent/load-agent";
import type { Benchmark } from "./harness";

const N = 2000;

interface Workload {
  name: string;
  /** drives N events of one kind */
  drive(vm: FakeVm): void;
}

function runnable(vm: FakeVm): ReturnType<FakeVm["newObj"]> {
  if (!vm.classes.has("bench.Job"))
    vm.define({
      name: "bench.Job",
      extends: "java.lang.Object",
      implements: ["java.lang.Runnable"],
      methods: [{ name: "run", body: () => undefined }],
    });
  return vm.newObj("bench.Job");
}

const workloads: Workload[] = [
  {
    name: "thread task (start + run: task, begin, end lines)",
    drive(vm) {
      const a = androidOf(vm);
      for (let i = 0; i < N; i++) {
        const t = a.thread("java.lang.Thread", "w", runnable(vm));
        vm.invoke(t, "start");
        vm.onThread(t, () => vm.invoke(t, "run"));
      }
    },
  },
  {
    name: "looper message (post + dispatch: task, begin, end lines)",
    drive(vm) {
      const a = androidOf(vm);
      const ht = a.thread("android.os.HandlerThread", "bg");
      const l = a.looperFor(ht);
      const h = vm.newObj("android.os.Handler", { mLooper: l.obj });
      const r = runnable(vm);
      for (let i = 0; i < N; i++) {
        vm.invoke(h, "post", [r]);
        a.drain(l);
      }
    },
  },
  {
    name: "render op (View.measure: one op line)",
    drive(vm) {
      const v = vm.newObj("android.view.View", { mID: 0x7f0a0002 });
      for (let i = 0; i < N; i++) vm.invoke(v, "measure", [1080, 100]);
    },
  },
  {
    name: "input event (View.performClick: one input line)",
    drive(vm) {
      const v = vm.newObj("android.view.View", { mID: 0x7f0a0002 });
      for (let i = 0; i < N; i++) vm.invoke(v, "performClick");
    },
  },
];

async function timeDrive(w: Workload, hooked: boolean): Promise<{ ms: number; events: number }> {
  const vm = fakeAndroid(34);
  if (hooked) await loadAgent(vm);
  const before = vm.log.length;
  const t0 = performance.now();
  w.drive(vm);
  const ms = performance.now() - t0;
  return { ms, events: vm.log.length - before };
}

export const benchmarks: Benchmark[] = workloads.map((w) => ({
  name: `agent/${w.name}`,
  unit: "µs/line",
  runs: 5,
  async setup() {
    await timeDrive(w, true); // builds the bundle once and warms the JIT
  },
  async measure() {
    const plain = await timeDrive(w, false);
    const hooked = await timeDrive(w, true);
    return ((hooked.ms - plain.ms) * 1000) / Math.max(1, hooked.events);
  },
}));
