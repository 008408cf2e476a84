// Whether a golden test rewrites its goldens: `UPDATE_GOLDEN=1` on a reviewer's machine, after looking at what
// test/output/ holds. Under CI a rewrite would make every golden pass unseen, so it is refused.
export function updatingGoldens(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  if (!env.UPDATE_GOLDEN) return false;
  if (env.CI && env.CI !== "false" && env.CI !== "0")
    throw new Error(
      `UPDATE_GOLDEN is set under CI (CI=${env.CI}): goldens are rewritten only by hand, after reviewing test/output/; unset UPDATE_GOLDEN`,
    );
  return true;
}
