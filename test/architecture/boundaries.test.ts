// The layers of the code and which may import which, as one table (docs/architecture.md, "Layers and allowed
// imports"): every source file maps to one layer by its path, and every import must follow the table.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

/** A layer: the path prefixes of its files (the longest match wins), the layers it may import, where it runs. */
interface Layer {
  paths: readonly string[];
  may: readonly LayerName[];
  /** "browser": part of the web app's build, so it may not pull in a node: module, even through another layer. */
  runs: "browser" | "node" | "both";
}

type LayerName =
  | "bundle"
  | "collectors"
  | "cells"
  | "engine"
  | "engine-node"
  | "charts"
  | "notebook"
  | "publish"
  | "app"
  | "node-host"
  | "export"
  | "cli";

/** The table. Data flows down it: a layer imports only layers above it (checked: the table has no cycle). */
export const LAYERS: Record<LayerName, Layer> = {
  bundle: { paths: ["bundle/"], may: [], runs: "both" },
  collectors: { paths: ["collectors/"], may: ["bundle"], runs: "node" },
  cells: { paths: ["cells/"], may: ["bundle"], runs: "both" },
  engine: { paths: ["workspace/db/"], may: ["bundle"], runs: "browser" },
  "engine-node": { paths: ["workspace/db/node/"], may: ["bundle", "engine"], runs: "node" },
  charts: { paths: ["charts/"], may: ["bundle", "cells"], runs: "both" },
  notebook: { paths: ["workspace/notebook/"], may: ["bundle", "cells", "engine", "charts"], runs: "browser" },
  publish: {
    paths: ["workspace/publish/"],
    may: ["bundle", "cells", "engine", "charts", "notebook"],
    runs: "browser",
  },
  export: { paths: ["export/"], may: ["bundle"], runs: "both" },
  app: {
    paths: ["workspace/app/", "workspace/components/", "workspace/main.ts"],
    may: ["bundle", "cells", "engine", "charts", "notebook", "publish", "export"],
    runs: "browser",
  },
  "node-host": {
    paths: ["workspace/node/"],
    may: ["bundle", "cells", "engine", "engine-node", "charts", "notebook", "publish", "export"],
    runs: "node",
  },
  cli: {
    paths: ["cli/"],
    may: ["bundle", "collectors", "engine", "engine-node", "node-host", "export"],
    runs: "node",
  },
};

/** Packages only one layer may import, so that one place owns them. */
export const OWNED_PACKAGES: readonly { prefix: string; owners: readonly LayerName[]; rule: string }[] = [
  { prefix: "@duckdb/", owners: ["engine", "engine-node"], rule: "one DuckDB owner (engine, engine-node)" },
];

export const SOURCE_ROOTS = ["bundle", "collectors", "cells", "charts", "export", "workspace", "cli"];
/** Not code: the web app's static files and build outputs (the Frida agent's, the CLI's and the test run's CLI). */
const NOT_SOURCES = ["workspace/public/", "collectors/agent/dist/", "cli/dist/", "cli/.dist-test/"];

const ruleOf = (name: LayerName) =>
  `${name} may import ${LAYERS[name].may.length ? LAYERS[name].may.join(", ") : "no other layer"}`;
const NODE_RULE = "browser code pulls in no node: module";

export function layerOf(path: string): LayerName | undefined {
  let best: [LayerName, number] | undefined;
  for (const [name, layer] of Object.entries(LAYERS) as [LayerName, Layer][])
    for (const p of layer.paths)
      if ((path === p || path.startsWith(p)) && (!best || p.length > best[1])) best = [name, p.length];
  return best?.[0];
}

/** Every module specifier of a file: static imports, re-exports, dynamic imports and require()s. */
export function specifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(
    /\b(?:import|export)\b[^;'"]*?\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']|\brequire(?:\.resolve)?\s*\(\s*["']([^"']+)["']\s*\)/gm,
  ))
    out.push((m[1] ?? m[2] ?? m[3] ?? m[4])!);
  return out;
}

