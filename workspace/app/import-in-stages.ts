// Evaluates a chunk's modules one import a task (a stage's modules are evaluated once, whoever imports them next),
// so no single task holds the main thread for all of them: the long-task budget of docs/budgets.md.
export async function importInStages(stages: readonly (() => Promise<unknown>)[]): Promise<void> {
  for (const stage of stages) {
    await stage();
    await new Promise((next) => setTimeout(next, 0));
  }
}

/** Resolves when the main thread is next idle (at most `timeout` ms later; no requestIdleCallback in Safari). */
export function whenIdle(timeout = 1000): Promise<void> {
  return new Promise((done) =>
    typeof requestIdleCallback === "function"
      ? requestIdleCallback(() => done(), { timeout })
      : setTimeout(done, 0),
  );
}
