// `npm run build:cli` (run by `prepare`): compiles the CLI's TypeScript into cli/dist with esbuild, one chunk
// per command (main.ts loads commands with import(), which esbuild keeps as separate files), so the installed
// command starts without transpiling anything. The pure-JS dependencies a run loads are bundled too (BUNDLED):
// loaded one file at a time from node_modules, they were most of `jankbook run`'s start (docs/scaling.md).
// cli/dist/inputs.json lists the sources it was built from, for cli/build-state.mjs to tell a stale build.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const DIST = join(ROOT, "cli", "dist");
/**
 * Pure JS, no native parts or files found at run time: safe to bundle. Each file of a package in node_modules is
 * resolved, read and compiled on its own, and an ESM import of a CommonJS one (commander, sucrase,
 * @duckdb/node-api) is first scanned for its exports: sucrase alone took 140 ms of the notebook worker's start.
 * Left out: DuckDB's native binding and its wasm (files found at run time), jsdom (loaded on first use), and the
 * build and device tools.
 */
const BUNDLED = [
  "apache-arrow",
  "commander",
  "sucrase",
  "acorn",
  "acorn-walk",
  "markdown-it",
  "linkedom",
  "dompurify",
  "@observablehq/plot",
  "@observablehq/runtime",
  "@observablehq/inputs",
  "@duckdb/node-api",
];
// A CommonJS package bundled into ESM chunks requires Node's modules (node:events, ...) through `require`.
const REQUIRE_BANNER = [
  'import { createRequire as __jbCreateRequire } from "node:module";',
  "const require = __jbCreateRequire(import.meta.url);",
].join("\n");
/** the compiled notebook worker, cli/dist/cell-worker.js */
const WORKER = "cell-worker";
/** the compiled DuckDB-WASM thread of `jankbook run`, cli/dist/engine-thread.js */
const ENGINE_THREAD = "engine-thread";

// A chunk runs from cli/dist, not from its source's folder: each source's import.meta.url is pointed back at
// the source file (relative to the chunk, so the package can move), for the paths resolved from it.
const sourceUrls = {
  name: "source-import-meta-url",
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      if (!text.includes("import.meta.url")) return undefined;
      const rel = relative(DIST, args.path).split("\\").join("/");
      return {
        contents: text.replaceAll("import.meta.url", `new URL(${JSON.stringify(rel)}, import.meta.url).href`),
        loader: "ts",
      };
    });
  },
};

/** Builds the CLI into `outdir`; returns the sources it was built from, relative to the package root. */
export async function buildCli(outdir = DIST) {
  const started = Date.now();
  await rm(outdir, { recursive: true, force: true });
  const pkg = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8"));
  const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter(
    (name) => !BUNDLED.includes(name),
  );
  const result = await build({
    absWorkingDir: ROOT,
    // The notebook worker too (isolated-run.ts starts it by file name, not by import): the compiled CLI then
    // runs no TypeScript at all.
    entryPoints: {
      main: join(ROOT, "cli", "main.ts"),
      [WORKER]: join(ROOT, "workspace", "node", "cell-worker.ts"),
      [ENGINE_THREAD]: join(ROOT, "workspace", "node", "engine-thread.ts"),
    },
    // isolated-run.ts finds it from its own import.meta.url, which names its source file (sourceUrls)
    define: {
      JANKBOOK_COMPILED_ENGINE_THREAD: JSON.stringify(
        relative(join(ROOT, "workspace", "node"), join(outdir, `${ENGINE_THREAD}.js`))
          .split("\\")
          .join("/"),
      ),
      JANKBOOK_COMPILED_WORKER: JSON.stringify(
        relative(join(ROOT, "workspace", "node"), join(outdir, `${WORKER}.js`))
          .split("\\")
          .join("/"),
      ),
    },
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external,
    metafile: true,
    logLevel: "warning",
    plugins: [sourceUrls],
    banner: { js: REQUIRE_BANNER },
  });
  const inputs = Object.keys(result.metafile.inputs)
    .map((p) => relative(ROOT, resolve(ROOT, p)).split("\\").join("/"))
    .filter((p) => !p.split("/").includes("node_modules")) // a dependency changes with npm install, which rebuilds
    .sort();
  await mkdir(outdir, { recursive: true });
  await writeFile(join(outdir, "inputs.json"), JSON.stringify({ builtAt: started, inputs }, null, 1) + "\n");
  return inputs;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const t0 = Date.now();
  const inputs = await buildCli();
  process.stderr.write(`build:cli: ${inputs.length} sources into cli/dist in ${Date.now() - t0} ms\n`);
}