export interface Violation {
  file: string;
  specifier: string;
  rule: string;
}
export const describeViolation = (v: Violation) => `${v.file}: import "${v.specifier}" breaks "${v.rule}"`;

/** The file a relative specifier names among `files` (extension-less, .js for .ts, or a folder's index). */
function resolve(files: ReadonlyMap<string, string>, from: string, spec: string): string | undefined {
  const base = normalize(join(dirname(from), spec.replace(/\?.*$/, "")));
  const stem = base.replace(/\.(m?js|ts)$/, "");
  return [base, `${stem}.ts`, `${stem}.mjs`, `${stem}.js`, `${base}/index.ts`].find((c) => files.has(c));
}

/** Checks a set of source files (path → text) against the table. */
export function checkImports(files: ReadonlyMap<string, string>): Violation[] {
  const out: Violation[] = [];
  for (const [file, text] of files) {
    const from = layerOf(file);
    if (!from) {
      out.push({ file, specifier: "", rule: "every source file belongs to a layer" });
      continue;
    }
    for (const spec of specifiers(text)) {
      if (spec.startsWith(".")) {
        const target = normalize(join(dirname(file), spec));
        if (/\.(json|css|html|md)$/.test(target)) continue; // data, not a layer's code
        const to = layerOf(target);
        if (!to) out.push({ file, specifier: spec, rule: "imports stay inside the layers" });
        else if (to !== from && !LAYERS[from].may.includes(to))
          out.push({ file, specifier: spec, rule: ruleOf(from) });
      } else {
        const owned = OWNED_PACKAGES.find((p) => spec.startsWith(p.prefix));
        if (owned && !owned.owners.includes(from)) out.push({ file, specifier: spec, rule: owned.rule });
        if (spec.startsWith("node:") && LAYERS[from].runs === "browser")
          out.push({ file, specifier: spec, rule: NODE_RULE });
      }
    }
  }
  // A browser file may import a shared layer's file only when nothing it reaches needs Node.
  const needsNode = new Map<string, string | undefined>();
  const nodePath = (file: string, seen: Set<string>): string | undefined => {
    if (needsNode.has(file)) return needsNode.get(file);
    if (seen.has(file)) return undefined;
    seen.add(file);
    let found: string | undefined;
    for (const spec of specifiers(files.get(file)!)) {
      if (spec.startsWith("node:")) found = `${file} imports ${spec}`;
      else if (spec.startsWith(".")) {
        const next = resolve(files, file, spec);
        const via = next && nodePath(next, seen);
        if (via) found = via;
      }
      if (found) break;
    }
    needsNode.set(file, found);
    return found;
  };
  for (const [file, text] of files) {
    const from = layerOf(file);
    if (!from || LAYERS[from].runs !== "browser") continue;
    for (const spec of specifiers(text).filter((s) => s.startsWith("."))) {
      const target = resolve(files, file, spec);
      const to = target && layerOf(target);
      if (!target || !to || LAYERS[to].runs === "browser") continue;
      const via = nodePath(target, new Set());
      if (via) out.push({ file, specifier: spec, rule: `${NODE_RULE} (${via})` });
    }
  }
  return out;
}

