// The chart theme: margins from label widths, the label dictionary, nanoseconds as s or ms, words on
// boolean legends, the jank palette. Expected numbers are worked out by hand from chart-labels.ts's widths.
import * as Plot from "@observablehq/plot";
import fc from "fast-check";
import { parseHTML } from "linkedom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { booleanWords, columnLabel, looksLikeNs, textWidth, truncateMiddle } from "../../charts/chart-labels";
import { JANK_COLOR, ON_TIME_COLOR, themePlot } from "../../charts/chart-theme";

const { document } = parseHTML("<!doctype html><html><body></body></html>");
const render = (o: Plot.PlotOptions) => Plot.plot({ ...o, document }) as unknown as Element;
type Transform = (v: unknown) => number;

describe("textWidth and truncateMiddle", () => {
  it("adds the advance of each character class at 10 px", () => {
    expect(textWidth("il")).toBeCloseTo(6.6); // two narrow: 3.3 + 3.3
    expect(textWidth("Ab1")).toBeCloseTo(19.7); // upper 7.2 + lower 6.1 + digit 6.4
    expect(textWidth("Wide", 20)).toBeCloseTo(49.8); // (9.4 + 3.3 + 6.1 + 6.1) × 2
  });

  it("keeps text that fits and cuts long text in the middle", () => {
    expect(truncateMiddle("short", 100)).toBe("short");
    // "abcdefghij" is 8 × 6.1 + 2 × 3.3 (i, j narrow) = 55.4 px: too wide for 40
    const cut = truncateMiddle("abcdefghij", 40);
    expect(cut).toContain("…");
    expect(cut.startsWith("a")).toBe(true);
    expect(cut.endsWith("j")).toBe(true);
    expect(textWidth(cut)).toBeLessThanOrEqual(40);
  });

  it("never exceeds its width once there is room for two characters, and keeps both ends", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 3, maxLength: 80 }), fc.integer({ min: 30, max: 400 }), (s, max) => {
        const out = truncateMiddle(s, max);
        if (textWidth(s) <= max) return out === s;
        return textWidth(out) <= max && out.includes("…") && out.startsWith([...s][0]!);
      }),
    );
  });
});

describe("the label dictionary", () => {
  it("gives known columns their words and units, others words from their name and suffix", () => {
    const expected: Record<string, string> = {
      t_s: "time (s)",
      worstMs: "worst of Mq, Me (ms)",
      meanFrameMs: "mean frame time (ms)",
      intended_vsync: "time (s)",
      fooBarMs: "foo bar (ms)",
      queue_len: "queue len",
      wait_ms: "wait (ms)",
      label: "",
    };
    for (const [column, label] of Object.entries(expected)) expect(columnLabel(column), column).toBe(label);
  });

  it("names both values of a boolean column", () => {
    expect(booleanWords("jank")).toEqual(["janky", "smooth"]);
    expect(booleanWords("cached")).toEqual(["cached", "not cached"]);
  });
});

