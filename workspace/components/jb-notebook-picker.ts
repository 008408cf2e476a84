// <jb-notebook-picker>: opens one of the notebooks bundled with the workspace (notebooks/ and its examples) by
// its ?notebook= URL, so the notebook's front matter picks the runs and the page can be shared.
import { LitElement, css, html } from "lit";
import { notebookChoices, notebookUrl } from "../app/notebook-choices";

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
