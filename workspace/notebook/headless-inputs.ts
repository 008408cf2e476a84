// The `Inputs` builtin where there is no DOM (the headless runner, tests): the same calls as
// @observablehq/inputs 0.12 (range, number, select, radio, checkbox, toggle, text, search, table), each returning an
// EventTarget with a `value` that starts at the default @observablehq/inputs would give. `view(el)` reads
// `value` and re-reads it on each "input" event, exactly as with the real elements, so a notebook's inputs
// behave the same in both hosts; NotebookRuntime.setInput / `--set name=value` set `value` and dispatch "input".
//
// Defaults (as @observablehq/inputs): range -> options.value, else the midpoint of the extent (the HTML range
// default); number -> options.value (undefined if none); select -> options.value, else the first option ([] if
// multiple); radio -> options.value ?? null; checkbox -> options.value ?? []; toggle -> options.value ?? false;
// text -> options.value ?? ""; search -> all its rows. Give every input an explicit `value` and both hosts agree trivially.
//
// `offers(value)` says whether the input could hold a value (a choice among its options, a number within its
// extent): a re-made input keeps the previous one's chosen value only if so (input-carry.ts). The browser's forms
// answer the same question by setting the value and reading it back.
import { sameValue } from "./view-input";

export interface HeadlessInput extends EventTarget {
  readonly kind: string;
  label?: string;
  value: unknown;
  /** the choices offered (select, radio, checkbox) or the extent (range, number) */
  options?: unknown;
  /** could this input hold `value`? (see above) */
  offers(value: unknown): boolean;
}

interface InputOptions {
  label?: unknown;
  value?: unknown;
  step?: number;
  multiple?: boolean;
  [key: string]: unknown;
}

class StandIn extends EventTarget implements HeadlessInput {
  value: unknown;
  label?: string;
  constructor(
    readonly kind: string,
    value: unknown,
    options: InputOptions | undefined,
    readonly choices?: unknown,
  ) {
    super();
    this.value = value;
    this.label = options?.label === undefined ? undefined : String(options.label);
  }
  get options() {
    return this.choices;
  }
  offers(value: unknown): boolean {
    const among = (v: unknown) => (this.choices as unknown[]).some((c) => sameValue(c, v));
    switch (this.kind) {
      case "range":
      case "number": {
        if (typeof value !== "number" || Number.isNaN(value)) return false;
        const extent = this.choices as [number, number] | undefined;
        return (
          !extent ||
          (value >= Math.min(Number(extent[0]), Number(extent[1])) &&
            value <= Math.max(Number(extent[0]), Number(extent[1])))
        );
      }
      case "select":
        return Array.isArray(this.value) ? Array.isArray(value) && value.every(among) : among(value);
      case "radio":
        return value === null || among(value);
      case "checkbox":
        return Array.isArray(value) && value.every(among);
      case "toggle":
        return typeof value === "boolean";
      case "text":
        return typeof value === "string";
      default:
        return false; // search: its value is rows of the data it was made from, never carried
    }
  }
  toJSON() {
    return { input: this.kind, label: this.label, value: this.value };
  }
}

function choicesOf(data: unknown): unknown[] {
  if (data instanceof Map) return [...data.values()];
  if (data && typeof (data as Iterable<unknown>)[Symbol.iterator] === "function")
    return [...(data as Iterable<unknown>)];
  throw new Error("Inputs: options must be an array or a Map");
}

export const headlessInputs = {
  range(extent: [number, number] = [0, 1], options?: InputOptions): HeadlessInput {
    const [a, b] = extent;
    const step = options?.step;
    let mid = (Number(a) + Number(b)) / 2;
    if (step) mid = Number(a) + Math.round((mid - Number(a)) / step) * step;
    return new StandIn("range", options?.value ?? mid, options, extent);
  },
  number(extent?: [number, number] | InputOptions, options?: InputOptions): HeadlessInput {
    if (!Array.isArray(extent)) return new StandIn("number", extent?.value, extent);
    return new StandIn("number", options?.value, options, extent);
  },
  select(data: unknown, options?: InputOptions): HeadlessInput {
    const choices = choicesOf(data);
    const value = options?.value !== undefined ? options.value : options?.multiple ? [] : choices[0];
    return new StandIn("select", value, options, choices);
  },
  radio(data: unknown, options?: InputOptions): HeadlessInput {
    return new StandIn("radio", options?.value ?? null, options, choicesOf(data));
  },
  checkbox(data: unknown, options?: InputOptions): HeadlessInput {
    return new StandIn("checkbox", options?.value ?? [], options, choicesOf(data));
  },
  toggle(options?: InputOptions): HeadlessInput {
    return new StandIn("toggle", options?.value ?? false, options);
  },
  text(options?: InputOptions): HeadlessInput {
    return new StandIn("text", options?.value ?? "", options);
  },
  table(data: unknown, options?: InputOptions): HeadlessInput {
    // Inputs.table's value is the chosen row (multiple: false; null until one is) or rows (every row while none
    // is chosen, unless required is false). Chosen rows are not carried to a re-made table (offers() is false).
    const rows = choicesOf(data);
    const multiple = options?.multiple ?? true;
    const none = !multiple ? null : options?.required === false ? [] : rows;
    const input = new StandIn("table", options?.value !== undefined ? options.value : none, options, rows);
    // the columns it shows, in order, for publish to draw the rows as the browser's table does
    return Object.assign(input, {
      columns: Array.isArray(options?.columns) ? options.columns.map(String) : undefined,
    });
  },
  search(data: unknown, options?: InputOptions): HeadlessInput {
    // Inputs.search's value is the rows matching the query; the default (empty) query matches them all.
    return new StandIn("search", choicesOf(data), options, data);
  },
};
