import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { parseNotebook } from "../../workspace/notebook/format";
import { NotebookRuntime } from "../../workspace/notebook/runtime";
import { createNodePublishContext, nodeSanitize } from "../../workspace/node/node-context";
import { publishNotebook } from "../../workspace/publish/publish";
import { stripRemoteCss } from "../../charts/sanitize";

describe("stripRemoteCss", () => {
  it.each([
    ["fill: url(https://evil.example/x.svg#a)", "fill: none"],
    ["background: url('http://e.example/x.png') no-repeat", "background: none no-repeat"],
    ['background:url( "//e.example/x.png" )', "background:none"],
    ["background: url(data:image/png;base64,AAAA)", "background: url(data:image/png;base64,AAAA)"],
    ['@import "https://e.example/a.css"; .a{color:red}', " .a{color:red}"],
    ["@import url(https://e.example/a.css);", ""],
    ['background-image: image-set("https://e.example/a.png" 1x)', "background-image: none"],
    ["background: \\75 rl(https://e.example/x)", ""],
    ["color: red; fill: #123", "color: red; fill: #123"],
  ])("%s", (css, expected) => expect(stripRemoteCss(css)).toBe(expected));
});

describe("the sanitizer", () => {
  it("prose keeps no <style> and no style= (it cannot restyle the page)", () => {
    const html = nodeSanitize(
      '<style>.checks li.fail{display:none}</style><div style="position:fixed;inset:0;background:#fff">cover</div><svg><style>.verdict{display:none}</style></svg>',
    );
    expect(html).not.toMatch(/<style|style=/i);
    expect(html).toContain("cover");
  });

  it("plots keep their style, without remote URLs", () => {
    const html = nodeSanitize(
      '<svg><style>@import url(https://e.example/a.css); .p{fill:url(http://e.example/p.svg#x)}</style><rect style="fill:url(https://e.example/y.svg#g);stroke:red"/></svg>',
      "plot",
    );
    expect(html).not.toMatch(/e\.example/);
    expect(html).toContain(".p{fill:none}");
    expect(html).toContain('style="fill:none;stroke:red"');
  });
});

describe("the two kinds, called in turn", () => {
  it("each keeps its own rules, whichever ran before it", () => {
    const html =
      '<svg><style>.p{fill:red}</style><rect style="stroke:red"/></svg><img src="https://e.example/x.png"><form><input></form>';
    const plot = nodeSanitize(html, "plot");
    const prose = nodeSanitize(html);
    for (let i = 0; i < 3; i++) {
      expect(nodeSanitize(html, "plot")).toBe(plot);
      expect(nodeSanitize(html)).toBe(prose);
    }
    expect(plot).toContain(".p{fill:red}");
    expect(plot).toContain('style="stroke:red"');
    expect(prose).not.toMatch(/<style|style=/i);
    // in both: no remote image, no form controls
    for (const out of [plot, prose]) expect(out).not.toMatch(/e\.example|<form|<input/i);
  });
});

describe("published pages: prose cannot hide a failed check", () => {
  const NB = `# Findings

<style>.checks li.fail, .verdict, .error { display: none !important }</style>
<div style="position: fixed; inset: 0; background: white; z-index: 99999">nothing to see</div>
<p style="background: url(https://tracker.example/pixel.png)">tracked</p>

\`\`\`ts
check("frames are smooth", false, "12% slow");
check("a passing one", true);
\`\`\`

\`\`\`ts
display(plot({mark: "dot", data: [{x: 1, y: 2}], x: "x", y: "y"}));
\`\`\`
`;

  it("the verdict and the failed marker are there, and no prose CSS or remote URL is", async () => {
    const nb = parseNotebook(NB);
    const rt = new NotebookRuntime({ engine: null });
    rt.load(nb);
    await rt.settled();
    const html = publishNotebook(
      nb,
      rt.states(),
      createNodePublishContext({
        notebook: "x.md",
        runs: [],
        jankbookVersion: "0",
        generatedAt: "2026-01-01T00:00:00Z",
        inputs: [],
      }),
    );
    rt.dispose();
    const doc = new JSDOM(html).window.document;
    expect(doc.querySelector(".verdict")?.textContent).toBe("✗ 1 of 2 checks failed: frames are smooth");
    expect(doc.querySelector(".checks li.fail")?.textContent).toBe("frames are smooth: 12% slow");
    // The only <style> outside a plot is the page's own, in <head>; no element outside a plot has style=.
    const styles = Array.from(doc.querySelectorAll("style")).filter((s) => !s.closest(".plot"));
    expect(styles.map((s) => s.parentElement?.tagName)).toEqual(["HEAD"]);
    expect(Array.from(doc.querySelectorAll("[style]")).filter((e) => !e.closest(".plot"))).toEqual([]);
    expect(html).not.toContain("tracker.example");
    expect(doc.querySelector(".plot svg")).not.toBeNull();
  });
});
