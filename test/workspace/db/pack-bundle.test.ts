import { cp, mkdtemp, readFile, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tableFromArrays, tableToIPC, type Table } from "apache-arrow";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { suiteConnection } from "../../support/suite-connection";
import { encodeStream } from "../../../bundle/encode-stream";
import { newManifest } from "../../../bundle/manifest";
import { readBundleFolder, writeBundleFolder } from "../../../bundle/node-io";
import { PACK_FILE, packBundle } from "../../../workspace/db/node/pack-bundle";
import { tableSpec } from "../../../bundle/schema";
import { makeBundleTable, type ColumnValues } from "../../../bundle/table-builder";
import { fcRuns } from "../../support/fc-runs";

const SAMPLES = "workspace/public/samples";

const conn = suiteConnection();
let attached = 0;

/** Attaches a packed file read-only in a native DuckDB of the test's own; returns its alias. */
async function attach(dir: string): Promise<string> {
  const alias = `t${++attached}`;
  await conn.run(`ATTACH '${join(dir, PACK_FILE)}' AS ${alias} (READ_ONLY)`);
  return alias;
}

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return (await conn.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
}

/** An Arrow value as DuckDB's JS conversion gives it back: lists as arrays, everything else as is. */
function plain(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === "object" && v !== null && "toArray" in v)
    return [...(v as { toArray(): unknown[] }).toArray()];
  return v;
}

/** Per column, computed from the decoded Arrow table: non-null count and the sum a DuckDB aggregate gives. */
function arrowSums(table: Table): Record<string, { n: number; sum: bigint | number }> {
  const out: Record<string, { n: number; sum: bigint | number }> = {};
  for (const field of table.schema.fields) {
    const column = table.getChild(field.name)!;
    let n = 0;
    let sum: bigint | number = 0;
    let big = 0n;
    for (let i = 0; i < table.numRows; i++) {
      const v = column.get(i);
      if (v === null) continue;
      n++;
      if (typeof v === "bigint") big += v;
      else if (typeof v === "number") sum += v;
      else if (typeof v === "boolean") sum += v ? 1 : 0;
      else if (typeof v === "string") sum += new TextEncoder().encode(v).length;
      else sum += (v as { length: number }).length;
    }
    out[field.name] = { n, sum: big !== 0n ? big : sum };
  }
  return out;
}

/** The same per-column figures from the packed database, in SQL. */
async function duckSums(alias: string, table: string, columns: string[]) {
  const spec = tableSpec(table).columns;
  const parts = columns.flatMap((c) => {
    const type = spec.find((s) => s.name === c)?.type;
    const q = `"${c}"`;
    const sum =
      type === "utf8"
        ? `sum(strlen(${q}))`
        : type === "list<utf8>"
          ? `sum(len(${q}))`
          : type === "bool"
            ? `sum(${q}::INTEGER)`
            : `sum(${q})`;
    return [`count(${q}) AS "n:${c}"`, `${sum} AS "s:${c}"`];
  });
  const [r] = await rows(`SELECT count(*) AS rows, ${parts.join(", ")} FROM ${alias}.main."${table}"`);
  return r!;
}

async function copyOf(run: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "jb-pack-"));
  await cp(join(SAMPLES, run), dir, { recursive: true });
  return dir;
}

