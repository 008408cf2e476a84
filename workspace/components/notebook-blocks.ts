// What <jb-notebook> renders, block by block: its toolbar (palette, add, run all, undo), a prose block (rendered
// Markdown, or its editor), a cell (bar, code, error, outputs, checks) and the insert bar under it.
import { html, noChange, nothing } from "lit";
import { unsafeHTML } from "lit/directives/unsafe-html.js";
import type { SQLNamespace } from "@codemirror/lang-sql";
import type { Block, Cell } from "../notebook/format";
import { plotTargets, type PlotFields, type PlotTarget } from "../../charts/plot-edit";
import type { CellState } from "../notebook/runtime";
import { cellStatusName } from "../notebook/cell-state";
import { classifyDisplay } from "../notebook/display-kind";
import { ANALYSES, type PaletteEntry } from "../app/analysis-palette";
import { renderMarkdown } from "../notebook/markdown-render";
import { sanitize } from "../publish/browser-sanitize";
import type { InsertKind } from "./jb-insert-bar";

const rendered = new Map<string, string>();

/** Rendered Markdown by text: a notebook re-renders every frame while cells settle; its prose rarely changes. */
function markdown(text: string): string {
  let out = rendered.get(text);
  if (out === undefined) {
    if (rendered.size > 500) rendered.clear();
    rendered.set(text, (out = renderMarkdown(text, sanitize)));
  }
  return out;
}

/** The notebook element as its blocks see it: what they show and the actions their buttons and editors call. */
export interface NotebookBlockHost {
  focusIndex: number;
  shortcutsOpen: boolean;
  readonly editingProse: number;
  readonly canUndo: boolean;
  readonly schema: SQLNamespace | undefined;
  draftOf(cell: Cell): string | undefined;
  runCell(index: number, source: string): void;
  runAll(): void;
  undo(): void;
  moveCell(index: number, delta: -1 | 1): void;
  addCell(after?: number): void;
  deleteCell(index: number): void;
  insertAnalysis(entry: PaletteEntry): void;
  onInsert(after: number, kind: InsertKind): void;
  onDraft(index: number, text: string): void;
  onPlotEdit(index: number, target: PlotTarget, fields: PlotFields): void;
  openProse(index: number): void;
  finishProse(index: number, text: string): void;
  focusBlock(index: number, editor: boolean): Promise<void>;
}

/** `tables`: the engine's; an analysis that reads one not loaded is greyed out, with the reason. */
export function notebookToolbar(host: NotebookBlockHost, tables: ReadonlySet<string>) {
  return html`<div class="toolbar">
    <select
      aria-label="insert analysis"
      @change=${(e: Event) => {
        const select = e.target as HTMLSelectElement;
        const entry = ANALYSES[Number(select.value)];
        if (entry) host.insertAnalysis(entry);
        select.value = "";
      }}
    >
      <option value="">Insert analysis…</option>
      ${ANALYSES.map((a, i) => {
        // Greyed out, with the reason, when a table it reads is not loaded (none are known yet: all offered).
        const missing = tables.size ? a.needs.filter((t) => !tables.has(t)) : [];
        return html`<option
          value=${i}
          ?disabled=${missing.length > 0}
          title=${missing.length ? `needs ${missing.join(", ")}, not loaded` : a.label}
        >
          ${a.label}${missing.length ? ` (needs ${missing.join(", ")})` : ""}
        </option>`;
      })}
    </select>
    <button @click=${() => host.addCell()} title="Alt+N on a cell">Add cell</button>
    <button @click=${() => host.runAll()} title="Alt+Enter">Run all</button>
    <button @click=${() => host.undo()} ?disabled=${!host.canUndo} title="Ctrl/Cmd+Z outside an editor">
      Undo
    </button>
    <button
      @click=${() => (host.shortcutsOpen = true)}
      title="keyboard shortcuts (?)"
      aria-label="keyboard shortcuts"
    >
      ?
    </button>
  </div>`;
}

export function proseBlock(host: NotebookBlockHost, b: Block & { type: "prose" }, index: number) {
  const focused = index === host.focusIndex ? "focused" : "";
  if (index === host.editingProse)
    return html`<div class="block prose editing ${focused}">
      <jb-code-editor
        .code=${b.text}
        .language=${"markdown"}
        @editor-blur=${(e: CustomEvent<string>) => host.finishProse(index, e.detail)}
        @editor-escape=${(e: Event) => (e.target as HTMLElement).blur()}
      ></jb-code-editor>
    </div>`;
  if (!b.text.trim()) return nothing;
  return html`<div
    class="block prose ${focused}"
    title="click to edit"
    @click=${(e: MouseEvent) => {
      host.focusIndex = index;
      // A link is followed, not edited.
      if (!e.composedPath().some((t) => (t as Element).tagName === "A")) host.openProse(index);
    }}
  >
    ${unsafeHTML(markdown(b.text))}
  </div>`;
}

