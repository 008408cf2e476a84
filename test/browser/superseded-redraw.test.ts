// An output whose value is replaced before it is drawn is never drawn: an input lets a new value go while the
// redraw of the previous one waits for its task, and the output goes from what it showed straight to the new value
// (jb-output asks the runtime whether its cell's run is superseded). Before, it drew the old value first, and a
// dragged input's last value queued behind that drawing.
import { describe, expect, it } from "vitest";
import { serveStatic } from "../../workspace/node/static-server";
import { browserSuite } from "../support/browser-suite";
import { notebookSettled, openWorkspace } from "../support/workspace-page";

describe("a superseded value in the workspace", () => {
  const suite = browserSuite(() => serveStatic("dist", 0, { "/fixtures/": "test/fixtures/notebooks" }));

  it("is not drawn when a newer value goes before its redraw: the output draws only the newer one", async () => {
    const { page, errors } = await openWorkspace(
      suite.browser,
      suite.url,
      "?notebook=fixtures/superseded.md",
    );
    const output = page.locator("jb-notebook .block.cell jb-output .md", { hasText: "x is" });
    expect(await output.innerText()).toBe("x is 0");
    await page.evaluate(() => {
      type Nb = HTMLElement & { runtime: { setInput(n: string, v: unknown): void } };
      const nb = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook") as Nb;
      const w = window as unknown as {
        jbHold(v: number): unknown;
        release?: () => void;
        drawn: string[];
        setAt2: boolean;
      };
      w.drawn = [];
      w.setAt2 = false;
      // x = 1 waits at the gate until the test lets it through; every other value passes at once
      w.jbHold = (v) => (v === 1 ? new Promise((r) => (w.release = () => r(v))) : v);
      const proto = customElements.get("jb-output")!.prototype as unknown as {
        update(changed: unknown): void;
        renderRoot: ParentNode;
      };
      // every drawing of the Markdown output, as its text
      const update = proto.update;
      proto.update = function (this: typeof proto, changed: unknown) {
        update.call(this, changed);
        const text = this.renderRoot.querySelector(".md")?.textContent?.trim();
        if (text?.startsWith("x is")) w.drawn.push(text);
      };
      // when the notebook hands the output "x is 1" (its redraw now waits for a task), x moves on to 2
      const value = Object.getOwnPropertyDescriptor(proto, "value")!;
      Object.defineProperty(proto, "value", {
        ...value,
        set(this: unknown, v: { text?: string } | undefined) {
          value.set!.call(this, v);
          if (v?.text === "x is 1" && !w.setAt2) {
            w.setAt2 = true;
            nb.runtime.setInput("x", 2);
          }
        },
      });
      nb.runtime.setInput("x", 1);
    });
    // the held cell has started for x = 1; two frames on the runtime has asked the input for its next value
    // (runtime.js variable_generate: two animation frames after taking one), so x = 2 goes the moment it is set
    await page.waitForFunction(
      () => typeof (window as unknown as { release?: () => void }).release === "function",
    );
    for (let k = 0; k < 3; k++) await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
    await page.evaluate(() => (window as unknown as { release: () => void }).release());
    await page.waitForFunction(() => (window as unknown as { setAt2: boolean }).setAt2);
    await notebookSettled(page);
    await expect.poll(() => output.innerText()).toBe("x is 2");
    expect(await page.evaluate(() => (window as unknown as { drawn: string[] }).drawn)).toEqual(["x is 2"]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
