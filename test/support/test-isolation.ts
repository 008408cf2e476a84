// Which node test files may share their worker's modules with the files run before them (vitest's isolate: false),
// and which need a fresh process each. Sharing saves the import of apache-arrow, fast-check and the cells for every
// file (about half of the pure files' CPU in the suite); it is safe only for files that leave no state behind.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * What makes a file need its own process: mocks and stubs, globals, environment writes, DOM stand-ins, child
 * processes, servers, workers, DuckDB (an engine, a pack) and notebook runs (which start workers), adb and the simulated
 * phone, Chromium, and wall-clock budgets (a neighbour's leftover work would count against them).
 */
const NEEDS_ISOLATION =
  /vi\.(mock|spyOn|stubGlobal|stubEnv|useFakeTimers)|globalThis\.|process\.env\.[A-Z_]+ *=|jsdom|linkedom|spawn|fork\(|exec(File)?(Sync)?\(|Engine|packBundle|@duckdb\/|runNotebook|headless|adb|simulator|Worker|serve|chromium|process\.chdir|support\/cli|case-notebooks|cellBudget/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return testFiles(path);
    return e.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** The node test files (outside test/browser) whose source shows none of NEEDS_ISOLATION, relative to root. */
export function filesSharingModules(root: string): string[] {
  return testFiles(join(root, "test"))
    .map((path) => relative(root, path))
    .filter((path) => !path.startsWith("test/browser/") && !path.endsWith(".full.test.ts"))
    .filter((path) => !NEEDS_ISOLATION.test(readFileSync(join(root, path), "utf8")))
    .sort();
}
