// <jb-notebook>'s styles: cells, prose, the toolbar, errors, the undo toast.
import { css } from "lit";

export const notebookStyles = css`
  :host {
    display: block;
  }
  .block {
    margin: 0 0 10px;
    border-left: 3px solid transparent;
    padding-left: 10px;
  }
  /* an input stays in view while the section it drives is (sticky-inputs-controller.ts stacks them) */
  .block.cell.input {
    position: sticky;
    top: 0;
    z-index: 1;
    background: var(--jb-panel, #fff);
  }
  .block.focused {
    border-left-color: var(--jb-accent, #3b5bdb);
  }
  .prose :first-child {
    margin-top: 0;
  }
  .prose :is(h1, h2, h3) {
    scroll-margin-top: 56px; /* below the sticky toolbar */
  }
  .bar {
    display: flex;
    gap: 8px;
    align-items: center;
    font-size: 11px;
    color: var(--jb-muted, #5d6678);
    margin: 2px 0;
  }
  .bar .name {
    font-family: ui-monospace, monospace;
  }
  .bar button {
    font-size: 11px;
  }
  .status-pending {
    color: var(--jb-warn, #b35c00);
  }
  .status-rejected {
    color: var(--jb-bad, #c92a2a);
  }
  .status-not-applicable {
    color: var(--jb-muted, #6b7280);
  }
  .not-applicable {
    color: var(--jb-muted, #6b7280);
    border: 1px dashed var(--jb-border, #d0d7de);
    border-radius: 4px;
    padding: 6px 8px;
    font-size: 12px;
  }
  .error {
    color: var(--jb-bad, #c92a2a);
    background: var(--jb-bad-bg, #fff5f5);
    border: 1px solid var(--jb-bad-border, #ffc9c9);
    border-radius: 4px;
    padding: 6px 8px;
    font-family: ui-monospace, monospace;
    font-size: 12px;
    white-space: pre-wrap;
  }
  details.code > summary {
    cursor: pointer;
    font-size: 11px;
    color: var(--jb-muted, #5d6678);
  }
  .draft {
    color: var(--jb-warn, #b35c00);
  }
  .toolbar {
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
    margin-bottom: 12px;
    position: sticky;
    top: 0;
    background: var(--jb-panel, #fff);
    padding: 6px 0;
    z-index: 2;
    border-bottom: 1px solid var(--jb-border, #dfe3ea);
  }
  /* the palette's longest entry would make the select ~620 px wide: it shrinks with the column instead */
  .toolbar select {
    flex: 0 1 auto;
    min-width: 0;
    max-width: min(100%, 32em);
    text-overflow: ellipsis;
  }
  .block.cell:focus {
    outline: 2px solid #a5b4fc;
    outline-offset: 2px;
  }
  .prose {
    cursor: text;
  }
  .toast {
    background: #212529;
    color: #fff;
    z-index: 5;
  }
  option:disabled {
    color: #999;
  }
`;
