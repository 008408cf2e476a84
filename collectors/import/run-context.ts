// One run's context from several files, and `--context key=value` overrides, checked against the
// runs table's columns (bundle/schema.ts): an unknown key or a value of the wrong kind is an error.
import type { RunContext } from "../../bundle/manifest";

type Kind = "text" | "int" | "float";
const KEYS: Record<keyof RunContext, { kind: Kind; min?: number; max?: number }> = {
  app: { kind: "text" },
  app_version: { kind: "text" },
  scenario: { kind: "text" },
  device_model: { kind: "text" },
  manufacturer: { kind: "text" },
  sdk_release: { kind: "text" },
  api_level: { kind: "int", min: 1, max: 1000 },
  cpu_abi: { kind: "text" },
  screen_width: { kind: "int", min: 1, max: 100_000 },
  screen_height: { kind: "int", min: 1, max: 100_000 },
  refresh_hz: { kind: "float", min: 1, max: 1000 },
  network: { kind: "text" },
  battery_level: { kind: "int", min: 0, max: 100 },
};

export const CONTEXT_KEYS = Object.keys(KEYS) as (keyof RunContext)[];

/** `key=value` pairs to context fields; `screen=1080x2400` sets both screen fields. */
export function parseContextOverrides(pairs: readonly string[]): Partial<RunContext> {
  const out: Record<string, string | number> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new Error(`--context ${JSON.stringify(pair)}: expected key=value`);
    const key = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (key === "screen") {
      const m = /^(\d{1,6})x(\d{1,6})$/.exec(value);
      if (!m || Number(m[1]) < 1 || Number(m[2]) < 1)
        throw new Error(`--context screen=${value}: expected WIDTHxHEIGHT in pixels, e.g. 1080x2400`);
      out.screen_width = Number(m[1]);
      out.screen_height = Number(m[2]);
      continue;
    }
    const spec = KEYS[key as keyof RunContext];
    if (!spec)
      throw new Error(`--context ${key}: unknown key; known keys: ${[...CONTEXT_KEYS, "screen"].join(", ")}`);
    if (value === "") throw new Error(`--context ${key}: empty value`);
    if (spec.kind === "text") {
      out[key] = value;
      continue;
    }
    const n = Number(value);
    const ok =
      /^-?\d+(\.\d+)?$/.test(value) &&
      (spec.kind === "float" || Number.isInteger(n)) &&
      n >= spec.min! &&
      n <= spec.max!;
    if (!ok)
      throw new Error(
        `--context ${key}=${value}: expected ${spec.kind === "int" ? "an integer" : "a number"} from ${spec.min} to ${spec.max}`,
      );
    out[key] = n;
  }
  return out as Partial<RunContext>;
}

const known = (v: unknown) => v !== null && v !== undefined && v !== "" && v !== "unknown";

/**
 * Context fields from files in order: the first file that knows a field sets it; a later file that
 * disagrees is reported. Overrides win over every file.
 */
export function mergeContexts(
  parts: readonly { file: string; context: Partial<RunContext> }[],
  overrides: Partial<RunContext> = {},
): { context: RunContext; warnings: string[] } {
  const out: Record<string, unknown> = {};
  const from: Record<string, string> = {};
  const warnings: string[] = [];
  for (const { file, context } of parts)
    for (const key of CONTEXT_KEYS) {
      const v = context[key];
      if (!known(v) || key === "scenario") continue;
      if (!(key in out)) {
        out[key] = v;
        from[key] = file;
      } else if (out[key] !== v && !(key in overrides))
        warnings.push(
          `${file}: ${key} ${JSON.stringify(v)} differs from ${JSON.stringify(out[key])} in ${from[key]}; kept the first`,
        );
    }
  for (const [k, v] of Object.entries(overrides)) out[k] = v;
  return { context: { app: "unknown", ...out } as RunContext, warnings };
}
