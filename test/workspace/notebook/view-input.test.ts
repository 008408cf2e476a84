// view()'s input protocol: labels in both hosts (stand-in property, or the browser form's <label>), and the
// coercion of `--set name=text` values.
import { parseHTML } from "linkedom";
import { describe, expect, it, vi } from "vitest";
import {
  coerce,
  inputGenerator,
  inputLabel,
  inputsHeldBack,
  setInputEvent,
} from "../../../workspace/notebook/view-input";

describe("inputLabel", () => {
  it("reads a stand-in's label property (string or node), else a form's <label> text, else nothing", () => {
    const { document } = parseHTML(
      "<form><label> τ (ms) </label><input type=range></form><form><input type=range></form>",
    );
    const [labelled, bare] = [...document.querySelectorAll("form")];
    expect(inputLabel({ label: "min support", value: 0.1 })).toBe("min support");
    expect(inputLabel({ label: document.querySelector("label"), value: 1 })).toBe(" τ (ms) ");
    expect(inputLabel(labelled)).toBe("τ (ms)");
    expect(inputLabel(bare)).toBeUndefined();
    expect(inputLabel(null)).toBeUndefined();
  });
});

describe("coerce", () => {
  it.each([
    ["300", 500, 300],
    ["0.25", 1.5, 0.25],
    ["true", false, true],
    ["weka", "hf6", "weka"],
    [7, 500, 7],
    ["5", null, 5],
    ["true", undefined, true],
    ["null", null, null],
    ["OpenLaw", null, "OpenLaw"],
  ])("coerce(%j) for a current value %j -> %j", (text, current, expected) => {
    expect(coerce(text, current)).toBe(expected);
  });

  it("reads JSON for an input with no value yet: a brush window from --set", () => {
    expect(coerce("[1.5, 2]", null)).toEqual([1.5, 2]);
  });

  it("reads a JSON array for an input holding an array: a timeline's window from --set", () => {
    expect(coerce("[1e9, 3000000000]", [0, 4e9])).toEqual([1e9, 3e9]);
    expect(coerce('["a", "b"]', ["a"])).toEqual(["a", "b"]);
    expect(() => coerce("1e9,3e9", [0, 4e9])).toThrow(
      'input expects a JSON array such as [1e9, 3e9], got "1e9,3e9"',
    );
    expect(() => coerce("{}", [0, 4e9])).toThrow("input expects a JSON array");
  });

  it("names the expected type when text does not fit it", () => {
    expect(() => coerce("fast", 500)).toThrow('input expects a number, got "fast"');
    expect(() => coerce(" ", 500)).toThrow("input expects a number");
    expect(() => coerce("yes", true)).toThrow('input expects true or false, got "yes"');
  });
});

describe("inputGenerator (throttled)", () => {
  /** An input element: a value and "input" events. */
  const element = (value: number) =>
    Object.assign(new EventTarget(), { value }) as EventTarget & { value: number };
  const settle = async (p: Promise<unknown>) => {
    let out: unknown = "pending";
    void p.then((v) => (out = v));
    await vi.advanceTimersByTimeAsync(0);
    return out;
  };

  /** Runs `f` on fake timers (the throttle reads performance.now and sets timeouts). */
  async function fakeTimers(f: () => Promise<void>) {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    try {
      await f();
    } finally {
      vi.useRealTimers();
    }
  }

  /** A throttled generator (100 ms) past its first value, 0. */
  async function started() {
    const el = element(0);
    const g = inputGenerator(el, 100);
    expect(await settle(g.next().value)).toBe(0);
    return { el, g };
  }

  it("yields at once after a quiet spell, then at most every interval with the latest value", async () =>
    fakeTimers(async () => {
      const { el, g } = await started();
      const second = g.next().value;
      for (let v = 1; v <= 5; v++) {
        await vi.advanceTimersByTimeAsync(10);
        el.value = v;
        el.dispatchEvent(new Event("input"));
      }
      expect(await settle(second)).toBe("pending"); // t = 50: the interval has not passed
      await vi.advanceTimersByTimeAsync(50); // t = 100
      expect(await settle(second)).toBe(5);
      const third = g.next().value;
      await vi.advanceTimersByTimeAsync(200);
      expect(await settle(third)).toBe("pending"); // nothing moved
      el.value = 6;
      el.dispatchEvent(new Event("input"));
      expect(await settle(third)).toBe(6); // quiet for longer than the interval: at once
      g.return();
    }));

  it("never holds back a value set through the runtime (setInput's event)", async () =>
    fakeTimers(async () => {
      const { el, g } = await started();
      const next = g.next().value;
      el.value = 7;
      el.dispatchEvent(setInputEvent());
      expect(await settle(next)).toBe(7);
      expect(inputsHeldBack()).toBe(0);
      g.return();
    }));

  it("turns a 1 s drag of 60 events into about 10 values, the last one being the drag's last", async () =>
    fakeTimers(async () => {
      const el = element(0);
      const g = inputGenerator(el, 100);
      const seen: unknown[] = [await settle(g.next().value)];
      let pending = g.next().value.then((v) => seen.push(v));
      for (let k = 1; k <= 60; k++) {
        await vi.advanceTimersByTimeAsync(1000 / 60);
        el.value = k;
        el.dispatchEvent(new Event("input"));
        await vi.advanceTimersByTimeAsync(0);
        if (seen.length > 0 && (await settle(pending)) !== "pending")
          pending = g.next().value.then((v) => seen.push(v));
      }
      await vi.advanceTimersByTimeAsync(150);
      expect(seen.at(-1)).toBe(60);
      expect(seen.length).toBeGreaterThanOrEqual(10);
      expect(seen.length).toBeLessThanOrEqual(12);
      g.return();
    }));
});
