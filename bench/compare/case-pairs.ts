// The buggy-against-healthy pair of every case notebook (notebooks/cases/*.md): the healthy side is the front
// matter's `healthy:` runs, the buggy side its `runs:` less those, and the planted change is read from each buggy
// run's ground_truth.json (sim-pairs.ts's rule: the task group, view, UI event or method the case is about). Used
// by test/cells/compare/case-notebooks.test.ts and the accuracy bench.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Table } from "apache-arrow";
import { readBundleFolder } from "../../bundle/node-io";
import type { TableName } from "../../bundle/schema";
import type { CompareRow } from "../../cells/compare/compare-metric";
import { parseNotebook } from "../../workspace/notebook/format";
import { plantedOf, type CompareFamily, type TruthRun } from "./sim-pairs";

export const CASES_DIR = join(import.meta.dirname, "../../notebooks/cases");

export interface CasePair {
  notebook: string;
  family: CompareFamily;
  healthy: string[];
  buggy: string[];
}

const FAMILIES: readonly CompareFamily[] = ["diagdroid", "draw", "dune", "androscope"];

/** A front-matter list field (`[a, b]` or `- item` lines) as folders relative to the notebook. */
function listField(nb: string, key: string): string[] {
  const fm = parseNotebook(readFileSync(nb, "utf8")).frontMatter;
  const field = fm?.fields.find(([k]) => k === key);
  if (!field) return [];
  const list = parseNotebook(`---\nruns:${field[1]}\n---\n`).frontMatter!.runs;
  return list.map((entry) => {
    if (/[*?[]/.test(entry)) throw new Error(`${nb}: ${key}: a glob (${entry}) is not a run folder`);
    return join(dirname(nb), entry);
  });
}

/** Every case notebook's pair, in file-name order. */
export function casePairs(dir = CASES_DIR): CasePair[] {
  return readdirSync(dir)
    .filter((n) => n.endsWith(".md"))
    .sort()
    .map((name) => {
      const nb = join(dir, name);
      const runs = listField(nb, "runs");
      const healthy = listField(nb, "healthy");
      const tags = listField(nb, "tags").map((t) => t.slice(dirname(nb).length + 1));
      const family = FAMILIES.find((f) => tags.includes(f));
      if (!family) throw new Error(`${nb}: tags name none of ${FAMILIES.join(", ")}`);
      return { notebook: name, family, healthy, buggy: runs.filter((r) => !healthy.includes(r)) };
    });
}

/** Whether a row names the planted change of any of the pair's buggy runs (from their ground truth). */
export async function casePlanted(pair: CasePair): Promise<(row: CompareRow) => boolean> {
  const tests: ((row: CompareRow) => boolean)[] = [];
  for (const dir of pair.buggy) {
    const truthFile = join(dir, "ground_truth.json");
    if (!existsSync(truthFile)) throw new Error(`${dir}: no ground_truth.json to find the planted change in`);
    const truth = JSON.parse(readFileSync(truthFile, "utf8")) as TruthRun["truth"] & {
      cases: { case: string }[];
    };
    const bundle = await readBundleFolder(dir);
    const table = (n: TableName): Table | undefined => bundle.tables.get(n);
    const run: TruthRun = { truth, renderOps: table("render_ops"), uiEvents: table("ui_events") };
    tests.push(plantedOf({ family: pair.family, name: truth.cases[0]!.case }, run));
  }
  return (row) => tests.some((t) => t(row));
}