describe("themePlot", () => {
  afterEach(() => vi.restoreAllMocks());

  it("sizes the left margin to the widest ordinal tick label and its axis label", () => {
    const data = [
      { run: "ab", ms: 1 },
      { run: "Wide", ms: 2 },
    ];
    // widest "Wide" = 24.9 px → ceil 25 + tick 9 + gap 4 + rotated axis label 16 = 54
    expect(themePlot({ marks: [Plot.barX(data, { x: "ms", y: "run" })] }).marginLeft).toBe(54);
    // a generic column ("label") gets no axis label: 25 + 9 + 4 = 38
    const rows = data.map((d) => ({ label: d.run, ms: d.ms }));
    const themed = themePlot({ marginLeft: 300, marks: [Plot.barX(rows, { x: "ms", y: "label" })] });
    expect(themed.marginLeft).toBe(38);
    expect(themed.y?.label).toBeNull();
  });

  it("cuts labels wider than 40 % of the chart in the middle, the full name in a title", () => {
    const long = "com.example.feed.FeedAdapter.onBindViewHolder";
    const themed = themePlot({ width: 300, marks: [Plot.barX([{ n: long, v: 1 }], { x: "v", y: "n" })] });
    expect(themed.marginLeft).toBe(120); // the cap: 40 % of 300
    const tick = render(themed).querySelector("[aria-label='y-axis tick label'] text")!;
    const shown = tick.firstChild!.textContent!;
    expect(shown).toContain("…");
    expect(textWidth(shown)).toBeLessThanOrEqual(120 - 9 - 4 - 16);
    expect(tick.querySelector("title")!.textContent).toBe(long);
  });

  it("turns raw nanosecond columns into s (instants) and ms (durations), and leaves seconds alone", () => {
    const frames = [
      { intended_vsync: 1_000_000_000n, dur: 8_000_000n },
      { intended_vsync: 2_500_000_000n, dur: 16_500_000n },
    ];
    const themed = themePlot({ marks: [Plot.dot(frames, { x: "intended_vsync", y: "dur" })] });
    expect(themed.x?.label).toBe("time (s)");
    expect((themed.x!.transform as Transform)(2_500_000_000n)).toBe(2.5);
    expect(themed.y?.label).toBe("duration (ms)");
    expect((themed.y!.transform as Transform)(16_500_000n)).toBe(16.5);
    const seconds = themePlot({
      marks: [
        Plot.dot(
          [
            { start: 1.5, v: 1 },
            { start: 2, v: 2 },
          ],
          { x: "start", y: "v" },
        ),
      ],
    });
    expect(seconds.x?.transform).toBeUndefined();
    expect(looksLikeNs([1.5, 2])).toBe(false);
    expect(looksLikeNs([8_000_000, 9_000_000])).toBe(true);
  });

  it("shows booleans as words in the legend, jank in the app's red and on-time grey", () => {
    const rows = [
      { t: 1, ms: 8, jank: false },
      { t: 2, ms: 30, jank: true },
    ];
    const themed = themePlot({ marks: [Plot.dot(rows, { x: "t", y: "ms", fill: "jank" })] });
    expect(themed.color?.legend).toBe(true);
    expect(themed.color?.range).toEqual([ON_TIME_COLOR, JANK_COLOR]);
    const legend = render(themed).textContent!;
    expect(legend).toContain("janky");
    expect(legend).toContain("smooth");
    expect(legend).not.toMatch(/\btrue\b|\bfalse\b/);
  });

  it("colours the notebooks' jank words with the same palette, whatever range the chart gave", () => {
    const rows = [
      { t: 1, frame: "too late" },
      { t: 2, frame: "on time" },
    ];
    const themed = themePlot({
      color: { range: ["yellow", "blue"] },
      marks: [Plot.dot(rows, { x: "t", fill: "frame" })],
    });
    expect(themed.color?.domain).toEqual(["on time", "too late"]);
    expect(themed.color?.range).toEqual([ON_TIME_COLOR, JANK_COLOR]);
  });

  it("treats numeric strings on a colour scale as categories (no Plot warning)", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const rows = [
      { run: "a", w: 1, cluster: "0" },
      { run: "b", w: 2, cluster: "1" },
    ];
    const options = { marks: [Plot.barY(rows, { x: "run", y: "w", fill: "cluster" })] };
    render(options);
    expect(warn).toHaveBeenCalled(); // the chart as it was: Plot's ⚠ warning
    warn.mockClear();
    render(themePlot(options));
    expect(warn).not.toHaveBeenCalled();
  });

  it("rotates x labels that do not fit their band and makes room below", () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({ run: `pixel-4a-android11-r${i}`, w: 1 }));
    const themed = themePlot({ width: 640, marks: [Plot.barY(rows, { x: "run", y: "w" })] });
    expect(themed.x?.tickRotate).toBe(-40);
    // widest "pixel-4a-android11-r10" (22 characters) well under 160 px: bottom = w·sin 40° + 12 + 9 + 18
    const widest = textWidth("pixel-4a-android11-r10");
    expect(themed.marginBottom).toBe(Math.ceil(widest * Math.sin((40 * Math.PI) / 180) + 39));
  });

  it("raises text under 10 px to 10 px, fits the container, adds tips to dense marks", () => {
    const rows = [{ t: 1, v: 2, s: "x" }];
    const themed = themePlot(
      {
        width: 800,
        marks: [
          Plot.text(rows, { x: "t", y: "v", text: "s", fontSize: 9 }),
          Plot.dot(rows, { x: "t", y: "v" }),
        ],
      },
      { width: 500 },
    );
    expect(themed.width).toBe(500);
    expect(render(themed).querySelector("[aria-label='text']")!.getAttribute("font-size")).toBe("10");
    expect((themed.marks![1] as unknown as { tip: unknown }).tip).toBe("xy");
    expect(themePlot({ width: 300, marks: [] }, { width: 500 }).width).toBe(300);
    // one pointer per chart: none added beside a mark that has its own tip
    const own = themePlot({
      marks: [Plot.barX(rows, { x: "v", y: "s", tip: true }), Plot.dot(rows, { x: "t", y: "v" })],
    });
    expect((own.marks![1] as unknown as { tip: unknown }).tip).toBeFalsy();
  });

  it("reads a long channel by its extremes: a 5,000-point chart's margin fits its largest value", () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({ t: i, v: i === 4321 ? 12_345_678 : i }));
    // "-00000000,," for 8 digits: 6.1 + 8 × 6.4 + 2 × 3.3 = 63.9 → 64 + tick 9 + gap 4
    expect(themePlot({ marks: [Plot.dot(rows, { x: "t", y: "v" })] }).marginLeft).toBe(77);
  });

  it("keeps value labels past the bars inside the chart", () => {
    const rows = [{ rule: "a", support: 1 }];
    const text = Plot.text(rows, { x: "support", y: "rule", text: () => "1.00", dx: 16 });
    const themed = themePlot({ width: 640, marks: [Plot.barX(rows, { x: "support", y: "rule" }), text] });
    // "1.00" = 3 × 6.4 + 3.3 = 22.5 px, centred 16 px past the end: 16 + 11.25 + 6 → 34
    expect(themed.marginRight).toBe(34);
  });
});

