import { describe, expect, it } from "vitest";
import { makeBundleTable } from "../../../bundle/table-builder";
import {
  methodChoices,
  methodList,
  shortMethodName,
  threadList,
} from "../../../cells/androscope/trace-names";

describe("methodList, threadList, methodChoices", () => {
  const methods = makeBundleTable("methods", "t", {
    method_id: [0x10, 0x14, 0x18],
    class_name: ["p.B", "p.A", "p.A"],
    method_name: ["run", "f", "f"],
    signature: ["()V", "(I)V", "()V"],
  });

  it("reads the key section's tables into the cells' shapes", () => {
    expect(methodList(methods)).toEqual([
      { id: 0x10, className: "p.B", methodName: "run", signature: "()V" },
      { id: 0x14, className: "p.A", methodName: "f", signature: "(I)V" },
      { id: 0x18, className: "p.A", methodName: "f", signature: "()V" },
    ]);
    expect(
      threadList(makeBundleTable("threads", "t", { thread_id: [1, 7], name: ["main", "AsyncTask #1"] })),
    ).toEqual([
      { id: 1, name: "main" },
      { id: 7, name: "AsyncTask #1" },
    ]);
    expect(() => methodList(makeBundleTable("threads", "t", { thread_id: [1], name: ["main"] }))).toThrow(
      /missing column method_id \(int64\) in methods/,
    );
  });

  it("offers methods by name, sorted, with signatures only where a name is overloaded", () => {
    expect([...methodChoices(methodList(methods))]).toEqual([
      ["p.A.f ()V", 0x18],
      ["p.A.f (I)V", 0x14],
      ["p.B.run", 0x10],
    ]);
  });
});

describe("shortMethodName", () => {
  it.each([
    ["android.view.Choreographer.doFrame (JI)V", "Choreographer.doFrame(long, int)"],
    ["a.b.Outer$Inner.run ()V", "Outer$Inner.run()"],
    ["p.Q.f ([Ljava/lang/String;[[IZ)Ljava/lang/Object;", "Q.f(String[], int[][], boolean)"],
    ["p.Q.g (Landroid/view/MotionEvent;)Z", "Q.g(MotionEvent)"],
    ["not a method", "not a method"],
    ["p.Q.bad (Lunterminated)V", "p.Q.bad (Lunterminated)V"],
    ["p.Q.bad (X)V", "p.Q.bad (X)V"],
  ])("%s → %s", (full, short) => expect(shortMethodName(full)).toBe(short));
});
