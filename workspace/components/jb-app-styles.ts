// <jb-app>'s styles: the header, the layout with its contents sidebar, the sections, the toast and the drop zone.
import { css } from "lit";

export const appStyles = css`
  :host {
    display: block;
    min-height: 100vh;
  }
  header {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 8px 16px;
    padding: 8px 20px;
    border-bottom: 1px solid var(--jb-border);
    background: var(--jb-panel);
  }
  h1 {
    font-size: 18px;
    margin: 0;
    letter-spacing: 0.02em;
    display: flex;
    align-items: center;
    gap: 6px;
  }
  h1 img {
    width: 20px;
    height: 20px;
  }
  .status {
    color: var(--jb-muted);
    font-size: 13px;
    flex: 1 1 220px;
    min-width: 0;
    overflow-wrap: anywhere;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
  }
  form {
    display: flex;
    gap: 6px;
  }
  input[type="url"] {
    width: 240px;
    font: inherit;
    font-size: 13px;
    padding: 3px 6px;
  }
  /* Issue 19: the contents follow the reader in a sidebar from 1200 px; below, a folded list above the runs. */
  .layout {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
  }
  @media (min-width: 1200px) {
    .layout {
      grid-template-columns: 240px minmax(0, 1fr);
    }
  }
  main {
    padding: 12px 20px;
    max-width: 1200px;
    min-width: 0;
  }
  jb-toc:not([wide]) {
    margin: 0 0 8px;
  }
  section {
    background: var(--jb-panel);
    border: 1px solid var(--jb-border);
    border-radius: 6px;
    padding: 10px 16px;
    margin-bottom: 12px;
  }
  #overview {
    padding: 6px 16px;
  }
  h2 {
    font-size: 15px;
    margin: 0 0 8px;
  }
  .hint {
    color: var(--jb-muted);
    font-size: 12px;
  }
  .error {
    color: var(--jb-bad);
    font-family: ui-monospace, monospace;
    font-size: 12px;
  }
  .recovered {
    background: var(--jb-note-bg, #fff3bf);
    border: 1px solid var(--jb-note-border, #ffe066);
    border-radius: 6px;
    padding: 8px 12px;
    margin-bottom: 12px;
    font-size: 13px;
  }
  #schema {
    margin-bottom: 16px;
    font-size: 13px;
  }
  /* the removed-run toast (its shape: toast-styles.ts) */
  .toast {
    background: var(--jb-fg, #212529);
    color: var(--jb-panel, #fff);
    z-index: 6;
  }
  /* Publish's toast sits above the removed-run one, so both can show */
  .toast.publish {
    bottom: 60px;
  }
  .toast.publish.bad {
    background: var(--jb-bad, #b3261e);
    color: #fff;
  }
  .drop {
    position: fixed;
    inset: 0;
    background: var(--jb-accent-soft);
    border: 3px dashed var(--jb-accent);
    display: flex;
    align-items: center;
    justify-content: center;
    font-size: 20px;
    pointer-events: none;
  }
`;
