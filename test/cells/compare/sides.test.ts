// Sides and their blocks: the lake filter's grammar and errors, UI-event buckets and their fallback windows.
import { tableFromArrays } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { blockAt, comparisonBlocks, MIN_BLOCK_NS, WINDOWS } from "../../../cells/compare/blocks";
import { checkSides, matchesFilter, parseRunFilter } from "../../../cells/compare/sides";

describe("parseRunFilter", () => {
  it.each([
    ["", []],
    ["app_version=2.1.0", [{ column: "app_version", value: "2.1.0" }]],
    [
      'app_version=2.1.0 device_model="Pixel 7"',
      [
        { column: "app_version", value: "2.1.0" },
        { column: "device_model", value: "Pixel 7" },
      ],
    ],
  ])("reads %j", (text, terms) => expect(parseRunFilter(text)).toEqual(terms));

  it.each([
    ["color=red", 'filter "color=red" at offset 0: unknown column color'],
    ["app_version", 'filter "app_version" at offset 11: expected = after app_version'],
    ['device_model="Pixel 7', 'filter "device_model="Pixel 7" at offset 13: unterminated quoted value'],
    ['device_model="a"b', 'filter "device_model="a"b" at offset 16: expected a space between terms'],
  ])("refuses %j naming the offset", (text, message) => expect(() => parseRunFilter(text)).toThrow(message));

  it("matches runs by every term, as text", () => {
    const terms = parseRunFilter('api_level=33 device_model="Pixel 7"');
    expect(matchesFilter(terms, { api_level: 33, device_model: "Pixel 7" })).toBe(true);
    expect(matchesFilter(terms, { api_level: 34, device_model: "Pixel 7" })).toBe(false);
    expect(matchesFilter(terms, { device_model: "Pixel 7" })).toBe(false);
  });

  it("refuses an empty side and a run on both sides", () => {
    expect(() => checkSides({ a: [], b: ["x"] })).toThrow("side A has no runs");
    expect(() => checkSides({ a: ["x", "y"], b: ["y"] })).toThrow("run y is on both sides");
  });
});

describe("comparisonBlocks", () => {
  const ms = 1e6;
  const events = tableFromArrays({
    run_id: ["a", "a", "a", "b"],
    ts: BigInt64Array.from([100n, 500n, 501n, 300n].map((x) => x * 1_000_000n)),
    kind: ["click", "scroll", "click", "click"],
    target: ["ok", "list", "ok", "ok"],
  });
  const spans = new Map<string, [number, number]>([
    ["a", [0, 1000 * ms]],
    ["b", [50 * ms, 900 * ms]],
    ["c", [0, 100 * ms]],
  ]);
  const blocks = comparisonBlocks({ a: ["a", "c"], b: ["b"] }, spans, events);

  it("cuts a run at its UI events, joining an event within a frame of the previous one to its bucket", () => {
    // a: before (0-100), click ok (100-500), scroll list (500-1000; the click at 501 ms is within 16.7 ms)
    expect(blocks.a.key.slice(0, 3)).toEqual(["before the first event", "click ok", "scroll list"]);
    expect(Array.from(blocks.a.start.slice(0, 3))).toEqual([0, 100 * ms, 500 * ms]);
    expect(blocks.a.end[2]).toBe(1000 * ms);
    expect(501 * ms - 500 * ms).toBeLessThan(MIN_BLOCK_NS);
    expect(blockAt(blocks.a, 0, 250 * ms)).toBe(1);
    expect(blockAt(blocks.a, 0, 999 * ms)).toBe(2);
  });

  it("cuts a run without UI events into equal windows and lists it", () => {
    expect(blocks.a.windowed).toEqual(["c"]);
    expect(blocks.a.key.slice(3)).toEqual(Array.from({ length: WINDOWS }, (_, i) => `window ${i + 1}`));
    expect(blockAt(blocks.a, 1, 55 * ms)).toBe(3 + 5);
  });
});
