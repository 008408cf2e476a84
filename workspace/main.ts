// The workspace entry point. DuckDB-WASM starts first: its wasm downloads and compiles in its worker while the
// workspace's modules are fetched and evaluated (docs/scaling.md, "Start-up"). ?engine=server needs no DuckDB-WASM.
import { bootDuckdb } from "./db/duckdb-boot";

if (new URLSearchParams(location.search).get("engine") !== "server") bootDuckdb();
void import("./components/jb-app");
