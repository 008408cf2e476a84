import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createNativeEngine } from "../../workspace/db/node/duckdb-native";
import { suiteEngine } from "../support/suite-engine";
import { checkSql, firstKeyword, RefusedSql } from "../../workspace/db/sql-guard";

const FUNCTIONS = [
  "read_csv",
  "read_csv_auto",
  "read_parquet",
  "read_json",
  "read_text",
  "read_blob",
  "parquet_scan",
  "glob",
];

/** The ways notebook SQL could hide a call from a naive scan; DuckDB reads each as the same function. */
const disguise = (fn: string, style: number) =>
  [
    `${fn}('/etc/passwd')`,
    `"${fn}"('/etc/passwd')`,
    `${fn.toUpperCase()} ( '/etc/passwd' )`,
    `${fn}/* ) */('/etc/passwd')`,
    `${fn}\n-- comment ) 'x'\n('/etc/passwd')`,
  ][style]!;

/** Where the call can sit in a query. */
const place = (call: string, where: number) =>
  [
    `SELECT * FROM ${call}`,
    `SELECT 1 AS a WHERE 1 IN (SELECT 1 FROM ${call})`,
    `WITH c AS (SELECT * FROM ${call}) SELECT * FROM c`,
    `SELECT (SELECT count(*) FROM ${call}) AS n`,
    `SELECT * FROM t, LATERAL (SELECT * FROM ${call}) AS l`,
    `SELECT 1 AS a UNION ALL SELECT 1 FROM ${call}`,
  ][where]!;

describe("checkSql (DuckDB's parse tree)", () => {
  const engine = suiteEngine(
    createNativeEngine,
    "CREATE TABLE t AS SELECT 1 AS a",
    "SET enable_external_access = false",
  );

  it("refuses a file function however it is written and wherever it sits", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...FUNCTIONS),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 5 }),
        async (fn, style, where) => {
          const sql = place(disguise(fn, style), where);
          const e = await checkSql(engine, sql).then(
            () => null,
            (x: Error) => x,
          );
          expect(e).toBeInstanceOf(RefusedSql);
          expect(e!.message).toContain(`${fn}() reads files`);
        },
      ),
      { numRuns: 120 },
    );
  });

  it("lets through queries that only mention those words in literals, comments or column aliases", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("COPY", "ATTACH", "read_csv('/etc/passwd')", "INSTALL httpfs"),
        async (w) => {
          const literal = w.replace(/'/g, "''");
          const sql = `-- ${w}\nSELECT '${literal}' AS s /* ${w} */ FROM t`;
          await checkSql(engine, sql);
          const r = await engine.query(sql);
          expect(r.getChild("s")!.get(0)).toBe(w);
        },
      ),
    );
  });

  it("whatever it lets through never asks the engine for a file (external access off as the oracle)", async () => {
    // Small queries from a grammar whose sources may reach files, with comments dropped between the tokens.
    const gap = fc.constantFrom(" ", "\n", " /* ) */ ", " -- '\n", "  ");
    const { src } = fc.letrec((tie) => ({
      src: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.constantFrom(
          "t",
          "'/etc/passwd'",
          "read_csv('/etc/passwd')",
          "\"read_text\"('/etc/hostname')",
          "glob('/etc/*')",
          "range(3) r(a)",
        ),
        fc.tuple(tie("src"), gap).map(([x, g]) => `(SELECT *${g}FROM ${x})`),
      ),
    }));
    const query = fc
      .tuple(src, gap, fc.constantFrom("", " WHERE 1 = 1", " LIMIT 1"), fc.boolean())
      .map(([from, g, tail, cte]) =>
        cte
          ? `WITH c AS (SELECT *${g}FROM ${from}) SELECT * FROM c${tail}`
          : `SELECT *${g}FROM ${from}${tail}`,
      );
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(query, async (sql) => {
        const allowed = await checkSql(engine, sql).then(
          () => true,
          (e: Error) => {
            if (e instanceof RefusedSql) refused++;
            return false;
          },
        );
        if (!allowed) return;
        const e = await engine.query(sql).then(
          () => null,
          (x: Error) => x,
        );
        expect(e?.message ?? "").not.toMatch(/file system operations are disabled|Permission Error/);
      }),
      { numRuns: 400 },
    );
    expect(refused).toBeGreaterThan(50); // the generator does produce file-reaching queries
  });

  it("names the statement it refuses, past leading comments", () => {
    expect(firstKeyword("/* x */ -- y\n  copy t TO 'x'")).toBe("COPY");
    expect(firstKeyword("attach 'x'")).toBe("ATTACH");
  });
});
