// <jb-notebook>'s view of the engine's tables, as a Lit ReactiveController: the palette greys out the analyses
// that need a table not loaded, and SQL completion offers the tables' columns. Listed again when the runs change.
import type { SQLNamespace } from "@codemirror/lang-sql";
import type { ReactiveController, ReactiveControllerHost } from "lit";
import { listTables, type SqlEngine, type TableInfo } from "../db/engine";

export class NotebookTablesController implements ReactiveController {
  tables: TableInfo[] = [];
  /** the tables' columns, for SQL completion */
  schema: SQLNamespace = {};
  private engine: SqlEngine | undefined;

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostConnected() {}

  /** Lists `engine`'s tables (none when it cannot list them); a list from an engine replaced meanwhile is dropped. */
  async load(engine: SqlEngine) {
    this.engine = engine;
    const tables = await listTables(engine).catch(() => []);
    if (engine !== this.engine) return;
    this.tables = tables;
    this.schema = Object.fromEntries(tables.map((t) => [t.name, t.columns.map((c) => c.name)]));
    this.host.requestUpdate();
  }
}
