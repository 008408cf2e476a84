import { tableFromArrays } from "apache-arrow";
import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { createNodePublishContext } from "../../../workspace/node/node-context";
import { renderDisplay } from "../../../workspace/publish/publish";
import { headlessInputs } from "../../../workspace/notebook/headless-inputs";

const N = 25;
const table = tableFromArrays({
  run_id: Array.from({ length: N }, (_, i) => `k9-galaxy-s21-android12-r${i}`),
  dur: BigInt64Array.from({ length: N }, (_, i) => BigInt(16_666_667 + i * 1_000_000)),
  frames: Int32Array.from({ length: N }, (_, i) => 1800 + i),
});

function rendered(options: { headRows?: number; maxRows?: number } = {}) {
  const provenance = { notebook: "t.md", runs: [], jankbookVersion: "0", generatedAt: "", inputs: [] };
  const ctx = { ...createNodePublishContext(provenance), ...options };
  return new JSDOM(renderDisplay(table, "t", ctx)).window.document;
}

describe("published tables", () => {
  it("shows the first 10 rows formatted, the rest folded behind a 'show all' box", () => {
    const doc = rendered();
    const [head, more] = [...doc.querySelectorAll("tbody")];
    expect(head!.rows).toHaveLength(10);
    expect(more!.className).toBe("more");
    expect(more!.rows).toHaveLength(15);
    // row 0: full run id, 16,666,667 ns in ms, 1800 grouped; numbers right-aligned
    expect([...head!.rows[0]!.cells].map((c) => c.textContent)).toEqual([
      "k9-galaxy-s21-android12-r0",
      "16.67 ms",
      "1,800",
    ]);
    expect(head!.rows[0]!.cells[1]!.className).toBe("num");
    expect(more!.rows[14]!.cells[1]!.textContent).toBe("40.67 ms"); // 16,666,667 + 24,000,000 ns
    expect(doc.querySelector("label")!.textContent).toBe(" show all 25 rows");
    expect(doc.querySelector("input.more")!.getAttribute("type")).toBe("checkbox");
  });

  it("bounds the rows written into the page and says so", () => {
    const doc = rendered({ maxRows: 20 });
    expect(doc.querySelector("tbody.more")!.querySelectorAll("tr")).toHaveLength(10);
    expect(doc.querySelector("label")!.textContent).toBe(" show the first 20 of 25 rows");
  });

  it("writes a short table whole with its row count, no box", () => {
    const doc = rendered({ headRows: 30 });
    expect(doc.querySelectorAll<HTMLTableRowElement>("tbody tr")).toHaveLength(25);
    expect(doc.querySelector("input")).toBeNull();
    expect(doc.querySelector(".rows")!.textContent).toBe("25 rows");
  });

  it("lists a table input's rows, its chosen columns in order, under its label and value", () => {
    const rows = [
      { rank: 1, subject: "decodeStream", change: 4.5, key: "m1" },
      { rank: 2, subject: "p90", change: 1.2, key: "f1" },
    ];
    const input = headlessInputs.table(rows, {
      label: "what changed",
      multiple: false,
      columns: ["subject", "change"],
    });
    const provenance = { notebook: "t.md", runs: [], jankbookVersion: "0", generatedAt: "", inputs: [] };
    const doc = new JSDOM(renderDisplay(input, "chosen", createNodePublishContext(provenance))).window
      .document;
    expect(doc.querySelector(".input")!.textContent!.trim()).toBe("what changed"); // nothing chosen
    expect([...doc.querySelectorAll("th")].map((h) => h.textContent)).toEqual(["subject", "change"]);
    expect(
      [...doc.querySelectorAll<HTMLTableRowElement>("tbody tr")].map((r) =>
        [...r.cells].map((c) => c.textContent),
      ),
    ).toEqual([
      ["decodeStream", "4.5"],
      ["p90", "1.2"],
    ]);
  });
});
