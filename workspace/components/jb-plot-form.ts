// <jb-plot-form>: the editable plot's spec as a small form (mark, channels, facet, filter) built from the
// result's columns; each change goes out as "plot-edit" with the changed fields.
import { LitElement, css, html } from "lit";
import type { PlotFields } from "../../charts/plot-edit";
import { FILTER_OPS, MARKS, type PlotSpec } from "../../charts/plot-spec";

const FIELDS = ["x", "y", "fill", "stroke", "fx", "fy"] as const;

export function columnsOf(data: unknown): string[] {
  const t = data as { schema?: { fields?: { name: string }[] } } | unknown[];
  if (Array.isArray(t)) return t.length ? Object.keys(t[0] as object) : [];
  return t?.schema?.fields?.map((f) => f.name) ?? [];
}

export class JbPlotForm extends LitElement {
  static override properties = { spec: { attribute: false } };
  declare spec: PlotSpec | undefined;

  static override styles = css`
    :host {
      display: block;
      font-size: 12px;
    }
    form {
      display: grid;
      grid-template-columns: auto 1fr;
      gap: 3px 6px;
      align-items: center;
    }
    label {
      color: var(--jb-muted, #5d6678);
    }
    select,
    input {
      font: inherit;
      font-size: 12px;
      min-width: 0;
    }
    .filter {
      display: flex;
      gap: 3px;
    }
    .filter input {
      width: 60px;
    }
  `;

  private emit(fields: PlotFields) {
    this.dispatchEvent(new CustomEvent("plot-edit", { detail: fields, bubbles: true, composed: true }));
  }

  private onFilter() {
    const q = (n: string) =>
      this.renderRoot.querySelector<HTMLSelectElement | HTMLInputElement>(`[name=${n}]`)!.value;
    const column = q("filter-column");
    const raw = q("filter-value");
    const value =
      raw !== "" && !Number.isNaN(Number(raw))
        ? Number(raw)
        : raw === "true"
          ? true
          : raw === "false"
            ? false
            : raw;
    this.emit({
      filter: column
        ? [
            column,
            q("filter-op") as PlotFields["filter"] extends infer F
              ? F extends [string, infer O, unknown]
                ? O
                : never
              : never,
            value,
          ]
        : null,
    });
  }

  override render() {
    const spec = this.spec;
    if (!spec) return html``;
    const columns = columnsOf(spec.data);
    const channel = (name: (typeof FIELDS)[number]) =>
      html`<label for=${name}>${name}</label>
        <select
          name=${name}
          id=${name}
          @change=${(e: Event) => this.emit({ [name]: (e.target as HTMLSelectElement).value || null })}
        >
          <option value="" ?selected=${!spec[name]}>—</option>
          ${columns.map((c) => html`<option ?selected=${spec[name] === c}>${c}</option>`)}
        </select>`;
    const [fc, fo, fv] = spec.filter ?? ["", ">", ""];
    return html`<form @submit=${(e: Event) => e.preventDefault()}>
      <label for="mark">mark</label>
      <select
        name="mark"
        id="mark"
        @change=${(e: Event) => this.emit({ mark: (e.target as HTMLSelectElement).value as PlotFields["mark"] })}
      >
        ${MARKS.map((m) => html`<option ?selected=${spec.mark === m}>${m}</option>`)}
      </select>
      ${FIELDS.map(channel)}
      <label>filter</label>
      <span class="filter">
        <select name="filter-column" @change=${this.onFilter}>
          <option value="" ?selected=${!fc}>—</option>
          ${columns.map((c) => html`<option ?selected=${fc === c}>${c}</option>`)}
        </select>
        <select name="filter-op" @change=${this.onFilter}>
          ${FILTER_OPS.map((o) => html`<option ?selected=${fo === o}>${o}</option>`)}
        </select>
        <input name="filter-value" .value=${String(fv)} @change=${this.onFilter} />
      </span>
    </form>`;
  }
}
customElements.define("jb-plot-form", JbPlotForm);
