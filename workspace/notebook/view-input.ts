// What view(el) needs of an input element, in both hosts: the real @observablehq/inputs form in the browser,
// the stand-ins of headless-inputs.ts in Node, a selectable plot (plot-spec.ts) in either.
import { sameValue } from "../../charts/same-value";
export { sameValue };

export interface InputElementLike {
  value: unknown;
  addEventListener(type: string, listener: (e: Event) => void): void;
  removeEventListener(type: string, listener: (e: Event) => void): void;
  dispatchEvent(event: Event): boolean;
}

/** How often a dragged input may re-run its dependents (unthrottled, a 1 s drag queued ~4 s of work). */
export const INPUT_INTERVAL_MS = 100;

/** A pointer that sent no move for this long, and for twice its longest gap between moves since the last value went,
 * has stopped (moves come once a frame, 17 ms at 60 Hz): its value goes then, not at the interval's end. */
export const INPUT_PAUSE_MS = 35;

/** "input" events from NotebookRuntime.setInput (`--set`, tests, the API): a value set, not dragged; never held. */
const immediate = new WeakSet<Event>();
export function setInputEvent(): Event {
  const e = new Event("input", { bubbles: true });
  immediate.add(e);
  return e;
}

/** Values held back on a timer, in every runtime: a notebook is not settled while one is on its way. */
let held = 0;
export function inputsHeldBack(): number {
  return held;
}

/** Resolves once no value is held back (at once when none is): settled() waits on it, not on a polling timer. */
let whenNoneHeld: (() => void)[] = [];
export function inputsReleased(): Promise<void> {
  return held === 0 ? Promise.resolve() : new Promise((r) => whenNoneHeld.push(r));
}

/** A value on its way on a timer (the throttle below, the timeline's window); the call returned lets it go, once. */
export function holdInput(): () => void {
  held++;
  let released = false;
  return () => {
    if (!released && --held === 0) {
      const waiting = whenNoneHeld;
      whenNoneHeld = [];
      for (const r of waiting) r();
    }
    released = true;
  };
}

/** How an input's values are paced (inputGenerator); every field optional. */
export interface InputPace {
  /** at most one value per this many ms while moves keep coming (INPUT_INTERVAL_MS) */
  intervalMs?: number;
  /** a pointer still for this long has stopped (INPUT_PAUSE_MS) */
  pauseMs?: number;
  /** resolves once the page has computed every value before (the browser's runtime): a held value goes then */
  caughtUp?: () => Promise<void>;
  /** called as a value goes, before its dependents are told (the browser's runtime starts their pass then) */
  letGo?: () => void;
}

/**
 * Framework's Generators.input, throttled: yields el.value now, then after "input" events, at most once per
 * `intervalMs` and always the value at the time it yields, so a drag re-runs its dependents a few times a second.
 * The value a drag ends on goes without waiting for the interval: at once on "change" or "pointerup" (the pointer
 * released, a number committed; a drag back to where it began sends no "change"), and once the pointer stops
 * without a release: no move for `pauseMs`, nor for twice the longest gap between moves since the last value went
 * (a busy page takes moves in bunches: their gaps are not pauses). A value
 * equal to the last one yielded is not yielded again (a step-10 slider's moves within one step): its dependents
 * already show it, and a run for it would only hold back the next one. With `caughtUp` (the browser's runtime), a
 * held value also goes as soon as the page has computed every value before it: the interval keeps values from
 * queuing behind each other's runs, and a page with nothing left to compute has no queue to keep.
 */
