// A notebook's cell values as plain JSON, the same shape in the browser and headless: the parity check
// (test/browser/parity.test.ts) compares two of these. Tables become their columns, types and first rows;
// plots their spec and row count; inputs their value; numbers are kept exactly (NaN/±Infinity and bigint
// become tagged strings); functions are just "function". Arrays, maps, sets and typed arrays keep their first
// `maxItems` items (100 here, every one in a JSON report) and say so when they have more: nothing is cut silently.
import { classifyDisplay, isTable } from "./display-kind";
import type { NotebookRuntime } from "./runtime";

export interface CellSnapshot {
  id: string;
  kind: string;
  name?: string;
  status: string;
  error?: string;
  /** value of every name the cell defines */
  values: Record<string, unknown>;
  /** the cell's own value (sql: its table; expression cells: the expression) */
  value?: unknown;
  displays: unknown[];
  checks: { name: string; ok: boolean; detail?: string }[];
}

export interface NotebookSnapshot {
  cells: CellSnapshot[];
  inputs: { name: string; value: unknown }[];
}

const HEAD_ROWS = 20;

export async function snapshotNotebook(rt: NotebookRuntime): Promise<NotebookSnapshot> {
  await rt.settled();
  const cells: CellSnapshot[] = [];
  for (const s of rt.states()) {
    const values: Record<string, unknown> = {};
    if (s.status === "fulfilled")
      for (const name of s.defines)
        values[name] = snapshotValue(await rt.value(name).catch((e: Error) => ({ error: e.message })));
    cells.push({
      id: s.id,
      kind: s.kind,
      name: s.name,
      status: s.status,
      error: s.error,
      values,
      value: s.kind === "sql" || !s.defines.length ? snapshotValue(s.value) : undefined,
      displays: s.displays.map((d) => snapshotValue(d)),
      checks: s.checks.map((c) => ({ name: c.name, ok: c.ok, detail: c.detail })),
    });
  }
  return { cells, inputs: rt.inputs().map((i) => ({ name: i.name, value: snapshotValue(i.value) })) };
}

/** A list cut to its first `maxItems`: the items, and when some are left out, how many there were. */
function listed<K extends string>(key: K, items: unknown[], total: number, maxItems: number) {
  if (total <= maxItems) return { [key]: items } as Record<K, unknown[]>;
  return {
    [key]: items,
    total,
    truncated: `first ${maxItems.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} items`,
  } as Record<K, unknown[]> & { total: number; truncated: string };
}

export function snapshotValue(v: unknown, depth = 0, maxItems = 100): unknown {
  if (v === null || v === undefined) return v ?? null;
  switch (typeof v) {
    case "number":
      return Number.isFinite(v) ? v : `number:${v}`;
    case "bigint":
      return `bigint:${v}`;
    case "string":
    case "boolean":
      return v;
    case "function":
      return "function"; // not its name: the workspace's production bundle renames functions (Plot's `nonempty` -> `Qm`)
    case "symbol":
      return `symbol:${String(v)}`;
  }
  if (depth > 6) return "… (nested more than 6 levels deep)";
  if (v instanceof Date) return `date:${v.toISOString()}`;
  const item = (x: unknown) => snapshotValue(x, depth + 1, maxItems);
  const d = classifyDisplay(v);
  switch (d.kind) {
    case "table": {
      const t = d.value;
      const fields = t.schema.fields;
      const rows: unknown[][] = [];
      for (let i = 0; i < Math.min(HEAD_ROWS, t.numRows); i++)
        rows.push(fields.map((f) => item(t.getChild(f.name)?.get(i))));
      return { table: { numRows: t.numRows, columns: fields.map((f) => [f.name, String(f.type)]), rows } };
    }
    case "plot-spec": {
      const { data, extra, under, over, ...rest } = d.value;
      return {
        plot: {
          ...rest,
          rows: isTable(data) ? data.numRows : Array.isArray(data) ? data.length : null,
          extra: extra?.length ?? 0,
          // A paper chart's fixed layers by mark, not their rows (a frame timeline's would copy every frame).
          ...(under || over ? { layers: [...(under ?? []), ...(over ?? [])].map((l) => l.mark) } : {}),
        },
      };
    }
    case "markdown":
      return { markdown: d.value.text };
    // An input element (real @observablehq/inputs form, headless stand-in, or a brush): its value is what matters.
    case "timeline":
    case "brush":
    case "input":
      return { input: item(d.value.value) };
    case "node":
      return { node: String(d.value.nodeName) };
  }
  const o = v as Record<string, unknown>;
  if (ArrayBuffer.isView(v)) {
    // Only the items kept are copied: a 200 MB typed array is not copied whole into a JS array first.
    const typed = v instanceof DataView ? null : (v as unknown as ArrayLike<number | bigint> & SubArray);
    const total = typed ? typed.length : 0;
    return listed(
      "typed",
      typed ? Array.from(typed.subarray(0, maxItems), (x) => snapshotValue(x)) : [],
      total,
      maxItems,
    );
  }
  if (Array.isArray(v)) {
    const list = v.slice(0, maxItems).map(item);
    return v.length <= maxItems ? list : listed("items", list, v.length, maxItems);
  }
  if (v instanceof Map)
    return listed(
      "map",
      [...v].slice(0, maxItems).map(([k, x]) => [item(k), item(x)]),
      v.size,
      maxItems,
    );
  if (v instanceof Set) return listed("set", [...v].slice(0, maxItems).map(item), v.size, maxItems);
  if (
    typeof (o as { toJSON?: unknown }).toJSON === "function" &&
    typeof (o as { get?: unknown }).get === "function"
  )
    return item((o as { toJSON(): unknown }).toJSON()); // Arrow row proxies
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(o)) out[k] = item(x);
  return out;
}

type SubArray = { subarray(a: number, b: number): ArrayLike<number | bigint> };
