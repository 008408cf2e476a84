// Test support: a notebook run headless on a test's engine, every cell expected to succeed, closed afterwards
// even when a check fails (its runtime and the tables it loaded go with it).
import { expect } from "vitest";
import { runNotebookFile, type HeadlessOptions, type HeadlessResult } from "../../workspace/node/headless";

export async function cleanNotebookRun(
  path: string,
  options: HeadlessOptions,
  check: (run: HeadlessResult) => Promise<void>,
): Promise<void> {
  const run = await runNotebookFile(path, options);
  try {
    expect(run.failedCells).toEqual([]);
    await check(run);
  } finally {
    await run.close();
  }
}