export function inputGenerator(el: InputElementLike, pace: InputPace = {}) {
  const { intervalMs = INPUT_INTERVAL_MS, pauseMs = INPUT_PAUSE_MS, caughtUp, letGo } = pace;
  let resolve: ((v: unknown) => void) | null = null;
  let stale = true;
  let last = -Infinity;
  /** when the last "input" event came, and the longest gap between two since the last value went */
  let moved = -Infinity;
  let gap = 0;
  /** the value last yielded, boxed (none before the first) */
  let yielded: { value: unknown } | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pause: ReturnType<typeof setTimeout> | undefined;
  let release = () => {};
  /** a caughtUp() is being waited for: the held value goes when it resolves */
  let awaitingCatchUp = false;
  const now = () => (typeof performance !== "undefined" ? performance.now() : Date.now());
  const clearTimers = () => {
    release();
    clearTimeout(timer);
    clearTimeout(pause);
    timer = pause = undefined;
  };
  const deliver = () => {
    clearTimers();
    if (!resolve) return;
    const r = resolve;
    resolve = null;
    stale = false;
    last = now();
    gap = 0;
    yielded = { value: el.value };
    letGo?.();
    r(el.value);
  };
  /** Delivers when the interval allows, else once it has passed or the pointer pauses, whichever comes first. */
  const schedule = () => {
    const wait = last + intervalMs - now();
    if (wait <= 0) return deliver();
    if (timer === undefined) {
      release = holdInput();
      timer = setTimeout(deliver, wait);
      // The interval is there so that values do not queue behind each other's runs; once the page has computed
      // every value it was given, holding this one longer only delays it.
      if (caughtUp && !awaitingCatchUp) {
        awaitingCatchUp = true;
        void caughtUp().then(() => {
          awaitingCatchUp = false;
          if (timer !== undefined) deliver();
        });
      }
    }
    clearTimeout(pause);
    // a page too busy to take moves every frame takes them further apart: a pause is then longer, not every move
    const still = moved + Math.max(pauseMs, 2 * gap) - now();
    if (still < wait) pause = setTimeout(deliver, Math.max(0, still));
  };
  const onInput = (e: Event) => {
    const t = now();
    if (moved > -Infinity) gap = Math.max(gap, t - moved);
    moved = t;
    if (immediate.has(e)) last = -Infinity;
    if (yielded && sameValue(el.value, yielded.value)) {
      // back where it was: nothing to run (a setInput event still re-yields, as a value set, not dragged)
      if (!immediate.has(e)) {
        stale = false;
        clearTimers();
        return;
      }
    }
    stale = true;
    if (resolve) schedule();
  };
  const onRelease = () => {
    // the pointer let go (or a number was committed): the last value is not held back for the interval
    last = -Infinity;
    if (stale && resolve) deliver();
  };
  el.addEventListener("input", onInput);
  el.addEventListener("change", onRelease);
  el.addEventListener("pointerup", onRelease);
  const generator = {
    next() {
      const value = new Promise((r) => (resolve = r));
      if (stale) schedule();
      return { done: false, value };
    },
    return() {
      clearTimers();
      el.removeEventListener("input", onInput);
      el.removeEventListener("change", onRelease);
      el.removeEventListener("pointerup", onRelease);
      return { done: true, value: undefined };
    },
    throw(e: unknown): never {
      throw e;
    },
    [Symbol.iterator]() {
      return generator;
    },
  };
  return generator;
}

/** An input's label as text: Inputs gives a string or a DOM node. */
export function labelText(label: unknown): string {
  if (typeof label === "string") return label;
  const node = label as { textContent?: string } | null;
  return node && typeof node.textContent === "string" ? node.textContent : String(label);
}

/**
 * The label of an input element, or undefined: the headless stand-ins carry a `label` property; the browser's
 * @observablehq/inputs forms carry none, their label is the form's <label> element.
 */
export function inputLabel(el: unknown): string | undefined {
  const o = el as {
    label?: unknown;
    querySelector?: (selector: string) => { textContent: string | null } | null;
  } | null;
  if (!o) return undefined;
  if (o.label !== undefined) return labelText(o.label);
  const label = typeof o.querySelector === "function" ? o.querySelector("label") : null;
  return label?.textContent?.trim() || undefined;
}

/**
 * `--set tauMs=300` arrives as text: make it the type of the input's current value. An input with no value yet
 * (a selectable plot before any click, a brush) has no type to follow: the text is read as JSON when it is JSON
 * (`--set chosenGroup=5` picks group 5, `--set window=[1,2]` a window, `null` clears), else kept as text.
 */
export function coerce(value: unknown, current: unknown): unknown {
  if (typeof value !== "string") return value;
  if (current === null || current === undefined) return parsedOr(value, value);
  if (typeof current === "number") {
    const n = Number(value);
    if (value.trim() === "" || Number.isNaN(n)) throw new Error(`input expects a number, got "${value}"`);
    return n;
  }
  if (typeof current === "boolean") {
    if (value !== "true" && value !== "false") throw new Error(`input expects true or false, got "${value}"`);
    return value === "true";
  }
  // a timeline's window or a brushed range, or a multiple choice: --set gives them as JSON arrays
  if (Array.isArray(current)) {
    const parsed = parsedOr(value, undefined);
    if (!Array.isArray(parsed))
      throw new Error(`input expects a JSON array such as [1e9, 3e9], got "${value}"`);
    return parsed;
  }
  return value;
}

/** The JSON in text, or the fallback when it is not JSON. */
function parsedOr(text: string, fallback: unknown): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
}
