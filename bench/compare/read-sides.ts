// Both sides' run folders read in process, without a database: each table of every run decoded by apache-arrow
// and the runs' batches put together, as compareRuns takes them. The tests and the accuracy bench use it (loading
// dozens of small runs into DuckDB costs far more than comparing them); `jankbook compare` loads through the
// run loader instead, and a test checks both give the same list.
import { RecordBatch, Table } from "apache-arrow";
import type { CompareTables } from "../../cells/compare/compare-runs";
import type { Sides } from "../../cells/compare/sides";
import { readBundleFolder } from "../../bundle/node-io";

const CONCAT = [
  "frames",
  "ui_events",
  "tasks",
  "contexts",
  "slices",
  "calls",
  "methods",
  "thread_states",
  "frame_timeline",
] as const;

export async function readSides(
  a: readonly string[],
  b: readonly string[],
): Promise<{ sides: Sides; tables: CompareTables }> {
  const parts = new Map<string, Table[]>();
  const ops = new Map<string, Table>();
  const screens = new Map<string, { width: number; height: number }>();
  const apps = new Map<string, string>();
  const ids = async (dirs: readonly string[]) => {
    const out: string[] = [];
    for (const dir of dirs) {
      const bundle = await readBundleFolder(dir);
      if (bundle.errors.length) throw new Error(`${dir}: ${bundle.errors.map((e) => e.message).join("; ")}`);
      const id = bundle.manifest.run_id;
      out.push(id);
      for (const [name, t] of bundle.tables) {
        if (name === "render_ops") ops.set(id, t);
        else parts.set(name, [...(parts.get(name) ?? []), t]);
      }
      const ctx = bundle.manifest.context;
      if (ctx?.app) apps.set(id, ctx.app);
      if (ctx?.screen_width && ctx.screen_height)
        screens.set(id, { width: ctx.screen_width, height: ctx.screen_height });
    }
    return out;
  };
  const sides = { a: await ids(a), b: await ids(b) };
  const tables: CompareTables = { render_ops: ops, screens, apps };
  for (const name of CONCAT) {
    const list = parts.get(name);
    // one table of every run's batches, under the first run's schema (the same columns: bundle/schema.ts; each
    // batch keeps its own dictionaries, which the column reader reads per chunk)
    if (list?.length) {
      const schema = list[0]!.schema;
      tables[name] = new Table(
        schema,
        list.flatMap((t) => t.batches.map((b) => new RecordBatch(schema, b.data))),
      );
    }
  }
  return { sides, tables };
}
