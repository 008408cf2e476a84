// Driving the built workspace in Chromium: open a notebook, wait until no cell is pending, find a cell by what
// it defines, read the notebook's value snapshot.
import type { Browser, Locator, Page } from "playwright-core";
import type { NotebookSnapshot } from "../../workspace/notebook/snapshot";

export interface OpenedNotebook {
  page: Page;
  /** uncaught exceptions in the page */
  errors: string[];
}

/** Opens the workspace at `query` (e.g. "?notebook=triage", or "" for the default) in a fresh context. */
export async function openWorkspace(browser: Browser, url: string, query = ""): Promise<OpenedNotebook> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${url}${query}`, { timeout: 120_000 });
  // Generous: parity opens the page while the headless run of the same notebook shares the 2 cores.
  await page.locator("jb-notebook .block.cell").first().waitFor({ timeout: 150_000 });
  await notebookSettled(page);
  return { page, errors };
}

/** Resolves once the runtime has nothing pending (cells, scheduled recomputes), as the runtime itself says. */
export async function notebookSettled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const nb = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook") as unknown as {
      runtime?: { settled(ms: number): Promise<void> };
    };
    // triage's cells take a minute on a loaded 2-core machine (CI runs at load 10); a test's own timeout is 240 s
    await nb.runtime!.settled(150_000);
  });
  // the notebook re-renders on the next animation frame after its cells settle
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** The ts cell whose defined names are exactly `names` (the cell bar shows "ts a, b"). */
export function cellDefining(page: Page, ...names: string[]): Locator {
  const label = new RegExp(`^ts ${names.join(", ")}$`);
  return page
    .locator("jb-notebook .block.cell")
    .filter({ has: page.locator(".bar .name", { hasText: label }) });
}

export function notebookSnapshot(page: Page): Promise<NotebookSnapshot> {
  return page.evaluate(() => {
    const nb = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook") as unknown as {
      snapshot(): Promise<NotebookSnapshot>;
    };
    return nb.snapshot();
  });
}

/** A cell's code as its editor holds it (the editor is made only once the code is opened or scrolled near). */
export function cellCode(cell: Locator): Promise<string> {
  return cell.locator("jb-code-editor").evaluate((e) => (e as unknown as { value: string }).value);
}

/** The CodeMirror content of a cell's open code, scrolled into view so that its editor is made. */
export async function openEditor(cell: Locator): Promise<Locator> {
  await cell.locator("jb-code-editor").scrollIntoViewIfNeeded();
  return cell.locator("jb-code-editor .cm-content");
}
