// The two sides of a comparison: A, the baseline, and B, the candidate, each one run or a set of runs, named by
// run id. The command line picks them from run folders, folders of runs, globs, or a lake slice written as a
// filter over the runs' context columns, e.g. `app_version=2.1.0 device_model="Pixel 7"`.

export interface Sides {
  a: readonly string[];
  b: readonly string[];
}

/** The runs' context columns a lake filter may name (the runs table, as the lake's run_summary holds them). */
export const FILTER_COLUMNS = [
  "run_id",
  "app",
  "app_version",
  "scenario",
  "device_model",
  "manufacturer",
  "sdk_release",
  "api_level",
  "cpu_abi",
  "network",
] as const;
export type FilterColumn = (typeof FILTER_COLUMNS)[number];

export interface FilterTerm {
  column: FilterColumn;
  value: string;
}

/**
 * Parses `column=value column="value with spaces" ...` (terms joined by AND). Errors name the offset and what
 * was wrong; an empty filter selects every run.
 */
export function parseRunFilter(text: string): FilterTerm[] {
  const terms: FilterTerm[] = [];
  let i = 0;
  const fail = (what: string): never => {
    throw new Error(`filter "${text}" at offset ${i}: ${what}`);
  };
  while (i < text.length) {
    if (/\s/.test(text[i]!)) {
      i++;
      continue;
    }
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i));
    if (!m) fail("expected a column name");
    const column = m![0];
    if (!(FILTER_COLUMNS as readonly string[]).includes(column))
      fail(`unknown column ${column} (one of ${FILTER_COLUMNS.join(", ")})`);
    i += column.length;
    if (text[i] !== "=") fail(`expected = after ${column}`);
    i++;
    let value = "";
    if (text[i] === '"') {
      const close = text.indexOf('"', i + 1);
      if (close < 0) fail("unterminated quoted value");
      value = text.slice(i + 1, close);
      i = close + 1;
    } else {
      const end = text.slice(i).search(/\s|$/);
      value = text.slice(i, i + end);
      if (!value) fail(`expected a value for ${column}`);
      i += end;
    }
    if (i < text.length && !/\s/.test(text[i]!)) fail("expected a space between terms");
    terms.push({ column: column as FilterColumn, value });
  }
  return terms;
}

/** Whether a run's context matches every term (values compared as text). */
export const matchesFilter = (terms: readonly FilterTerm[], context: Partial<Record<string, unknown>>) =>
  terms.every(
    (t) =>
      context[t.column] !== undefined && context[t.column] !== null && String(context[t.column]) === t.value,
  );

/** Refuses sides that cannot be compared: an empty side, or a run on both sides. */
export function checkSides(sides: Sides): Sides {
  if (!sides.a.length) throw new Error("side A has no runs");
  if (!sides.b.length) throw new Error("side B has no runs");
  const both = sides.a.filter((r) => sides.b.includes(r));
  if (both.length) throw new Error(`run ${both.join(", ")} is on both sides`);
  return sides;
}
