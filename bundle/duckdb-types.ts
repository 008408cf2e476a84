// The DuckDB type each contract column type becomes: what DuckDB-WASM creates from the Arrow type (dictionary
// strings arrive as VARCHAR: docs/architecture.md), so tables packed natively and tables streamed in the
// browser agree.
import type { ColumnType } from "./schema";

export const DUCKDB_TYPE: Record<ColumnType, string> = {
  int8: "TINYINT",
  int32: "INTEGER",
  int64: "BIGINT",
  float64: "DOUBLE",
  bool: "BOOLEAN",
  utf8: "VARCHAR",
  "list<utf8>": "VARCHAR[]",
};
