// <jb-shortcuts>: the `?` sheet, so no shortcut is a surprise: every notebook shortcut and where it works.
// Cell shortcuts act on the focused cell frame (click its bar, or Escape out of its editor), never inside an
// editor, where keys mean what they mean in CodeMirror.
import { LitElement, css, html, nothing } from "lit";

export const SHORTCUTS: { where: string; keys: [string, string][] }[] = [
  {
    where: "In an editor",
    keys: [
      ["Shift+Enter or Ctrl/Cmd+Enter", "run the cell"],
      ["Escape", "leave the editor: focus goes to the cell frame"],
      ["Alt+Backspace", "delete the word before the cursor"],
      ["Alt+↑ / Alt+↓", "move the line"],
      ["Ctrl/Cmd+Z", "undo typing"],
    ],
  },
  {
    where: "On a cell frame",
    keys: [
      ["Enter", "edit the cell's code"],
      ["Shift+Enter", "run the cell"],
      ["↑ / ↓", "previous / next cell"],
      ["Alt+↑ / Alt+↓", "move the cell, with the prose above it, by one"],
      ["Alt+N", "add a ts cell below"],
      ["Alt+Backspace", "delete the cell (undoable)"],
    ],
  },
  {
    where: "Anywhere outside an editor",
    keys: [
      ["Ctrl/Cmd+Z", "undo the last notebook change (delete, move, insert, prose edit)"],
      ["Alt+Enter", "run all"],
      ["?", "this sheet"],
    ],
  },
];

export class JbShortcuts extends LitElement {
  static override properties = { open: { type: Boolean, reflect: true } };
  declare open: boolean;

  constructor() {
    super();
    this.open = false;
  }

  static override styles = css`
    .sheet {
      position: fixed;
      inset: 10% 20% auto;
      max-height: 80vh;
      overflow: auto;
      background: var(--jb-panel, #fff);
      border: 1px solid var(--jb-border, #dfe3ea);
      border-radius: 6px;
      box-shadow: 0 8px 30px #0003;
      padding: 12px 18px;
      z-index: 10;
      font-size: 13px;
    }
    h3 {
      margin: 10px 0 4px;
      font-size: 13px;
    }
    kbd {
      font-family: ui-monospace, monospace;
      white-space: nowrap;
    }
    td {
      padding: 2px 12px 2px 0;
      vertical-align: top;
    }
  `;

  override render() {
    if (!this.open) return nothing;
    return html`<div
      class="sheet"
      role="dialog"
      aria-label="Keyboard shortcuts"
      @keydown=${(e: KeyboardEvent) => e.key === "Escape" && this.close()}
    >
      <button style="float: right" @click=${() => this.close()} aria-label="close">✕</button>
      <h2 style="font-size: 15px; margin: 0">Keyboard shortcuts</h2>
      ${SHORTCUTS.map(
        (g) =>
          html`<h3>${g.where}</h3>
            <table>
              ${g.keys.map(
                ([k, what]) =>
                  html`<tr>
                    <td><kbd>${k}</kbd></td>
                    <td>${what}</td>
                  </tr>`,
              )}
            </table>`,
      )}
    </div>`;
  }

  close() {
    this.open = false;
    this.dispatchEvent(new CustomEvent("close", { bubbles: true, composed: true }));
  }
}
customElements.define("jb-shortcuts", JbShortcuts);
