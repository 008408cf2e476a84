// Which notebook `?notebook=NAME` opens: one opened from a file in this tab (kept for reloads), a
// bundled one by name, or a `.md` served beside the workspace. A name found nowhere is an error saying where it
// looked; a dev server's HTML fallback page is never taken for a notebook.
import { notServed } from "../../bundle/browser-sources";

export interface ResolvedNotebook {
  /** what `?notebook=` says to open it again */
  name: string;
  text: string;
  /** the file name it saves under */
  path: string;
  /** its folder under notebooks/ when it is a bundled one (its runs may sit beside it) */
  folder?: string;
}

export interface NotebookLookup {
  bundled: Record<string, string>;
  folders: Record<string, string>;
  /** a notebook opened from a file in this tab, by its file name */
  opened?: (name: string) => string | undefined;
  fetch: (url: string) => Promise<Response>;
  /** the page's URL, to say where a `.md` was looked for */
  base: string;
}

/** The bundled notebook a file name stands for ("frames-overview.md" -> "frames-overview"), if any. */
export function bundledName(file: string, bundled: Record<string, string>): string | undefined {
  const name = file.replace(/^.*\//, "").replace(/\.md$/, "");
  return name in bundled ? name : undefined;
}

export async function resolveNotebook(name: string, lookup: NotebookLookup): Promise<ResolvedNotebook> {
  const path = `${name.replace(/^.*\//, "").replace(/\.md$/, "")}.md`;
  const opened = lookup.opened?.(name);
  if (opened !== undefined) {
    const same = bundledName(name, lookup.bundled);
    return { name, text: opened, path, folder: same === undefined ? undefined : lookup.folders[same] };
  }
  const text = lookup.bundled[name];
  if (text !== undefined) return { name, text, path, folder: lookup.folders[name] };
  const known = Object.keys(lookup.bundled).sort().join(", ") || "none";
  if (!name.endsWith(".md"))
    throw new Error(
      `no notebook named ${name} (looked among the bundled notebooks: ${known}; a notebook file served beside the workspace is named with .md)`,
    );
  const url = new URL(name, lookup.base).href;
  let response: Response;
  try {
    response = await lookup.fetch(url);
  } catch (e) {
    throw new Error(`no notebook named ${name} (looked at ${url}: ${(e as Error).message})`);
  }
  const wrong = notServed(response, name);
  const body = wrong === undefined ? await response.text() : "";
  // Served without a content type, the fallback page still starts like one.
  const why = wrong ?? (/^\s*<(!doctype html|html)/i.test(body) ? "an HTML page, not a notebook" : undefined);
  if (why !== undefined) {
    void response.body?.cancel().catch(() => undefined);
    throw new Error(`no notebook named ${name} (looked at ${url}: ${why}; bundled notebooks: ${known})`);
  }
  return { name, text: body, path };
}

const OPENED_KEY = "jb:opened:";

/** Keeps a notebook opened from a file for this tab, so a reload of `?notebook=<file name>` opens it again. */
export function rememberOpened(storage: Storage | undefined, name: string, text: string): void {
  try {
    storage?.setItem(OPENED_KEY + name, text);
  } catch {
    // Storage full or denied: the notebook stays open, only a reload will not find it.
  }
}

export function openedNotebook(storage: Storage | undefined, name: string): string | undefined {
  try {
    return storage?.getItem(OPENED_KEY + name) ?? undefined;
  } catch {
    return undefined;
  }
}
