// <jb-notebook-picker>: opens one of the notebooks bundled with the workspace (notebooks/ and its examples) by
// its ?notebook= URL, so the notebook's front matter picks the runs and the page can be shared (issue 19).
import { LitElement, css, html } from "lit";
import { bundledNotebookFolders, bundledNotebooks } from "../app/notebook-sources";
import { parseNotebook } from "../notebook/format";

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

export class JbNotebookPicker extends LitElement {
  static override properties = { current: {} };
  /** the open notebook's name (its file name without .md) */
  declare current: string;

  constructor() {
    super();
    this.current = "";
  }

  static override styles = css`
    select {
      font: inherit;
      font-size: 13px;
      max-width: 280px;
      padding: 2px 4px;
    }
  `;

  override render() {
    const choices = notebookChoices();
    const known = choices.some((c) => c.name === this.current);
    const groups = [...new Set(choices.map((c) => c.folder))];
    return html`<select
      aria-label="notebook"
      title="open a bundled notebook"
      @change=${(e: Event) => location.assign(notebookUrl(location.href, (e.target as HTMLSelectElement).value))}
    >
      ${known ? "" : html`<option selected value="">${this.current || "notebook"}</option>`}
      ${groups.map(
        (g) =>
          html`<optgroup label=${g ? `notebooks/${g}` : "notebooks"}>
            ${choices
              .filter((c) => c.folder === g)
              .map(
                (c) =>
                  html`<option value=${c.name} ?selected=${c.name === this.current}>
                    ${c.title === c.name ? c.name : `${c.title} (${c.name})`}
                  </option>`,
              )}
          </optgroup>`,
      )}
    </select>`;
  }
}
customElements.define("jb-notebook-picker", JbNotebookPicker);