describe("packBundle", () => {
  it("puts every table and row of every sample run's Arrow files into run.duckdb (sums computed from the Arrow files)", async () => {
    const runs = JSON.parse(await readFile(join(SAMPLES, "index.json"), "utf8")) as string[];
    expect(runs.length).toBeGreaterThan(10);
    for (const run of runs) {
      const dir = await copyOf(run);
      const { manifest, errors } = await packBundle(dir);
      expect(errors, run).toEqual([]);
      const bundle = await readBundleFolder(dir);
      expect(bundle.errors).toEqual([]);
      const alias = await attach(dir);
      const inDb = await rows(
        `SELECT table_name, estimated_size AS n FROM duckdb_tables() WHERE database_name = '${alias}' AND schema_name = 'main' ORDER BY 1`,
      );
      // runs (from the manifest) plus one table per Arrow file, nothing else
      expect(inDb.map((r) => r.table_name)).toEqual([...bundle.tables.keys()].sort());
      expect(manifest.database!.tables).toEqual(
        Object.fromEntries([...bundle.tables].map(([name, t]) => [name, t.numRows])),
      );
      for (const [name, table] of bundle.tables) {
        const columns = table.schema.fields.map((f) => f.name);
        const want = arrowSums(table);
        const got = await duckSums(alias, name, columns);
        expect(Number(got.rows), `${run} ${name}`).toBe(table.numRows);
        for (const c of columns) {
          expect(Number(got[`n:${c}`]), `${run} ${name}.${c} count`).toBe(want[c]!.n);
          const sum = got[`s:${c}`] ?? 0;
          if (typeof want[c]!.sum === "bigint")
            expect(BigInt(sum as bigint), `${name}.${c}`).toBe(want[c]!.sum);
          else expect(Number(sum), `${run} ${name}.${c} sum`).toBeCloseTo(want[c]!.sum as number, 6);
        }
      }
    }
  });

  it("keeps every value exactly, across chunk edges, dictionaries, nulls and lists (property)", async () => {
    const text = fc.string({ unit: "grapheme", maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 1, max: 3000 }),
        fc.array(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.option(fc.array(text, { maxLength: 3 }), { nil: null }), { maxLength: 40 }),
        fc.integer(),
        async (n, batchRows, words, stacks, seed) => {
          const dir = await mkdtemp(join(tmpdir(), "jb-pack-prop-"));
          const rnd = (i: number) => Math.imul(seed ^ i, 2654435761) >>> 0;
          const ui = makeBundleTable(
            "ui_events",
            "prop",
            {
              ts: Array.from({ length: n }, (_, i) => BigInt(rnd(i)) * -3_000_000_007n),
              seq: Int32Array.from({ length: n }, (_, i) => rnd(i) | 0),
              kind: {
                dictionary: words,
                indices: Int8Array.from({ length: n }, (_, i) => rnd(i) % words.length),
              },
              target: Array.from({ length: n }, (_, i) => (rnd(i) % 3 ? `v${rnd(i) % 997}é` : null)),
            },
            n,
          );
          const render = makeBundleTable(
            "render_ops",
            "prop",
            Object.fromEntries(
              tableSpec("render_ops")
                .columns.filter((c) => c.name !== "run_id")
                .map((c) => [
                  c.name,
                  Array.from({ length: n }, (_, i) =>
                    c.nullable && rnd(i + 7) % 4 === 0
                      ? null
                      : c.type === "bool"
                        ? rnd(i + c.name.length) % 2 === 0
                        : c.type === "utf8"
                          ? `${c.name}${rnd(i) % 13}`
                          : c.type === "int64"
                            ? BigInt(rnd(i)) << 20n
                            : (rnd(i) % 100_000) - 50_000,
                  ),
                ]),
            ) as Record<string, ColumnValues>,
            n,
          );
          const contexts = makeBundleTable(
            "contexts",
            "prop",
            {
              context_id: Int32Array.from(stacks, (_, i) => i),
              frames: stacks.map((s) => s ?? []),
            },
            stacks.length,
          );
          const manifest = newManifest("prop", { app: "prop" });
          await writeBundleFolder(dir, manifest, {});
          const tables = { ui_events: ui, render_ops: render, contexts };
          for (const [name, t] of Object.entries(tables))
            await writeFile(join(dir, `${name}.arrows`), encodeStream(t, batchRows));
          await writeFile(
            join(dir, "manifest.json"),
            JSON.stringify({
              ...manifest,
              tables: Object.fromEntries(
                Object.entries(tables).map(([k, t]) => [k, { file: `${k}.arrows`, rows: t.numRows }]),
              ),
            }),
          );
          const { errors } = await packBundle(dir);
          expect(errors).toEqual([]);
          const alias = await attach(dir);
          for (const [name, t] of Object.entries(tables)) {
            const got = await rows(`SELECT * FROM ${alias}.main."${name}" ORDER BY rowid`);
            expect(got.length).toBe(t.numRows);
            for (let i = 0; i < t.numRows; i++)
              for (const f of t.schema.fields)
                expect(got[i]![f.name], `${name}[${i}].${f.name}`).toEqual(plain(t.getChild(f.name)!.get(i)));
          }
          await conn.run(`DETACH ${alias}`);
        },
      ),
      { numRuns: fcRuns(12, 3), seed: 18 },
    );
  });

  it("keeps the whole batches of a cut table, leaves out a mistyped one, and names file and column in the manifest", async () => {
    const dir = await mkdtemp(join(tmpdir(), "jb-pack-bad-"));
    const n = 200_000;
    await writeBundleFolder(dir, newManifest("bad", { app: "bad" }), {
      ui_events: makeBundleTable(
        "ui_events",
        "bad",
        {
          ts: Array.from({ length: n }, (_, i) => i),
          seq: Int32Array.from({ length: n }, (_, i) => i),
          kind: Array.from({ length: n }, () => "click"),
        },
        n,
      ),
      contexts: makeBundleTable("contexts", "bad", { context_id: Int32Array.of(1), frames: [["a"]] }, 1),
    });
    // cut ui_events inside its third 65,536-row batch
    const bytes = await readFile(join(dir, "ui_events.arrows"));
    await writeFile(join(dir, "ui_events.arrows"), bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    await writeFile(
      join(dir, "contexts.arrows"),
      tableToIPC(tableFromArrays({ run_id: ["bad"], context_id: new Float64Array(1) }), "stream"),
    );
    const { manifest, errors } = await packBundle(dir);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(
      /ui_events\.arrows: table ui_events: cut or corrupt Arrow stream after 1 whole record batches \(65536 rows kept\)/,
    );
    expect(errors[1]).toMatch(
      /contexts\.arrows: table contexts: column context_id is float64, expected int32/,
    );
    expect(manifest.database!.tables).toEqual({ runs: 1, ui_events: 65_536 });
    expect(manifest.database!.errors).toEqual(errors);
    const written = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8"));
    expect(written.database.errors).toEqual(errors);
    const alias = await attach(dir);
    const [r] = await rows(`SELECT count(*) AS n, sum(seq) AS s FROM ${alias}.ui_events`);
    expect(Number(r!.n)).toBe(65_536);
    expect(Number(r!.s)).toBe((65_535 * 65_536) / 2);
    expect(await readdir(dir)).not.toContain(`${PACK_FILE}.tmp`);
  });
});
