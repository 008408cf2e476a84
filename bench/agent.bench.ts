// Agent hook overhead (docs/agent.md, "What each hook costs"): time per recorded event that the bundled agent
// adds, measured in the fake Java bridge (test/collectors/agent): the same calls driven with and without the
// agent loaded, the difference divided by the lines recorded, in steady state after a warm-up drive.
// Reported, not gated. The fake's wrappers cost less than Frida's JNI transitions, so these are the agent's
// own JavaScript work (encoding, maps, stack capture), a floor for a phone.
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
    name: "frame (21 views on screen, one invalidated: 1 re-recorded + 20 replayed draw lines)",
    drive(vm) {
      const a = androidOf(vm);
      const decor = a.view("android.widget.FrameLayout", {
        mBackground: vm.newObj("android.graphics.drawable.Drawable"),
      });
      const leaves = Array.from({ length: 20 }, (_, i) =>
        a.view("android.widget.TextView", { lp: [0, i * 100, 1080, 100] }, decor),
      );
      a.addWindow(decor, 0, 0, 1080, 2400);
      a.frame();
      for (let i = 0; i < N / 20; i++) {
        vm.invoke(leaves[i % 20]!, "invalidate");
        a.frame();
      }
      // Removed again, so each drive starts from one window.
      vm.invoke(a.wm, "removeView", [decor, false]);
    },
  },
  {
    name: "coroutine task (Dispatchers.IO launch + run: task, begin, end lines)",
    drive(vm) {
      const a = androidOf(vm);
      if (!vm.classes.has("bench.Lambda"))
        vm.define({
          name: "bench.Lambda",
          extends: "java.lang.Object",
          app: true,
          methods: [{ name: "invokeSuspend", body: () => undefined }],
        });
      for (let i = 0; i < N; i++) {
        a.launch(a.dispatchers.io, vm.newObj("bench.Lambda"));
        a.runCoroutines();
      }
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

/**
 * CPU time of one drive (process.cpuUsage: this process's own time, so 8 engineers sharing 2 cores inflate
 * it far less than wall time); the agent's lines are counted and dropped so the log does not grow.
 */
function timeDrive(w: Workload, vm: FakeVm): { ms: number; lines: number } {
  vm.log.length = 0;
  const t0 = process.cpuUsage();
  w.drive(vm);
  const t = process.cpuUsage(t0);
  return { ms: (t.user + t.system) / 1000, lines: vm.log.length };
}

/** What one call from JavaScript into the fake's Java costs, to read the figures above against. */
const bridgeCall: Benchmark = {
  name: "agent/fake bridge: one Java call from JavaScript (calibration)",
  unit: "CPU µs/call",
  runs: 7,
  measure() {
    const vm = fakeAndroid(34);
    const System = (vm.bridge() as { use(n: string): { nanoTime(): number } }).use("java.lang.System");
    const t0 = process.cpuUsage();
    for (let i = 0; i < 20 * N; i++) System.nanoTime();
    const t = process.cpuUsage(t0);
    return (t.user + t.system) / (20 * N);
  },
};

export const benchmarks: Benchmark[] = [
  bridgeCall,
  ...workloads.map((w): Benchmark => {
    // One hooked and one plain phone for all runs: steady state, after a warm-up drive of each.
    let hooked: FakeVm;
    let plain: FakeVm;
    return {
      name: `agent/${w.name}`,
      unit: "CPU µs/line",
      runs: 7,
      async setup() {
        hooked = fakeAndroid(34);
        await loadAgent(hooked);
        plain = fakeAndroid(34);
        timeDrive(w, hooked);
        timeDrive(w, plain);
      },
      measure() {
        const p = timeDrive(w, plain);
        const h = timeDrive(w, hooked);
        return ((h.ms - p.ms) * 1000) / Math.max(1, h.lines);
      },
    };
  }),
];
