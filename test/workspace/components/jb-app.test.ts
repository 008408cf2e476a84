// @vitest-environment jsdom
// <jb-app> as an element (jsdom; DuckDB-WASM's Node build as its engine; the sample runs served from
// workspace/public by a fetch that reads the files): the notebook's own runs load and show in the runs table, the
// chart and the table list; a run added by URL shows and re-runs the cells that read tables; the runs table's
// events reach the runs controller (mark, remove, Open compare) and the URL follows; a drop adds a run the URL
// cannot name. Frame counts are checked against the Arrow files themselves (apache-arrow), not the loader.
import { File as NodeFile } from "node:buffer";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tableFromIPC } from "apache-arrow";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { rememberOpened } from "../../../workspace/app/notebook-resolve";
import type { SqlEngine } from "../../../workspace/db/engine";
import { createNodeEngine } from "../../../workspace/db/node/duckdb-node";
import "../../support/jsdom-layout";
import type { JbApp } from "../../../workspace/components/jb-app";
import type { JbNotebook } from "../../../workspace/components/jb-notebook";

const PUBLIC = "workspace/public";
const A = "k9-pixel-2-android9-r1";
const B = "k9-pixel-4a-android11-r1";
const file = (run: string, name: string) => readFileSync(join(PUBLIC, "samples", run, name));
const runId = (run: string) =>
  (JSON.parse(file(run, "manifest.json").toString()) as { run_id: string }).run_id;
const framesIn = (run: string) => tableFromIPC(file(run, "frames.arrows")).numRows;

/** A notebook whose own run is A, with one cell that reads a table. */
const NOTEBOOK = `---\nruns: [${A}]\n---\n\n# Frames\n\n\`\`\`sql id=counted\nSELECT count(*)::INTEGER AS n FROM frames\n\`\`\`\n`;

// jsdom lays nothing out (test/support/jsdom-layout.ts): the chart gets a width as in a page.
Object.defineProperty(HTMLElement.prototype, "clientWidth", { configurable: true, get: () => 1000 });
window.matchMedia = () =>
  ({ matches: false, addEventListener() {}, removeEventListener() {} }) as unknown as MediaQueryList;

// The page's server: files under workspace/public, 404 for anything else (notebook-runs.json: no runs beside notebooks).
vi.stubGlobal("fetch", async (input: string | URL | Request) => {
  const url = new URL(input instanceof Request ? input.url : input, location.href);
  try {
    const bytes = readFileSync(join(PUBLIC, decodeURIComponent(url.pathname)));
    const type = url.pathname.endsWith(".json") ? "application/json" : "application/octet-stream";
    return new Response(bytes, { headers: { "content-type": type, "content-length": `${bytes.length}` } });
  } catch {
    return new Response("not found", { status: 404, headers: { "content-type": "text/plain" } });
  }
});

const engines: SqlEngine[] = [];
beforeAll(async () => {
  await import("../../../workspace/components/jb-app");
  await import("../../../workspace/components/jb-notebook");
});
afterEach(async () => {
  for (const el of document.querySelectorAll("jb-app")) el.remove();
  for (const e of engines.splice(0)) await e.close();
  sessionStorage.clear();
  localStorage.clear();
});

/** Opens the page at `search` (the notebook above as `t.md`) and waits for its runs and its notebook. */
async function mount(search: string) {
  rememberOpened(sessionStorage, "t.md", NOTEBOOK);
  history.replaceState(null, "", `/${search}`);
  const el = document.createElement("jb-app") as JbApp;
  el.createEngine = async () => {
    const engine = await createNodeEngine();
    engines.push(engine);
    return engine;
  };
  document.body.append(el);
  await vi.waitFor(() => expect(status(el)).toMatch(/runs? loaded/), { timeout: 60_000, interval: 20 });
  await vi.waitFor(() => expect(notebook(el)).not.toBeNull(), { timeout: 60_000, interval: 20 });
  return el;
}

const root = (el: JbApp) => el.shadowRoot!;
const status = (el: JbApp) => root(el).querySelector("header .status")!.textContent!.trim();
const notebook = (el: JbApp) => root(el).querySelector<JbNotebook>("jb-notebook");
const overview = (el: JbApp) => root(el).querySelector("jb-run-overview")!.shadowRoot!;
const tableRuns = (el: JbApp) =>
  [...overview(el).querySelectorAll<HTMLElement>("tr.run")].map((r) => r.dataset.run);
const param = (name: string) => new URL(location.href).searchParams.get(name);

/** The notebook's `counted` cell once it settles: the frames its query counts. */
async function counted(el: JbApp): Promise<number> {
  const rt = notebook(el)!.runtime!;
  await rt.settled(30_000);
  const table = (await rt.value("counted")) as { getChild(c: string): { get(i: number): number } };
  return table.getChild("n").get(0);
}

/** The runs table's own button (the event starts inside <jb-run-overview>'s shadow root). */
async function press(el: JbApp, label: string) {
  const button = [...overview(el).querySelectorAll("button")].find(
    (b) => b.getAttribute("aria-label") === label || b.textContent!.trim() === label,
  );
  if (!button) throw new Error(`no button ${label} in the runs table`);
  button.click();
  await el.updateComplete;
}

