// The toast's shape, shared by the notebook's undo toast and the app's removed-run toast: a bar at the bottom
// centre of the window. Each host adds its colours and stacking.
import { css } from "lit";

export const toastStyles = css`
  .toast {
    position: fixed;
    bottom: 20px;
    left: 50%;
    transform: translateX(-50%);
    padding: 6px 12px;
    border-radius: 4px;
    font-size: 13px;
    display: flex;
    gap: 10px;
    align-items: center;
  }
  .toast button {
    font-size: 12px;
  }
`;
