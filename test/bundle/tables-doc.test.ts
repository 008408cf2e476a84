import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { tablesMarkdown } from "../../bundle/tables-doc";
import { TABLES } from "../../bundle/schema";

describe("docs/tables.md", () => {
  const page = readFileSync(new URL("../../docs/tables.md", import.meta.url), "utf8");

  it("is what the schema generates (run `npx tsx docs/gen-tables.ts` after changing bundle/schema.ts)", () => {
    expect(page).toBe(tablesMarkdown());
  });

  it("lists every column of every table with its type", () => {
    for (const t of TABLES) {
      expect(page).toContain(`## ${t.name}`);
      for (const c of t.columns) expect(page).toContain(`| ${c.name} | ${c.type} |`);
    }
  });
});
