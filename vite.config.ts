import { fileURLToPath } from "node:url";
import { createLogger, defineConfig, type LogLevel } from "vite";
// With an extension: Vite warns about extensionless imports in its config (its coming native config loader).
import { notebookRunsPlugin } from "./workspace/node/notebook-runs-plugin.js";

// DuckDB-WASM's worker ships a source map naming its bundled apache-arrow sources, which are not in the
// package: Vite's dev server warns once per file (about 130 lines on `npm start`). Those say nothing
// actionable, so they are dropped; every other message goes through.
// A custom logger replaces Vite's, so it takes the CLI's --logLevel itself (the benches build with "warn").
const flag = process.argv.findIndex((a) => a === "--logLevel" || a === "-l");
const logger = createLogger((flag >= 0 ? process.argv[flag + 1] : undefined) as LogLevel | undefined);
const warnOnce = logger.warnOnce.bind(logger);
const warn = logger.warn.bind(logger);
const isDuckdbSourcemapNoise = (msg: string) =>
  msg.startsWith("Sourcemap for") && msg.includes("@duckdb/duckdb-wasm");
logger.warn = (msg, options) => (isDuckdbSourcemapNoise(msg) ? undefined : warn(msg, options));
logger.warnOnce = (msg, options) => (isDuckdbSourcemapNoise(msg) ? undefined : warnOnce(msg, options));

export default defineConfig({
  root: "workspace",
  publicDir: "public",
  customLogger: logger,
  // Run bundles beside notebooks (notebooks/**/manifest.json), at notebooks/<path>/ and in notebook-runs.json.
  plugins: [notebookRunsPlugin(fileURLToPath(new URL("notebooks", import.meta.url)))],
  build: { outDir: "../dist", emptyOutDir: true, target: "es2022", chunkSizeWarningLimit: 4000 },
  optimizeDeps: { exclude: ["@duckdb/duckdb-wasm"] },
  worker: { format: "es" },
  // Opens a browser when there is a display to open it on.
  server: { port: 5173, open: process.platform !== "linux" || !!process.env.DISPLAY },
  preview: { port: 4173 },
});
