// @vitest-environment jsdom
// The ReactiveControllers <jb-app> and <jb-notebook> are made of, each on a small Lit host element (jsdom): the
// toast that goes after its time or on dismissal, the undo stack, the drafts, the recovered-draft file state,
// and the overview chart drawn from a real session (DuckDB-WASM's Node build, a sample run).
import { join } from "node:path";
import { LitElement } from "lit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { folderSource } from "../../../bundle/node-io";
import { loadDraft, saveDraft } from "../../../workspace/app/autosave";
import { Session } from "../../../workspace/app/session";
import { NotebookDrafts } from "../../../workspace/components/notebook-drafts";
import { NotebookFileController } from "../../../workspace/components/notebook-file-controller";
import { OverviewChartController } from "../../../workspace/components/overview-chart-controller";
import { ToastController } from "../../../workspace/components/toast-controller";
import { UndoController } from "../../../workspace/components/undo-controller";
import { cells, parseNotebook } from "../../../workspace/notebook/format";
import { createNodeEngine } from "../../../workspace/db/node/duckdb-node";

/** A host that counts the updates its controllers ask for. */
class Host extends LitElement {
  updates = 0;
  override requestUpdate(...args: Parameters<LitElement["requestUpdate"]>) {
    this.updates++;
    super.requestUpdate(...args);
  }
}
customElements.define("test-controller-host", Host);
const host = () => document.body.appendChild(new Host());

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

describe("ToastController", () => {
  it("shows a toast, replaces it, and lets it go after its time (the timer restarts with each)", () => {
    vi.useFakeTimers();
    const h = host();
    const toast = new ToastController(h, 8000);
    const before = h.updates;
    toast.show("Deleted ts cell x");
    vi.advanceTimersByTime(5000);
    toast.show("Moved ts cell up");
    vi.advanceTimersByTime(5000);
    expect(toast.value).toBe("Moved ts cell up");
    vi.advanceTimersByTime(3001);
    expect(toast.value).toBeUndefined();
    expect(h.updates - before).toBe(3);
  });

  it("without a time, stays until dismissed; a disconnected host's timer is dropped", () => {
    vi.useFakeTimers();
    const removal = new ToastController<{ message: string }>(host());
    removal.show({ message: "removed r1" });
    vi.advanceTimersByTime(60_000);
    expect(removal.value).toEqual({ message: "removed r1" });
    removal.clear();
    expect(removal.value).toBeUndefined();
    const h = host();
    const toast = new ToastController(h, 100);
    toast.show("x");
    h.remove();
    vi.advanceTimersByTime(1000);
    expect(toast.value).toBe("x");
  });
});

describe("UndoController", () => {
  it("gives states back last first, and asks for a render when it fills or empties", () => {
    const h = host();
    const undo = new UndoController<string>(h);
    const before = h.updates;
    expect(undo.canUndo).toBe(false);
    undo.push("a");
    undo.push("b");
    expect(h.updates - before).toBe(1);
    expect([undo.pop(), undo.canUndo, undo.pop(), undo.canUndo, undo.pop()]).toEqual([
      "b",
      true,
      "a",
      false,
      undefined,
    ]);
    expect(h.updates - before).toBe(2);
  });
});

describe("NotebookDrafts", () => {
  const nb = parseNotebook("Prose.\n\n```ts\nconst a = 1;\n```\n\n```sql id=q\nSELECT 1\n```\n");
  const [a, q] = cells(nb);

  it("notes when a cell starts or stops differing from what ran (a final newline is no difference)", () => {
    const d = new NotebookDrafts();
    expect(d.edit(a!, "const a = 2;")).toBe(true);
    expect(d.edit(a!, "const a = 3;")).toBe(false);
    expect(d.edit(a!, "const a = 1;")).toBe(true);
    expect(d.edit(q!, "SELECT 1")).toBe(false);
    expect(d.size).toBe(0);
  });

  it("writes the drafts into the text, and forgets cells that are gone", () => {
    const d = new NotebookDrafts();
    d.edit(q!, "SELECT 2");
    expect(d.applied(nb)).toBe("Prose.\n\n```ts\nconst a = 1;\n```\n\n```sql id=q\nSELECT 2\n```\n");
    d.keepOnly(parseNotebook("```ts\nconst a = 1;\n```\n"));
    expect(d.size).toBe(0);
  });
});

describe("NotebookFileController", () => {
  it("shows a recovered draft until it is discarded, which forgets the draft", () => {
    const h = host();
    const file = new NotebookFileController(h);
    saveDraft("recover-test.md", "typed before the crash");
    file.setRecovered(loadDraft("recover-test.md")!.at);
    expect(file.recovered).toMatch(/^\d{4}-\d\d-\d\dT/);
    file.discard("recover-test.md");
    expect(file.recovered).toBeUndefined();
    expect(loadDraft("recover-test.md")).toBeUndefined();
  });
});

describe("OverviewChartController", () => {
  it("draws the loaded runs' frames (one dot per frame), and nothing without frames", async () => {
    const h = host();
    const overview = new OverviewChartController(h);
    const session = new Session(await createNodeEngine());
    try {
      await overview.refresh(session);
      expect(overview.chart).toBeUndefined();
      const [run] = await session.load([
        folderSource(join("workspace/public/samples", "k9-pixel-2-android9-r1")),
      ]);
      expect(run!.errors).toEqual([]);
      await overview.refresh(session);
      expect(overview.error).toBeUndefined();
      const dots = overview.chart!.marks!.flatMap((m) => {
        const data = (m as unknown as { data?: { numRows?: number; length?: number } }).data;
        return data ? [data.numRows ?? data.length ?? 0] : [];
      });
      expect(dots).toContain(run!.rows.frames);
      overview.clear();
      expect(overview.chart).toBeUndefined();
    } finally {
      await session.engine.close();
    }
  });
});
