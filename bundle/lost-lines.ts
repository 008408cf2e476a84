// Agent lines lost per type (docs/agent-protocol.md, "Lost lines"), as the manifest's `lost_lines` keeps them,
// and the table each type feeds, so a run's overview and `jankbook info` show the loss beside that table.

/** The table each agent line type fills; `unknown`: lines after the agent's last count record. */
export const LINE_TABLES: Readonly<Record<string, string>> = {
  task: "tasks",
  begin: "tasks",
  end: "tasks",
  drop: "tasks",
  ctx: "contexts",
  op: "render_ops",
  same: "render_ops",
  input: "ui_events",
};

/** Lost lines per table (types without a table, such as `unknown`, left out). */
export function lostByTable(lost: Readonly<Record<string, number>> | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [type, n] of Object.entries(lost ?? {})) {
    const table = LINE_TABLES[type];
    if (table) out[table] = (out[table] ?? 0) + n;
  }
  return out;
}

/** "op 30 (render_ops), task 12 (tasks), unknown 3" */
export function describeLostLines(lost: Readonly<Record<string, number>>): string {
  return Object.entries(lost)
    .map(([type, n]) => `${type} ${n}${LINE_TABLES[type] ? ` (${LINE_TABLES[type]})` : ""}`)
    .join(", ");
}
