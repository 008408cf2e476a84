// Inputs set by name from outside the page (`jankbook run --set name=value`): what each input expects, whether a
// value given as text fits it, and the lines that say what was wrong. A run given a name no input has, or a value
// its input cannot take, must not quietly run on the defaults (cli-outcomes.md in docs).
import { coerce } from "./view-input";

interface Described {
  kind?: string;
  value: unknown;
  options?: unknown;
  offers?(value: unknown): boolean;
}

const listed = (choices: unknown) =>
  Array.isArray(choices) ? choices.map((c) => JSON.stringify(c)).join(", ") : "";

/** What an input takes, in words: "a number from 4 to 100", "true or false", `one of "ui", "render"`. */
export function inputExpects(el: Described): string {
  const { kind, value, options } = el;
  const extent = Array.isArray(options) && options.length === 2 ? (options as number[]) : undefined;
  switch (kind) {
    case "range":
    case "number":
      return extent ? `a number from ${extent[0]} to ${extent[1]}` : "a number";
    case "toggle":
      return "true or false";
    case "select":
      return Array.isArray(value) ? `a JSON array of ${listed(options)}` : `one of ${listed(options)}`;
    case "radio":
      return `one of ${listed(options)}, or null`;
    case "checkbox":
      return `a JSON array of ${listed(options)}`;
    case "text":
      return "text";
  }
  if (typeof value === "number") return "a number";
  if (typeof value === "boolean") return "true or false";
  if (Array.isArray(value)) return "a JSON array such as [1e9, 3e9]";
  if (typeof value === "string") return "text";
  return "a JSON value";
}

/** The value `raw` gives an input, or why it cannot take it. */
export function valueFor(
  name: string,
  raw: unknown,
  el: Described,
): { value: unknown } | { problem: string } {
  const got = (v: unknown) => JSON.stringify(v) ?? String(v);
  let value: unknown;
  try {
    value = coerce(raw, el.value);
  } catch {
    return { problem: `${name} expects ${inputExpects(el)}, got ${got(raw)}` };
  }
  if (typeof el.offers === "function" && !el.offers(value))
    return { problem: `${name} expects ${inputExpects(el)}, got ${got(value)}` };
  return { value };
}

/**
 * The lines to print for a `--set` that went wrong: one per name no input has and per value an input could not
 * take, then the list of inputs and their types. None when every name was an input and every value fit.
 */
export function setInputProblems(
  set: Record<string, unknown>,
  inputs: ReadonlyMap<string, Described>,
  problems: ReadonlyMap<string, string>,
): string[] {
  const lines: string[] = [];
  for (const [name, raw] of Object.entries(set)) {
    const shown = `--set ${name}=${typeof raw === "string" ? raw : JSON.stringify(raw)}`;
    if (!inputs.has(name)) lines.push(`${shown}: the notebook has no input named ${name}`);
    else if (problems.has(name)) lines.push(`${shown}: ${problems.get(name)}`);
  }
  if (!lines.length) return lines;
  const list = [...inputs].map(
    ([name, el]) => `${name} (${el.kind ? `${el.kind}: ` : ""}${inputExpects(el)})`,
  );
  lines.push(`the notebook's inputs: ${list.join(", ") || "none"}`);
  return lines;
}
