// plot({...}) on a channel, filter or select naming a column the data lacks fails, naming the column and the
// columns there are, instead of drawing an empty chart; constant colours and binX outputs are not columns.
import { tableFromArrays } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { plot } from "../../charts/plot-spec";
import { parseNotebook } from "../../workspace/notebook/format";
import { NotebookRuntime } from "../../workspace/notebook/runtime";

const rows = [
  { frame: 1, frame_ms: 12.5, layer: "ui" },
  { frame: 2, frame_ms: 40.1, layer: "rt" },
];
const table = tableFromArrays({ frame: Int32Array.from([1, 2]), frame_ms: Float64Array.from([12.5, 40.1]) });

describe("plot() and the data's columns", () => {
  it.each([
    [
      "y on rows",
      { mark: "dot", data: rows, x: "frame", y: "frame_mss" },
      'y names a column the data lacks: "frame_mss" (its columns: frame, frame_ms, layer)',
    ],
    [
      "x on an Arrow table",
      { mark: "dot", data: table, x: "frme", y: "frame_ms" },
      'x names a column the data lacks: "frme" (its columns: frame, frame_ms)',
    ],
    [
      "an empty Arrow table still has its schema",
      { mark: "dot", data: table.slice(0, 0), fx: "layer" },
      '"layer" (its columns: frame, frame_ms)',
    ],
    [
      "fill",
      { mark: "dot", data: rows, x: "frame", fill: "layr" },
      'fill names a column the data lacks: "layr"',
    ],
    [
      "the filter's column",
      { mark: "dot", data: rows, x: "frame", filter: ["ms", ">", 16] },
      'filter names a column the data lacks: "ms"',
    ],
    [
      "select",
      { mark: "dot", data: rows, x: "frame", select: "id" },
      'select names a column the data lacks: "id"',
    ],
  ] as const)("%s: fails naming the column and the columns there are", (_what, spec, message) => {
    expect(() => plot(spec as Parameters<typeof plot>[0])).toThrow(message);
  });

  it.each([
    ["columns that exist", { mark: "dot", data: rows, x: "frame", y: "frame_ms", fill: "layer" }],
    [
      "constant colours Plot reads as colours",
      { mark: "dot", data: rows, x: "frame", fill: "steelblue", stroke: "#c33" },
    ],
    ["a column only later rows have", { mark: "dot", data: [{ a: 1 }, { a: 2, b: 3 }], x: "a", y: "b" }],
    [
      "a binX output named as a channel",
      { mark: "rectY", data: rows, x: "frame_ms", y: "count", binX: { y: "count" } },
    ],
    ["no rows: nothing says which columns exist", { mark: "dot", data: [], x: "anything" }],
  ] as const)("%s: draws", (_what, spec) => {
    expect(() => plot(spec as Parameters<typeof plot>[0])).not.toThrow();
  });

  it("a notebook cell plotting a misspelt column fails with the message, rather than showing an empty chart", async () => {
    const nb = parseNotebook(
      "```ts\nconst frames = [{frame: 1, frame_ms: 12.5}, {frame: 2, frame_ms: 40.1}];\n```\n\n" +
        "```ts\nplot({mark: 'dot', data: frames, x: 'frame', y: 'frame_mss'})\n```\n",
    );
    const rt = new NotebookRuntime({ engine: null });
    rt.load(nb);
    await rt.settled();
    const cell = rt.states()[1]!;
    expect(cell.status).toBe("rejected");
    expect(cell.error).toContain(
      'y names a column the data lacks: "frame_mss" (its columns: frame, frame_ms)',
    );
    rt.dispose();
  });
});
