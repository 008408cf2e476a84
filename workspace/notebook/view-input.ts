// What view(el) needs of an input element, in both hosts: the real @observablehq/inputs form in the browser,
// the stand-ins of headless-inputs.ts in Node, a selectable plot (plot-spec.ts) in either.
export interface InputElementLike {
  value: unknown;
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
  dispatchEvent(event: Event): boolean;
}

/** Framework's Generators.input: yields el.value now, then again after each "input" event. */
export function inputGenerator(el: InputElementLike) {
  let resolve: ((v: unknown) => void) | null = null;
  let stale = true;
  const onInput = () => {
    if (resolve) {
      resolve(el.value);
      resolve = null;
    } else stale = true;
  };
  el.addEventListener("input", onInput);
  const generator = {
    next() {
      if (stale) {
        stale = false;
        return { done: false, value: Promise.resolve(el.value) };
      }
      return { done: false, value: new Promise((r) => (resolve = r)) };
    },
    return() {
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
  if (current === null || current === undefined) {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  if (typeof current === "number") {
    const n = Number(value);
    if (value.trim() === "" || Number.isNaN(n)) throw new Error(`input expects a number, got "${value}"`);
    return n;
  }
  if (typeof current === "boolean") {
    if (value !== "true" && value !== "false") throw new Error(`input expects true or false, got "${value}"`);
    return value === "true";
  }
  return value;
}

/**
 * Are two input values the same choice? Primitives by identity (a bigint equals the number it converts to, as plots
 * turn bigints into numbers), Dates by time, arrays (brush windows, multiple choices) element by element.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b || (Number.isNaN(a) && Number.isNaN(b))) return true;
  if ((typeof a === "bigint" || typeof b === "bigint") && (typeof a === "number" || typeof b === "number"))
    return Number(a) === Number(b);
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  return false;
}