function sources(dir: string): string[] {
  if (!existsSync(dir) || NOT_SOURCES.some((p) => `${dir}/`.startsWith(p))) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.(ts|m?js)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

const tree = () => new Map(SOURCE_ROOTS.flatMap(sources).map((f) => [f, readFileSync(f, "utf8")] as const));

describe("the layer table", () => {
  it("finds the imports it is looking for (the scanner itself)", () => {
    const text = `import type { A } from "../../collectors/x";\nexport * from "./y";\nconst z = await import("../z");\nimport "./side";\nconst d = require.resolve("@duckdb/w");`;
    expect(specifiers(text)).toEqual(["../../collectors/x", "./y", "../z", "./side", "@duckdb/w"]);
  });

  it("names only real layers, and has no cycle (data flows one way)", () => {
    const names = Object.keys(LAYERS) as LayerName[];
    for (const n of names) for (const m of LAYERS[n].may) expect(names, `${n} may import ${m}`).toContain(m);
    const visiting = new Set<LayerName>();
    const done = new Set<LayerName>();
    const visit = (n: LayerName, path: LayerName[]): void => {
      if (done.has(n)) return;
      if (visiting.has(n)) throw new Error(`cycle: ${[...path, n].join(" → ")}`);
      visiting.add(n);
      for (const m of LAYERS[n].may) visit(m, [...path, n]);
      visiting.delete(n);
      done.add(n);
    };
    for (const n of names) visit(n, []);
    // A browser layer may not list a Node-only one.
    for (const n of names)
      if (LAYERS[n].runs === "browser")
        for (const m of LAYERS[n].may) expect(LAYERS[m].runs, `${n} → ${m}`).not.toBe("node");
  });

  it("maps paths to layers by the longest prefix", () => {
    expect(layerOf("workspace/db/engine.ts")).toBe("engine");
    expect(layerOf("workspace/db/node/duckdb-native.ts")).toBe("engine-node");
    expect(layerOf("workspace/main.ts")).toBe("app");
    expect(layerOf("workspace/mainly.ts")).toBeUndefined();
    expect(layerOf("test/x.ts")).toBeUndefined();
  });

  it("rejects an import against the table, naming the file, the import and the rule", () => {
    const files = new Map([
      ["bundle/schema.ts", `export const TABLES = {};`],
      ["bundle/bad.ts", `import { x } from "../workspace/app/overview-chart";`],
      ["workspace/app/overview-chart.ts", `import { TABLES } from "../../bundle/schema";`],
      [
        "workspace/notebook/render.ts",
        `import { s } from "../publish/sanitize";\nimport { readFile } from "node:fs";`,
      ],
      ["workspace/publish/sanitize.ts", `export const s = 1;`],
      ["charts/theme.ts", `import { DuckDBInstance } from "@duckdb/node-api";`],
      ["bundle/io.ts", `import { readFile } from "node:fs/promises";`],
      ["cells/x.ts", `import { readFile } from "../bundle/io";`],
      ["charts/y.ts", `export { readFile } from "../cells/x";`],
      ["stray/z.ts", ``],
    ]);
    expect(checkImports(files).map(describeViolation)).toEqual([
      `bundle/bad.ts: import "../workspace/app/overview-chart" breaks "bundle may import no other layer"`,
      `workspace/notebook/render.ts: import "../publish/sanitize" breaks "notebook may import bundle, cells, engine, charts"`,
      `workspace/notebook/render.ts: import "node:fs" breaks "browser code pulls in no node: module"`,
      `charts/theme.ts: import "@duckdb/node-api" breaks "one DuckDB owner (engine, engine-node)"`,
      `stray/z.ts: import "" breaks "every source file belongs to a layer"`,
    ]);
    // The same files with the bad imports gone pass; a browser layer reaching node:fs through two shared ones fails.
    files.delete("bundle/bad.ts");
    files.delete("stray/z.ts");
    files.set("workspace/notebook/render.ts", `import { y } from "../../charts/y";`);
    files.set("charts/theme.ts", ``);
    expect(checkImports(files).map(describeViolation)).toEqual([
      `workspace/notebook/render.ts: import "../../charts/y" breaks "browser code pulls in no node: module (bundle/io.ts imports node:fs/promises)"`,
    ]);
    files.set("cells/x.ts", ``);
    expect(checkImports(files)).toEqual([]);
  });

  it("every source file follows the table", () => {
    const files = tree();
    expect(files.size).toBeGreaterThan(250);
    expect(checkImports(files).map(describeViolation)).toEqual([]);
  });
});
