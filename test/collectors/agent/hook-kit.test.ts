import { describe, expect, it, vi } from "vitest";

// hook-kit imports the bridge, which needs Frida's globals at load; these tests use none of it.
vi.mock("frida-java-bridge", () => ({ default: {} }));
const { exactHook } = await import("../../../collectors/agent/hooks/hook-kit");

const impl = () => () => undefined;

describe("exactHook", () => {
  it.each([
    // [class, method, bridge argument types, hook name, overload wanted in words]
    ["android.view.View", "performClick", [], "View.performClick", "performClick()"],
    [
      "android.os.AsyncTask",
      "executeOnExecutor",
      ["java.util.concurrent.Executor", "[Ljava.lang.Object;"],
      "AsyncTask.executeOnExecutor",
      "executeOnExecutor(java.util.concurrent.Executor,java.lang.Object[])",
    ],
    [
      "android.os.AsyncTask$SerialExecutor",
      "execute",
      ["java.lang.Runnable"],
      "AsyncTask$SerialExecutor.execute",
      "execute(java.lang.Runnable)",
    ],
    ["a.B", "m", ["[[I", "[J", "long"], "B.m", "m(int[][],long[],long)"],
  ])("%s.%s(%j) is hook %s wanting %s", (cls, method, args, hook, want) => {
    const s = exactHook("threads", cls, method, args, impl);
    expect([s.hook, s.cls, s.method, s.want]).toEqual([hook, cls, method, want]);
  });

  it("picks only the overload with exactly those argument types", () => {
    const s = exactHook(
      "handlers",
      "android.os.Handler",
      "sendMessageAtTime",
      ["android.os.Message", "long"],
      impl,
    );
    expect(
      s.pick([["android.os.Message"], ["android.os.Message", "long", "int"], ["android.os.Message", "long"]]),
    ).toBe(2);
    expect(s.pick([["android.os.Message"]])).toBe(-1);
  });
});
