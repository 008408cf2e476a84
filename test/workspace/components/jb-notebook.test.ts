// @vitest-environment jsdom
// <jb-notebook> as an element (jsdom, the real runtime on DuckDB-WASM's Node build): cells run, the keyboard
// acts on a focused cell frame (notebook-keys.ts), each structural change is undoable from its toast and the
// toolbar (undo-controller.ts, toast-controller.ts), unrun edits are kept in the text Save writes
// (notebook-document-controller.ts, notebook-drafts.ts), the prose headings go out in a typed "headings" event
// (headings-controller.ts), new runs re-run the cells that read tables and list the tables again
// (notebook-runtime-controller.ts, notebook-tables-controller.ts), and inputs take the values the app gives.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { SqlEngine } from "../../../workspace/db/engine";
import { createNodeEngine } from "../../../workspace/db/node/duckdb-node";
import "../../support/jsdom-layout";
import type { JbNotebook } from "../../../workspace/components/jb-notebook";
import type { TocHeading } from "../../../workspace/components/jb-toc";
import { ANALYSES } from "../../../workspace/app/analysis-palette";

const TEXT =
  "# Totals\n\nSome prose.\n\n## Sums\n\n```ts\nconst x = 1 + 1;\n```\n\n```ts\nconst y = x * 10;\n```\n";

let engine: SqlEngine;
beforeAll(async () => {
  engine = await createNodeEngine();
  await import("../../../workspace/components/jb-notebook");
});
afterAll(async () => {
  await engine.close();
});
// A notebook left in the page would take the window's keys too.
afterEach(() => {
  for (const el of document.querySelectorAll("jb-notebook")) el.remove();
});

async function mount(text = TEXT, inputs?: Record<string, unknown>) {
  const el = document.createElement("jb-notebook") as JbNotebook;
  el.inputs = inputs;
  el.runsVersion = 0; // as <jb-app> gives it: later bumps re-run
  const headings: TocHeading[][] = [];
  el.addEventListener("headings", (e) => headings.push(e.detail));
  el.path = `test-${Math.random()}.md`;
  el.engine = engine;
  el.text = text;
  document.body.append(el);
  await el.updateComplete;
  await el.runtime!.settled(30_000);
  await el.updateComplete;
  return { el, headings, root: el.shadowRoot! };
}

const cellFrames = (root: ShadowRoot) => [...root.querySelectorAll<HTMLElement>(".block.cell")];
const names = (root: ShadowRoot) =>
  cellFrames(root).map((c) => c.querySelector(".name")!.textContent!.trim());
const key = (target: HTMLElement, init: KeyboardEventInit) =>
  target.dispatchEvent(
    new KeyboardEvent("keydown", { bubbles: true, composed: true, cancelable: true, ...init }),
  );

