// `${expr}` inside a SQL cell is a bound parameter, never spliced text (docs/architecture.md, "Decisions";
// the Perfetto habit of pasting values into SQL is what we avoid). A SQL cell's text is split once into
// literal parts and expressions; at run time each expression's value is bound to a `?` placeholder, in order.
//
//   parseSqlTemplate("SELECT * FROM tasks WHERE dur > ${tauMs} * 1e6")
//     -> {parts: ["SELECT * FROM tasks WHERE dur > ", " * 1e6"], expressions: ["tauMs"]}
//   bindSqlTemplate(template, [500]) -> {sql: "SELECT * FROM tasks WHERE dur > ? * 1e6", params: [500]}
//   sql`SELECT ${x}` (the ts-cell builtin, see runtime.ts) binds the same way.
//
// Inside a quoted SQL string ('...') a `${` is refused with an error that says to drop the quotes (it could only
// ever become the literal text '?'); inside a -- or /* */ comment it is plain text.

export interface SqlTemplate {
  /** literal SQL between expressions: parts.length === expressions.length + 1 */
  parts: string[];
  /** JavaScript source of each `${...}` */
  expressions: string[];
}

export interface BoundSql {
  sql: string;
  params: unknown[];
}

export function parseSqlTemplate(source: string): SqlTemplate {
  const parts: string[] = [];
  const expressions: string[] = [];
  let current = "";
  let i = 0;
  const line = (at: number) => source.slice(0, at).split("\n").length;
  while (i < source.length) {
    const c = source[i]!;
    if (c === "'" || c === '"') {
      // SQL strings and quoted identifiers; a doubled quote escapes itself.
      let j = i + 1;
      while (j < source.length) {
        if (source[j] === c) {
          if (source[j + 1] === c) j += 2;
          else break;
        } else j++;
      }
      const quoted = source.slice(i, j + 1);
      if (quoted.includes("${"))
        throw new Error(
          `line ${line(i)}: \${...} inside a quoted SQL ${c === "'" ? "string" : "identifier"} is not a parameter; write ${"${x}"} without the quotes`,
        );
      current += quoted;
      i = j + 1;
      continue;
    }
    if (c === "-" && source[i + 1] === "-") {
      const end = source.indexOf("\n", i);
      const stop = end < 0 ? source.length : end;
      current += source.slice(i, stop);
      i = stop;
      continue;
    }
    if (c === "/" && source[i + 1] === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end < 0 ? source.length : end + 2;
      current += source.slice(i, stop);
      i = stop;
      continue;
    }
    if (c === "$" && source[i + 1] === "{") {
      const end = matchBrace(source, i + 2);
      if (end < 0) throw new Error(`line ${line(i)}: unclosed \${ in SQL`);
      const expr = source.slice(i + 2, end);
      if (expr.trim() === "") throw new Error(`line ${line(i)}: empty \${} in SQL`);
      parts.push(current);
      expressions.push(expr);
      current = "";
      i = end + 1;
      continue;
    }
    current += c;
    i++;
  }
  parts.push(current);
  return { parts, expressions };
}

/** Index of the `}` closing an expression that starts at `from`, skipping JS strings, templates and nested braces. */
function matchBrace(s: string, from: number): number {
  let depth = 0;
  let i = from;
  while (i < s.length) {
    const c = s[i]!;
    if (c === "'" || c === '"' || c === "`") {
      i++;
      while (i < s.length && s[i] !== c) {
        if (s[i] === "\\") i++;
        else if (c === "`" && s[i] === "$" && s[i + 1] === "{") {
          const end = matchBrace(s, i + 2);
          if (end < 0) return -1;
          i = end;
        }
        i++;
      }
      i++;
      continue;
    }
    if (c === "{") depth++;
    else if (c === "}") {
      if (depth === 0) return i;
      depth--;
    }
    i++;
  }
  return -1;
}

/** Turns a value into something DuckDB can bind: numbers, strings, booleans, null; bigint and Date converted. */
export function toSqlParam(value: unknown, expr: string): unknown {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case "number":
    case "string":
    case "boolean":
      return value;
    case "bigint":
      if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER))
        throw new Error(`\${${expr}}: bigint ${value} is outside the range DuckDB-WASM can bind exactly`);
      return Number(value);
  }
  if (value instanceof Date) return value.toISOString();
  throw new Error(
    `\${${expr}}: cannot bind a ${Array.isArray(value) ? "array" : typeof value} as a SQL parameter (bind numbers, strings, booleans or null)`,
  );
}

export function bindSqlTemplate(template: SqlTemplate, values: readonly unknown[]): BoundSql {
  let sql = template.parts[0]!;
  const params: unknown[] = [];
  for (let k = 0; k < template.expressions.length; k++) {
    params.push(toSqlParam(values[k], template.expressions[k]!));
    sql += "?" + template.parts[k + 1]!;
  }
  return { sql, params };
}

/** The tagged-template form (the `sql` builtin): sql`SELECT ... ${x}` -> bound SQL. */
export function sqlTag(strings: TemplateStringsArray, ...values: unknown[]): BoundSql {
  return bindSqlTemplate({ parts: [...strings], expressions: values.map((_, k) => `#${k + 1}`) }, values);
}
