// One classifier decides what a displayed value is for the page, publish and the snapshot, so the three
// agree.
import { tableFromArrays } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { classifyDisplay } from "../../../workspace/notebook/display-kind";
import { md } from "../../../workspace/notebook/markdown-value";
import { brushX, plot } from "../../../charts/plot-spec";
import { snapshotValue } from "../../../workspace/notebook/snapshot";
import { escapeHtml, renderDisplay } from "../../../workspace/publish/publish";

const ctx = { sanitize: (html: string) => html, document: undefined as never };

describe("classifyDisplay", () => {
  const table = tableFromArrays({ a: Int32Array.from([1, 2]) });
  const brush = brushX({ marks: [] }, [1, 2]);
  const input = Object.assign(new EventTarget(), { value: 3, nodeType: 1, nodeName: "FORM" });

  it("tells each kind apart, in the one order that is right", () => {
    expect(classifyDisplay(brush).kind).toBe("brush"); // Plot options and an input at once
    expect(classifyDisplay(plot({ mark: "dot", data: [], x: "a" })).kind).toBe("plot-spec");
    expect(classifyDisplay({ marks: [] }).kind).toBe("plot-options");
    expect(classifyDisplay(table).kind).toBe("table");
    expect(
      classifyDisplay(md`
# hi
      `).kind,
    ).toBe("markdown");
    expect(classifyDisplay(input).kind).toBe("input"); // an input is also a DOM node
    expect(classifyDisplay({ nodeType: 1, nodeName: "DIV", outerHTML: "<div>x</div>" }).kind).toBe("node");
    expect(classifyDisplay({ a: 1 }).kind).toBe("value");
    expect(classifyDisplay(null).kind).toBe("value");
    expect(classifyDisplay(7).kind).toBe("value");
  });

  it("the snapshot and publish follow it", () => {
    expect(snapshotValue(brush)).toEqual({ input: [1, 2] });
    expect(snapshotValue(input)).toEqual({ input: 3 });
    expect(snapshotValue(table)).toMatchObject({ table: { numRows: 2 } });
    expect(renderDisplay(input, "x", ctx as never)).toContain(`<output>3</output>`);
    expect(renderDisplay({ nodeType: 1, outerHTML: "<b>bold</b>" }, "x", ctx as never)).toBe(
      `<div class="node"><b>bold</b></div>`,
    );
    expect(renderDisplay({ a: "<" }, "x", ctx as never)).toContain(escapeHtml('"<"'));
  });
});
