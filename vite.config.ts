import { defineConfig } from "vite";

export default defineConfig({
  root: "workspace",
  publicDir: "public",
  build: { outDir: "../dist", emptyOutDir: true, target: "es2022", chunkSizeWarningLimit: 4000 },
  optimizeDeps: { exclude: ["@duckdb/duckdb-wasm"] },
  worker: { format: "es" },
  server: { port: 5173 },
  preview: { port: 4173 },
});
