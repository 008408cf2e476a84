// view()'s input protocol: labels in both hosts (stand-in property, or the browser form's <label>), and the
// coercion of `--set name=text` values.
import { parseHTML } from "linkedom";
import { describe, expect, it, vi } from "vitest";
import {
  coerce,
  holdInput,
  inputGenerator,
  inputLabel,
  inputsHeldBack,
  inputsReleased,
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
    const g = inputGenerator(el, { intervalMs: 100 });
    expect(await settle(g.next().value)).toBe(0);
    return { el, g };
  }

  /** Sets the element's value and sends "input" (a move), or "input" then "change" (a release). */
  const move = (el: EventTarget & { value: number }, value: number, release = false) => {
    el.value = value;
    el.dispatchEvent(new Event("input"));
    if (release) el.dispatchEvent(new Event("change"));
  };

  it("yields at once after a quiet spell, then at most every interval with the latest value while moves go on", async () =>
    fakeTimers(async () => {
      const { el, g } = await started();
      const second = g.next().value;
      // a move every 10 ms at t = 5, 15, ..., 95: never a pause
      await vi.advanceTimersByTimeAsync(5);
      for (let v = 1; v <= 10; v++) {
        move(el, v);
        expect(await settle(second)).toBe("pending");
        await vi.advanceTimersByTimeAsync(v < 10 ? 10 : 0);
      }
      await vi.advanceTimersByTimeAsync(5); // t = 100
      expect(await settle(second)).toBe(10);
      const third = g.next().value;
      await vi.advanceTimersByTimeAsync(200);
      expect(await settle(third)).toBe("pending"); // nothing moved
      move(el, 11);
      expect(await settle(third)).toBe(11); // quiet for longer than the interval: at once
      expect(inputsHeldBack()).toBe(0);
      g.return();
    }));

  it("yields the value at once when the pointer is released (change, or pointerup alone), inside the interval", async () =>
    fakeTimers(async () => {
      const { el, g } = await started();
      const next = g.next().value;
      await vi.advanceTimersByTimeAsync(10);
      move(el, 1);
      expect(await settle(next)).toBe("pending"); // t = 10: held for the interval
      expect(inputsHeldBack()).toBe(1);
      move(el, 2, true);
      expect(await settle(next)).toBe(2); // t = 10
      expect(inputsHeldBack()).toBe(0);
      // dragged away and back to where the press began: the release sends "pointerup" but no "change"
      const after = g.next().value;
      await vi.advanceTimersByTimeAsync(10);
      move(el, 3);
      expect(await settle(after)).toBe("pending");
      el.dispatchEvent(new Event("pointerup"));
      expect(await settle(after)).toBe(3);
      g.return();
    }));

  it("yields the value once the pointer stops: no move for 35 ms, or for twice its longest gap when moves come slower", async () =>
    fakeTimers(async () => {
      // moves 16 ms apart (60 Hz): the pause is 35 ms
      const { el, g } = await started();
      const next = g.next().value;
      for (const v of [1, 2, 3]) {
        await vi.advanceTimersByTimeAsync(16);
        move(el, v);
      }
      await vi.advanceTimersByTimeAsync(34); // t = 82
      expect(await settle(next)).toBe("pending");
      await vi.advanceTimersByTimeAsync(1); // t = 83, 35 ms after the last move, 17 ms before the interval's end
      expect(await settle(next)).toBe(3);
      g.return();

      // a drag after a quiet spell, its moves 40 ms apart (a busy page): the pause is 80 ms, within a 200 ms interval
      const slow = element(0);
      const h = inputGenerator(slow, { intervalMs: 200 });
      expect(await settle(h.next().value)).toBe(0);
      await vi.advanceTimersByTimeAsync(300);
      move(slow, 1); // t = 300: the first move goes at once
      expect(await settle(h.next().value)).toBe(1);
      const after = h.next().value;
      await vi.advanceTimersByTimeAsync(40);
      move(slow, 2); // t = 340
      await vi.advanceTimersByTimeAsync(79);
      expect(await settle(after)).toBe("pending"); // t = 419
      await vi.advanceTimersByTimeAsync(1);
      expect(await settle(after)).toBe(2); // t = 420
      expect(inputsHeldBack()).toBe(0);
      h.return();
    }));

  it("takes a busy page's moves, in bunches 50 ms apart, at the interval's pace: their gaps are not pauses", async () =>
    fakeTimers(async () => {
      const el = element(0);
      const g = inputGenerator(el, { intervalMs: 100 });
      const seen: unknown[] = [await settle(g.next().value)];
      await vi.advanceTimersByTimeAsync(500);
      let pending = g.next().value.then((v) => seen.push(v));
      // 60 moves of a 1 s drag, three at a time every 50 ms (timers run late on a page busy drawing)
      for (let k = 1; k <= 60; k++) {
        el.value = k;
        el.dispatchEvent(new Event("input"));
        if (k % 3 === 0) await vi.advanceTimersByTimeAsync(50);
        if ((await settle(pending)) !== "pending") pending = g.next().value.then((v) => seen.push(v));
      }
      await vi.advanceTimersByTimeAsync(200);
      expect(seen.at(-1)).toBe(60);
      // at once, then every 100 ms over 1 s, then the last: a pause after each bunch would give twenty
      expect(seen.length).toBeLessThanOrEqual(13);
      g.return();
    }));

  it("does not yield again the value it last yielded (moves within one step), unless it is set", async () =>
    fakeTimers(async () => {
      const { el, g } = await started();
      const next = g.next().value;
      await vi.advanceTimersByTimeAsync(10);
      move(el, 1);
      move(el, 0); // back to the value its dependents have
      expect(inputsHeldBack()).toBe(0);
      await vi.advanceTimersByTimeAsync(500);
      expect(await settle(next)).toBe("pending");
      move(el, 0, true);
      expect(await settle(next)).toBe("pending"); // a release on it changes nothing either
      el.dispatchEvent(setInputEvent());
      expect(await settle(next)).toBe(0); // a value set through the runtime always runs
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
      const g = inputGenerator(el, { intervalMs: 100 });
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

  /** A caughtUp() the test resolves by hand: the page drawing the values already given. */
  function page() {
    const waiting: (() => void)[] = [];
    return {
      asked: () => waiting.length,
      caughtUp: () => new Promise<void>((r) => waiting.push(r)),
      drawn: () => waiting.splice(0).forEach((r) => r()),
    };
  }

  it("with the page's caught-up signal: lets a held value go as soon as the page has drawn the ones before it, not at the interval's end", async () =>
    fakeTimers(async () => {
      const el = element(0);
      const p = page();
      const g = inputGenerator(el, { intervalMs: 100, pauseMs: 35, caughtUp: p.caughtUp });
      expect(await settle(g.next().value)).toBe(0);
      const next = g.next().value;
      // moves every 10 ms from t = 10: held (inside the interval, never a pause), the page asked once
      for (let v = 1; v <= 3; v++) {
        await vi.advanceTimersByTimeAsync(10);
        el.value = v;
        el.dispatchEvent(new Event("input"));
      }
      expect(await settle(next)).toBe("pending");
      expect(p.asked()).toBe(1);
      await vi.advanceTimersByTimeAsync(10); // t = 40: the page draws the first value
      p.drawn();
      expect(await settle(next)).toBe(3); // the latest value, 60 ms before the interval would have let it go
      expect(inputsHeldBack()).toBe(0);
      // a page still drawing holds the next one for the interval as before
      const third = g.next().value;
      await vi.advanceTimersByTimeAsync(10);
      el.value = 4;
      el.dispatchEvent(new Event("input"));
      await vi.advanceTimersByTimeAsync(10);
      el.value = 5;
      el.dispatchEvent(new Event("input"));
      expect(await settle(third)).toBe("pending");
      await vi.advanceTimersByTimeAsync(80); // t = 140: the interval from t = 40
      expect(await settle(third)).toBe(5);
      p.drawn(); // a late caught-up signal lets nothing go twice
      expect(await settle(g.next().value)).toBe("pending");
      g.return();
    }));

  it("with the page's caught-up signal, a 1 s drag on a page that draws each value in 30 ms: more values than the interval's 10, the last one the drag's", async () =>
    fakeTimers(async () => {
      const el = element(0);
      // the page draws 30 ms after it is asked
      const g = inputGenerator(el, {
        intervalMs: 100,
        pauseMs: 35,
        caughtUp: () => new Promise<void>((r) => setTimeout(r, 30)),
      });
      const seen: unknown[] = [await (g.next().value as Promise<unknown>)];
      // performance.now is the fake clock here: the times are the timers', not the machine's
      const at: number[] = [performance.now()];
      const take = (v: unknown) => (seen.push(v), at.push(performance.now()));
      let pending = g.next().value.then(take);
      for (let k = 1; k <= 60; k++) {
        await vi.advanceTimersByTimeAsync(1000 / 60);
        el.value = k;
        el.dispatchEvent(new Event("input"));
        await vi.advanceTimersByTimeAsync(0);
        if ((await settle(pending)) !== "pending") pending = g.next().value.then(take);
      }
      await vi.advanceTimersByTimeAsync(150);
      expect(seen.at(-1)).toBe(60);
      expect(seen.length).toBeGreaterThan(12);
      // a value goes only once the page has drawn the one before it: never two closer than its 30 ms
      const gaps = at.slice(1).map((t, i) => t - at[i]!);
      expect(Math.min(...gaps.slice(1))).toBeGreaterThanOrEqual(30);
      g.return();
    }));
});

describe("inputsReleased", () => {
  it("resolves when the last value held back is let go, not before, and at once when none is", async () => {
    const state = (p: Promise<void>) => {
      let out = "pending";
      void p.then(() => (out = "resolved"));
      return async () => {
        await Promise.resolve();
        return out;
      };
    };
    expect(await state(inputsReleased())()).toBe("resolved");
    const [a, b] = [holdInput(), holdInput()];
    const released = state(inputsReleased());
    a();
    a(); // a second call of the same release lets nothing else go
    expect(await released()).toBe("pending");
    expect(inputsHeldBack()).toBe(1);
    b();
    expect(await released()).toBe("resolved");
    expect(inputsHeldBack()).toBe(0);
  });
});