/**
 * The notebook's blocks cut into sections, each starting at a prose block with a level-2 or level-3 heading: an
 * input cell stays in view while its section is (sticky), so the charts it drives are never far from it.
 */
export function sections(blocks: readonly Block[]): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  blocks.forEach((b, i) => {
    if (i > start && b.type === "prose" && /^#{2,3}[ \t]/m.test(b.text)) {
      out.push([start, i]);
      start = i;
    }
  });
  if (blocks.length > start) out.push([start, blocks.length]);
  return out;
}

/** A cell that shows only inputs (`const tauMs = view(Inputs.range(...))`). */
export function isInputCell(s: CellState | undefined): boolean {
  return !!s?.displays.length && s.displays.every((d) => classifyDisplay(d).kind === "input");
}

export function cellBlock(host: NotebookBlockHost, b: Cell, index: number, s: CellState | undefined) {
  const focused = index === host.focusIndex ? "focused" : "";
  const targets = plotTargets(s?.displays ?? []);
  const draft = host.draftOf(b);
  return html`<div
      class="block cell ${focused} ${isInputCell(s) ? "input" : ""}"
      tabindex="0"
      data-index=${index}
      data-cell=${b.name ?? b.id}
      data-kind=${b.kind}
      @focusin=${() => (host.focusIndex = index)}
      @editor-escape=${() => void host.focusBlock(index, false)}
    >
      <div class="bar">
        <span class="name"
          >${b.kind}${b.name ? ` ${b.name}` : s?.defines.length ? ` ${s.defines.join(", ")}` : ""}</span
        >
        <span class="status-${cellStatusName(s)}"
          >${cellStatusName(s).replace("-", " ")}${s?.ms !== undefined ? ` · ${s.ms.toFixed(0)} ms` : ""}</span
        >
        ${draft !== undefined ? html`<span class="draft">edited, not run (Shift+Enter)</span>` : nothing}
        <button title="run (Shift+Enter)" @click=${() => host.runCell(index, draft ?? b.source)}>run</button>
        <button title="move up (Alt+↑ on the cell)" @click=${() => host.moveCell(index, -1)}>↑</button>
        <button title="move down (Alt+↓ on the cell)" @click=${() => host.moveCell(index, 1)}>↓</button>
        <button title="add a cell below (Alt+N on the cell)" @click=${() => host.addCell(index)}>+</button>
        <button title="delete (Alt+Backspace on the cell; undoable)" @click=${() => host.deleteCell(index)}>
          ✕
        </button>
      </div>
      <details
        class="code"
        .open=${
          // Opened when there is something to read (SQL, an empty cell, a draft, an error), never closed here: code
          // the user opened stays open once it has run.
          b.kind === "sql" || !b.source.trim() || draft !== undefined || cellStatusName(s) === "rejected"
            ? true
            : noChange
        }
      >
        <summary>code</summary>
        <jb-code-editor
          .code=${draft ?? b.source}
          .language=${b.kind}
          .schema=${b.kind === "sql" ? host.schema : undefined}
          @code-change=${(e: CustomEvent<string>) => host.onDraft(index, e.detail)}
          @run-cell=${(e: CustomEvent<string>) => host.runCell(index, e.detail)}
        ></jb-code-editor>
      </details>
      ${
        cellStatusName(s) === "not-applicable"
          ? html`<div class="not-applicable" role="note">
              not applicable to these runs: ${s?.notApplicable}
            </div>`
          : s?.status === "rejected"
            ? html`<div class="error" role="alert">${s.error}</div>`
            : nothing
      }
      ${(s?.displays ?? []).map((d, k) => {
        const target = targets[k];
        return html`<jb-output
          .value=${d}
          @plot-edit=${(e: CustomEvent<PlotFields>) => target && host.onPlotEdit(index, target, e.detail)}
        ></jb-output>`;
      })}
      ${
        s?.checks.length
          ? html`<ul class="checks">
              ${s.checks.map((c) => html`<li class=${c.ok ? "ok" : "status-rejected"}>${c.ok ? "✓" : "✗"} ${c.name}${c.detail ? ` (${c.detail})` : ""}</li>`)}
            </ul>`
          : nothing
      }
    </div>
    <jb-insert-bar
      @insert=${(e: CustomEvent<InsertKind>) => host.onInsert(index, e.detail)}
    ></jb-insert-bar>`;
}
