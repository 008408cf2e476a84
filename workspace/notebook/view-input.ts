// What view(el) needs of an input element, in both hosts: the real @observablehq/inputs form in the browser,
// the stand-ins of headless-inputs.ts in Node, a selectable plot (plot-spec.ts) in either.
export { sameValue } from "../../charts/same-value";

export interface InputElementLike {
  value: unknown;
  addEventListener(type: string, listener: (e: Event) => void): void;
  removeEventListener(type: string, listener: (e: Event) => void): void;
  dispatchEvent(event: Event): boolean;
}

/** How often a dragged input may re-run its dependents (unthrottled, a 1 s drag queued ~4 s of work). */
export const INPUT_INTERVAL_MS = 100;

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

/** A value on its way on a timer (the throttle below, the timeline's window); the call returned lets it go, once. */
export function holdInput(): () => void {
  held++;
  let released = false;
  return () => {
    if (!released) held--;
    released = true;
  };
}

/**
 * Framework's Generators.input, throttled: yields el.value now, then after "input" events, at most once per
 * `intervalMs` and always the value at the time it yields, so a drag re-runs its dependents a few times a second
 * and its last value always wins (a value that arrives after a quiet spell yields at once).
 */
export function inputGenerator(el: InputElementLike, intervalMs = INPUT_INTERVAL_MS) {
  let resolve: ((v: unknown) => void) | null = null;
  let stale = true;
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let release = () => {};
  const now = () => (typeof performance !== "undefined" ? performance.now() : Date.now());
  const deliver = () => {
    release();
    timer = undefined;
    if (!resolve) return;
    const r = resolve;
    resolve = null;
    stale = false;
    last = now();
    r(el.value);
  };
  /** Delivers when the interval allows, else once it has passed (one timer, reading the value it then finds). */
  const schedule = () => {
    const wait = last + intervalMs - now();
    if (wait <= 0) deliver();
    else if (timer === undefined) {
      release = holdInput();
      timer = setTimeout(deliver, wait);
    }
  };
  const onInput = (e: Event) => {
    if (immediate.has(e)) last = -Infinity;
    stale = true;
    if (resolve) schedule();
  };
  el.addEventListener("input", onInput);
  const generator = {
    next() {
      const value = new Promise((r) => (resolve = r));
      if (stale) schedule();
      return { done: false, value };
    },
    return() {
      release();
      clearTimeout(timer);
      timer = undefined;
      el.removeEventListener("input", onInput);
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
