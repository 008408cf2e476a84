// Renders docs/tables.md from the schema, so the docs page cannot drift from the code.
import { SCHEMA_VERSION, TABLES } from "./schema";

export function tablesMarkdown(): string {
  const out = [
    "# Run bundle tables",
    "",
    "Generated from `bundle/schema.ts` by `npx tsx docs/gen-tables.ts`; a test fails when this page drifts from the code.",
    "",
    `Schema version ${SCHEMA_VERSION}. A bundle is a folder: \`manifest.json\` plus one Arrow IPC stream file`,
    "(`<table>.arrows`) per table the run has. Timestamps and durations are int64 nanoseconds in the run's clock",
    "domain (CLOCK_MONOTONIC unless the manifest says otherwise). String columns may be dictionary-encoded.",
    "",
  ];
  for (const t of TABLES) {
    out.push(`## ${t.name}`, "", t.doc, "", "| column | type | null | meaning |", "|---|---|---|---|");
    for (const c of t.columns)
      out.push(`| ${c.name} | ${c.type} | ${c.nullable ? "yes" : "no"} | ${c.doc.replace(/\|/g, "\\|")} |`);
    out.push("");
  }
  return out.join("\n");
}