describe("<jb-app>", () => {
  it("shows its own runs; a run added by URL, marked and removed through the runs table's events, and its Undo", async () => {
    const el = await mount("?notebook=t.md");
    expect(status(el)).toBe("1 run loaded (streamed)");
    expect(tableRuns(el)).toEqual([runId(A)]);
    expect(root(el).querySelector("#frames jb-plot")).not.toBeNull();
    expect(el.tables.map((t) => t.name)).toContain("frames");
    expect(await counted(el)).toBe(framesIn(A));
    // its own runs: the URL names the notebook only
    expect(location.search).toBe("?notebook=t.md");

    // a run added by URL: in the table, in the URL, and the cells that read tables re-run
    const form = root(el).querySelector("form")!;
    form.querySelector("input")!.value = `samples/${B}/`;
    form.dispatchEvent(new SubmitEvent("submit", { cancelable: true }));
    await vi.waitFor(() => expect(status(el)).toBe("2 runs loaded (streamed)"), { timeout: 60_000 });
    await el.updateComplete;
    expect(tableRuns(el)).toEqual([runId(A), runId(B)]);
    expect(param("runs")).toBe(`samples/${A},samples/${B}`);
    expect(await counted(el)).toBe(framesIn(A) + framesIn(B));

    // mark-run from the table: the URL and the notebook's inputs take the mark
    await press(el, `baseline ${runId(B)}`);
    expect(param("baseline")).toBe(runId(B));
    expect(notebook(el)!.inputs).toEqual({ baseline: [runId(B)] });

    // remove-run from the table: the run, its mark and its URL entry go; the cells count A's frames again
    await press(el, `remove samples/${B}`);
    await vi.waitFor(() => expect(status(el)).toBe("1 run loaded (streamed)"), { timeout: 60_000 });
    await el.updateComplete;
    expect(tableRuns(el)).toEqual([runId(A)]);
    expect(param("baseline")).toBeNull();
    expect(param("runs")).toBeNull();
    expect(notebook(el)!.inputs).toBeUndefined();
    expect(await counted(el)).toBe(framesIn(A));
    const toast = root(el).querySelector(".toast")!;
    expect(toast.textContent).toMatch(new RegExp(`removed ${runId(B)}`));

    // the toast's Undo loads it again from its URL
    [...toast.querySelectorAll("button")].find((b) => b.textContent === "Undo")!.click();
    await vi.waitFor(() => expect(status(el)).toBe("2 runs loaded (streamed)"), { timeout: 60_000 });
    await el.updateComplete;
    expect(tableRuns(el)).toEqual([runId(A), runId(B)]);
    expect(root(el).querySelector(".toast")).toBeNull();
    expect(param("runs")).toBe(`samples/${A},samples/${B}`);
    expect(await counted(el)).toBe(framesIn(A) + framesIn(B));
  });

  it("a dropped run loads, the page says a reload cannot bring it back, and Open compare will not take it", async () => {
    const el = await mount(`?notebook=t.md&baseline=${runId(A)}`);
    el.dispatchEvent(new Event("dragover", { cancelable: true }));
    await el.updateComplete;
    expect(root(el).querySelector(".drop")).not.toBeNull();
    const drop = (files: NodeFile[]) => {
      const e = new Event("drop", { cancelable: true });
      Object.defineProperty(e, "dataTransfer", { value: { items: [], files } });
      el.dispatchEvent(e);
    };
    drop([new NodeFile(["not a run"], "notes.txt")]);
    await vi.waitFor(() =>
      expect(status(el)).toBe("dropped files hold no manifest.json: drop a run bundle folder"),
    );
    expect(root(el).querySelector(".drop")).toBeNull();
    const names = ["manifest.json", "frames.arrows", "ui_events.arrows", "tasks.arrows", "contexts.arrows"];
    drop(names.map((n) => new NodeFile([file(B, n)], n)));
    await vi.waitFor(() => expect(status(el)).toBe("2 runs loaded (streamed)"), { timeout: 60_000 });
    await el.updateComplete;
    expect(tableRuns(el)).toEqual([runId(A), runId(B)]);
    expect(root(el).querySelector("#overview [role=note]")!.textContent).toMatch(
      /1 dropped run is not in the page's URL/,
    );
    // the URL lists only what it can load again
    expect(param("runs")).toBeNull();
    expect(await counted(el)).toBe(framesIn(A) + framesIn(B));

    // open-compare from the table: the dropped run cannot be one of its sides (that notebook loads runs by URL)
    await press(el, `candidate ${runId(B)}`);
    expect(param("candidate")).toBe(runId(B));
    await press(el, "Open compare");
    expect(status(el)).toBe(
      `cannot open compare: ${runId(B)} was dropped, not opened from a URL (the compare notebook loads its runs by URL); unmark it or open it by URL`,
    );
    expect(param("notebook")).toBe("t.md");
  });
});
