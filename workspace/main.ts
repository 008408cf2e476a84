// The workspace entry point. DuckDB-WASM starts first: its wasm downloads and compiles in its worker while the
// workspace's modules are fetched and evaluated (docs/scaling.md, "Start-up"). ?engine=server needs no DuckDB-WASM.
import { bootDuckdb } from "./db/duckdb-boot";
import { importInStages } from "./app/import-in-stages";

if (new URLSearchParams(location.search).get("engine") !== "server") bootDuckdb();
// Lit, then Plot and d3 (the overview chart's), then the shell: three tasks, not one.
void importInStages([
  () => import("lit"),
  () => import("@observablehq/plot"),
  () => import("./components/jb-app"),
]);
