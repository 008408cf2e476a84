import { describe, expect, it } from "vitest";
import { createNodeEngine } from "../../../workspace/db/node/duckdb-node";
import { suiteEngine } from "../../support/suite-engine";
import { bindSqlTemplate, parseSqlTemplate, sqlTag } from "../../../workspace/notebook/sql-template";

describe("parseSqlTemplate", () => {
  it.each([
    ["SELECT ${a}", ["SELECT ", ""], ["a"]],
    ["SELECT ${f({k: 1})} + ${`x${y}`}", ["SELECT ", " + ", ""], ["f({k: 1})", "`x${y}`"]],
    [
      "SELECT '$' || ${a} -- ${not_a_param}\n/* ${nor} */",
      ["SELECT '$' || ", " -- ${not_a_param}\n/* ${nor} */"],
      ["a"],
    ],
    ["SELECT 'it''s' AS \"col\"\"x\", ${b}", ["SELECT 'it''s' AS \"col\"\"x\", ", ""], ["b"]],
    ["SELECT 1", ["SELECT 1"], []],
  ])("%s", (src, parts, exprs) => {
    expect(parseSqlTemplate(src)).toEqual({ parts, expressions: exprs });
  });

  it.each([
    ["SELECT '${a}'", /inside a quoted SQL string/],
    ["SELECT ${a", /unclosed/],
    ["SELECT ${ }", /empty/],
  ])("refuses %s", (src, message) => {
    expect(() => parseSqlTemplate(src)).toThrow(message);
  });

  it("binds values to placeholders in order and refuses what cannot be bound", () => {
    const t = parseSqlTemplate("SELECT ${a}, ${b}, ${c}, ${d}");
    expect(bindSqlTemplate(t, [1, "x", true, null])).toEqual({
      sql: "SELECT ?, ?, ?, ?",
      params: [1, "x", true, null],
    });
    expect(bindSqlTemplate(parseSqlTemplate("${n}"), [5n]).params).toEqual([5]);
    expect(() => bindSqlTemplate(parseSqlTemplate("${xs}"), [[1, 2]])).toThrow(/cannot bind a array/);
    expect(() => bindSqlTemplate(parseSqlTemplate("${big}"), [2n ** 60n])).toThrow(/outside the range/);
    expect(sqlTag`SELECT ${1} + ${2}`).toEqual({ sql: "SELECT ? + ?", params: [1, 2] });
  });
});

describe("bound parameters in DuckDB", () => {
  const engine = suiteEngine(createNodeEngine);

  it("a hostile string is a value, never SQL", async () => {
    // the table the hostile string tries to drop, made here: no other test uses it
    await engine.query("CREATE TABLE victims (name VARCHAR)");
    await engine.query("INSERT INTO victims VALUES ('alice'), ('bob')");
    const hostile = "x'); DROP TABLE victims; --";
    const b = bindSqlTemplate(
      parseSqlTemplate(
        "SELECT ${name} AS v, (SELECT count(*)::INTEGER FROM victims WHERE name = ${name}) AS n",
      ),
      [hostile, hostile],
    );
    expect(b.sql).not.toContain("DROP");
    const t = await engine.query(b.sql, b.params);
    expect(t.getChild("v")!.get(0)).toBe(hostile);
    expect(t.getChild("n")!.get(0)).toBe(0);
    const left = await engine.query("SELECT count(*)::INTEGER AS n FROM victims");
    expect(left.getChild("n")!.get(0)).toBe(2);
  });

  it("numbers compare as numbers", async () => {
    const b = bindSqlTemplate(
      parseSqlTemplate("SELECT count(*)::INTEGER AS n FROM range(10) t(i) WHERE i >= ${lo}"),
      [7],
    );
    expect((await engine.query(b.sql, b.params)).getChild("n")!.get(0)).toBe(3);
  });
});
