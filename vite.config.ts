import { defineConfig } from "vite";

export default defineConfig({
  root: "workspace",
  publicDir: "public",
  build: { outDir: "../dist", emptyOutDir: true, target: "es2022", chunkSizeWarningLimit: 4000 },
  optimizeDeps: { exclude: ["@duckdb/duckdb-wasm"] },
  worker: { format: "es" },
  // Opens a browser when there is a display to open it on.
  server: { port: 5173, open: process.platform !== "linux" || !!process.env.DISPLAY },
  preview: { port: 4173 },
});