describe("charts on the timeline's time axis", () => {
  it("take the container's whole width, as the timeline above them does, keeping its margins", () => {
    const dots = [Plot.dot([{ t: 1, v: 2 }], { x: "t", y: "v" })];
    const linked = { width: 760, marginLeft: 160, marginRight: 20, marks: dots };
    for (const width of [600, 1113]) {
      const themed = themePlot(linked, { width });
      expect([themed.width, themed.marginLeft, themed.marginRight]).toEqual([width, 160, 20]);
      expect(themed.style).toMatchObject({ maxWidth: "none" }); // never scaled down: text stays at 10 px
    }
    // headless (no container): the timeline's own 760 px
    expect(themePlot(linked).width).toBe(760);
    expect(themePlot({ ...linked, marginLeft: 40 }, { width: 600 }).width).toBe(600);
    expect(themePlot({ ...linked, marginLeft: 40 }, { width: 1113 }).width).toBe(760);
  });

  it("list ordinal labels by their numbers, unless a domain or a mark's sort says otherwise", () => {
    const rows = ["frame 9", "frame 100", "frame 10"].map((frame, i) => ({ frame, ms: i }));
    const y = (marks: Plot.Markish[], scale?: Plot.ScaleOptions) =>
      themePlot({ marks, y: scale }).y?.domain as string[] | undefined;
    expect(y([Plot.barX(rows, { x: "ms", y: "frame" })])).toEqual(["frame 9", "frame 10", "frame 100"]);
    expect(y([Plot.barX(rows, { x: "ms", y: "frame" })], { domain: ["frame 10"] })).toEqual(["frame 10"]);
    expect(y([Plot.barX(rows, { x: "ms", y: "frame", sort: { y: "x" } })])).toBeUndefined();
    // facets too: a run per row, android9 before android10
    const runs = ["k9-android10", "k9-android9", "k9-android11"].map((run_id) => ({ run_id, t: 1, v: 2 }));
    const facets = themePlot({ marks: [Plot.dot(runs, { x: "t", y: "v", fy: "run_id" })] }).fy?.domain;
    expect(facets).toEqual(["k9-android9", "k9-android10", "k9-android11"]);
    // text order that is already numeric order is left to Plot
    expect(y([Plot.barX([{ f: "a1" }, { f: "b2" }], { x: 1, y: "f" })])).toBeUndefined();
  });
});
