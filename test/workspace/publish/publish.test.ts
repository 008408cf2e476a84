import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { parseNotebook } from "../../../workspace/notebook/format";
import { NotebookRuntime } from "../../../workspace/notebook/runtime";
import { createNodePublishContext } from "../../../workspace/node/node-context";
import { publishNotebook, type PublishProvenance } from "../../../workspace/publish/publish";

const provenance: PublishProvenance = {
  notebook: "hostile.md",
  title: "Hostile <b>title</b>",
  runs: [
    {
      run_id: "run-<1>",
      app: "com.example",
      device_model: "Pixel",
      api_level: 33,
      started_at: "2026-11-01T10:00:00.000Z",
      synthetic: true,
    },
  ],
  jankbookVersion: "0.1.0",
  generatedAt: "2026-11-22T00:00:00.000Z",
  inputs: [{ name: "tauMs", value: 300, label: "τ (ms)" }],
};

const HOSTILE = `---
title: hostile
---
# Findings

<script>window.pwned = 1</script>
<img src="x" onerror="window.pwned = 2">
<a href="javascript:window.pwned=3">raw link</a>
[md link](javascript:window.pwned=4)
<div onclick="window.pwned=5" style="color: red">styled</div>
<svg onload="window.pwned=6"><circle r="3"/></svg>
<iframe src="https://example.com"></iframe>
<form action="https://example.com"><input name=x></form>

\`\`\`ts
const tauMs = view(Inputs.range([50, 2000], {label: "τ (ms)", value: 500}));
\`\`\`

\`\`\`ts
display(md\`<script>window.pwned = 7</script> **bold** [x](javascript:alert(1))\`);
display("<script>window.pwned = 8</script>");
display(plot({mark: "barY", data: [{k: "<script>x</script>", v: 1}, {k: "b", v: 2}], x: "k", y: "v"}));
\`\`\`

\`\`\`ts
throw new Error("<img src=x onerror=alert(9)>");
\`\`\`
`;

async function publishHostile() {
  const nb = parseNotebook(HOSTILE);
  const rt = new NotebookRuntime({ engine: null });
  rt.load(nb);
  await rt.settled();
  const html = publishNotebook(nb, rt.states(), createNodePublishContext(provenance));
  rt.dispose();
  return html;
}

describe("publishNotebook", () => {
  it("publishes hostile Markdown and values inert: no script, no on* attribute, no javascript: URL", async () => {
    const html = await publishHostile();
    const doc = new JSDOM(html).window.document;
    expect(doc.querySelectorAll("script, iframe, form, object, embed").length).toBe(0);
    const all = Array.from(doc.querySelectorAll("*"));
    const handlers = all.flatMap((el) =>
      Array.from(el.attributes)
        .filter((a) => a.name.toLowerCase().startsWith("on"))
        .map((a) => `${el.tagName} ${a.name}`),
    );
    expect(handlers).toEqual([]);
    const jsUrls = all.flatMap((el) =>
      Array.from(el.attributes)
        .filter((a) => /^\s*javascript:/i.test(a.value))
        .map((a) => `${el.tagName} ${a.name}`),
    );
    expect(jsUrls).toEqual([]);
    // The hostile text is still there, as text.
    expect(doc.body.textContent).toContain("<script>window.pwned = 8</script>");
    expect(doc.body.textContent).toContain("<img src=x onerror=alert(9)>");
    expect(doc.querySelector("a")?.textContent).toBe("raw link");
  });

  it("forbids scripts with a CSP meta and embeds nothing from the network", async () => {
    const html = await publishHostile();
    const doc = new JSDOM(html).window.document;
    const csp =
      doc.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute("content") ?? "";
    expect(csp).toContain("script-src 'none'");
    expect(csp).toContain("default-src 'none'");
    const urls = Array.from(doc.querySelectorAll("[src], [href]")).map(
      (el) => el.getAttribute("src") ?? el.getAttribute("href"),
    );
    expect(urls.filter((u) => u && /^(https?:)?\/\//.test(u))).toEqual([]);
  });

  it("renders plots as SVG with marks, folded code, errors in place, inputs and provenance", async () => {
    const html = await publishHostile();
    const doc = new JSDOM(html).window.document;
    const svg = doc.querySelector(".plot svg")!;
    expect(svg.getAttribute("xmlns")).toBe("http://www.w3.org/2000/svg");
    expect(svg.querySelectorAll('g[aria-label="bar"] rect').length).toBe(2);
    expect(doc.querySelectorAll("details.code").length).toBe(3);
    expect(doc.querySelector("details.code pre code")?.textContent).toContain("Inputs.range");
    expect(doc.querySelector(".error")?.textContent).toBe("<img src=x onerror=alert(9)>");
    expect(doc.querySelector(".input output")?.textContent).toBe("500");
    expect(doc.querySelector("footer")?.textContent).toContain("run-<1>");
    expect(doc.querySelector("footer")?.textContent).toContain("2026-11-01T10:00:00.000Z");
    expect(doc.querySelector("footer")?.textContent).toContain("jankbook 0.1.0");
    expect(doc.title).toBe("Hostile <b>title</b>");
  });
});
