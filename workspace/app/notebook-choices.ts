// The notebooks the picker offers: the bundled ones with their titles, and the URL that opens one.
import { parseNotebook } from "../notebook/format";
import { bundledNotebookFolders, bundledNotebooks } from "./notebook-sources";

export interface NotebookChoice {
  name: string;
  title: string;
  folder: string;
}

/** The bundled notebooks, top-level ones first, each with the title its front matter gives. */
export function notebookChoices(): NotebookChoice[] {
  const folders = bundledNotebookFolders();
  return Object.entries(bundledNotebooks())
    .map(([name, text]) => {
      let title = name;
      try {
        title = parseNotebook(text).frontMatter?.title ?? name;
      } catch {
        // a notebook whose front matter does not parse is still listed, by its file name
      }
      return { name, title, folder: folders[name] ?? "" };
    })
    .sort((a, b) => a.folder.localeCompare(b.folder) || a.name.localeCompare(b.name));
}

/** The page's URL with `notebook` set; the runs given for another notebook are dropped. */
export function notebookUrl(href: string, name: string): string {
  const url = new URL(href);
  url.searchParams.set("notebook", name);
  url.searchParams.delete("runs");
  url.hash = "";
  return url.toString();
}