describe("<jb-notebook>", () => {
  it("runs its cells and reports the prose headings in a typed event", async () => {
    const { el, headings, root } = await mount();
    expect(el.runtime!.states().map((s) => [s.defines, s.status])).toEqual([
      [["x"], "fulfilled"],
      [["y"], "fulfilled"],
    ]);
    expect(names(root)).toEqual(["ts x", "ts y"]);
    expect(headings.at(-1)).toEqual([
      { id: "totals", text: "Totals", level: 1 },
      { id: "sums", text: "Sums", level: 2 },
    ]);
  });

  it("Alt+Backspace on a focused cell deletes it; the toast says so and its Undo brings it back", async () => {
    const { el, root } = await mount();
    const undoButton = () =>
      [...root.querySelectorAll("button")].find((b) => b.textContent!.trim() === "Undo")!;
    expect(undoButton().disabled).toBe(true);
    key(cellFrames(root)[0]!, { key: "Backspace", altKey: true });
    await el.updateComplete;
    expect(names(root)).toEqual(["ts y"]);
    expect(root.querySelector(".toast")!.textContent).toMatch(/Deleted ts cell/);
    expect(undoButton().disabled).toBe(false);
    root.querySelector<HTMLButtonElement>(".toast button")!.click();
    await el.updateComplete;
    expect(names(root)).toEqual(["ts x", "ts y"]);
    expect(root.querySelector(".toast")).toBeNull();
    expect(undoButton().disabled).toBe(true);
  });

  it("Alt+↓ moves a cell down; Ctrl+Z outside an editor undoes it; keys in an editor are the editor's", async () => {
    const { el, root } = await mount();
    key(cellFrames(root)[0]!, { key: "ArrowDown", altKey: true });
    await el.updateComplete;
    expect(names(root)).toEqual(["ts y", "ts x"]);
    // inside the code editor Alt+↓ is the editor's: nothing moves
    key(cellFrames(root)[0]!.querySelector("jb-code-editor")!, { key: "ArrowDown", altKey: true });
    await el.updateComplete;
    expect(names(root)).toEqual(["ts y", "ts x"]);
    key(document.body, { key: "z", ctrlKey: true });
    await el.updateComplete;
    expect(names(root)).toEqual(["ts x", "ts y"]);
  });

  it("keeps an unrun edit in the text Save writes, marks it, and runs it with its dependents", async () => {
    const { el, root } = await mount();
    const editor = cellFrames(root)[0]!.querySelector("jb-code-editor")!;
    editor.dispatchEvent(
      new CustomEvent("code-change", { detail: "const x = 5;", bubbles: true, composed: true }),
    );
    await el.updateComplete;
    expect(cellFrames(root)[0]!.querySelector(".draft")).not.toBeNull();
    expect(el.currentText()).toContain("```ts\nconst x = 5;\n```");
    expect(el.runtime!.states().find((s) => s.defines.includes("y"))!.value).toEqual({ y: 20 });
    el.runAll();
    await el.runtime!.settled(30_000);
    await el.updateComplete;
    expect(el.runtime!.states().find((s) => s.defines.includes("y"))!.value).toEqual({ y: 50 });
    expect(cellFrames(root)[0]!.querySelector(".draft")).toBeNull();
  });

  it("? opens the shortcut list and Escape closes it", async () => {
    const { el } = await mount();
    key(document.body, { key: "?" });
    expect(el.shortcutsOpen).toBe(true);
    key(document.body, { key: "Escape" });
    expect(el.shortcutsOpen).toBe(false);
  });

  it("new runs (runsVersion) re-run the cells that read tables, and the palette follows the tables", async () => {
    await engine.query("CREATE TABLE frames AS SELECT * FROM range(2) t(ts)");
    try {
      const { el, root } = await mount("```sql id=counted\nSELECT count(*)::INTEGER AS n FROM frames\n```\n");
      const count = async () => {
        await el.runtime!.settled(30_000);
        return ((await el.runtime!.value("counted")) as { getChild(c: string): { get(i: number): number } })
          .getChild("n")
          .get(0);
      };
      expect(await count()).toBe(2);
      await engine.query("INSERT INTO frames SELECT * FROM range(3)");
      expect(await count()).toBe(2);
      el.runsVersion = 1;
      await el.updateComplete;
      expect(await count()).toBe(5);
      // the palette: an analysis is offered when every table it needs is loaded (only frames is)
      await expect
        .poll(() =>
          [...root.querySelectorAll<HTMLOptionElement>("select option[value]:not([value=''])")].map(
            (o) => o.disabled,
          ),
        )
        .toEqual(ANALYSES.map((a) => a.needs.some((t) => t !== "frames")));
    } finally {
      await engine.query("DROP TABLE frames");
    }
  });

  it("the app's inputs are the named inputs' starting values, and set them when they change", async () => {
    const { el } = await mount('```ts\nconst baseline = view(Inputs.text({value: "none"}));\n```\n', {
      baseline: "r1",
    });
    expect(await el.runtime!.value("baseline")).toBe("r1");
    el.inputs = { baseline: "r2" };
    await el.updateComplete;
    await el.runtime!.settled(30_000);
    expect(await el.runtime!.value("baseline")).toBe("r2");
  });
});
