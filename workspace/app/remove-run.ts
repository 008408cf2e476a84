// Removing a run from the workspace (any change of runs re-runs the dependents, and every destructive action
// can be undone): what the app's toast says, and the URL that brings the run back when it came from one.
import type { Session } from "./session";

export interface RunRemoval {
  /** the toast's text */
  message: string;
  /** the run's bundle URL, re-added by Undo; absent for a run dropped from disk (its files cannot be re-read) */
  undo?: string;
  /** the removed run came from a drop (the app's count of runs a reload cannot restore goes down) */
  dropped: boolean;
}

/**
 * Removes the run labelled `label` from the session. `fromUrl`: it was loaded from a URL, so Undo can load it
 * again; a dropped run's toast says it cannot. Undefined when no run has that label.
 */
export async function removeRun(
  session: Session,
  label: string,
  fromUrl: boolean,
): Promise<RunRemoval | undefined> {
  if (!session.runs.some((r) => r.label === label)) return undefined;
  const run = await session.remove(label);
  if (!run)
    return { message: `could not remove ${label}: its errors in the runs table say why`, dropped: false };
  const name = run.manifest?.run_id ?? label;
  if (fromUrl) return { message: `removed ${name}`, undo: `${label}/`, dropped: false };
  return {
    message: `removed ${name}: it was dropped from disk and cannot be re-read here (drop its folder again to bring it back)`,
    dropped: true,
  };
}
