// Writes docs/tables.md from bundle/schema.ts.
import { writeFileSync } from "node:fs";
import { tablesMarkdown } from "../bundle/tables-doc";

writeFileSync(new URL("./tables.md", import.meta.url), tablesMarkdown());
