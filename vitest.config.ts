import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { filesSharingModules } from "./test/support/test-isolation";

// Test files at once, node and browser projects together: one more than the cores. Vitest's default (cores - 1) is one
// file at a time on a 2-core machine, and most slow files wait on a child process, Chromium's frames, adb or a timeout;
// with three, a quiet 2-core machine spent 1,126 s of CPU (Chromium's included) in a 594 s `npm test` (docs/testing.md).
// JB_TEST_WORKERS overrides it.
const workers = Number(process.env.JB_TEST_WORKERS) || Math.max(3, availableParallelism() + 1);
// Pure test files (no processes, engines, servers, globals or mocks: test/support/test-isolation.ts) share each
// worker's modules instead of importing everything again per file.
const sharing = filesSharingModules(import.meta.dirname);
// `npm test` leaves out the exhaustive sweeps (*.full.test.ts: every notebook in Chromium, ...) that repeat what a
// default test already proves on more inputs; `npm run test:full` (JB_TEST_TIER=full) runs them, and CI runs both.
const FULL_ONLY = "**/*.full.test.ts";
const skipped = process.env.JB_TEST_TIER === "full" ? [] : [FULL_ONLY];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: sharing,
          environment: "node",
          isolate: false,
          maxWorkers: workers,
          testTimeout: 180_000,
        },
      },
      {
        test: {
          name: "node",
          include: ["test/**/*.test.ts"],
          exclude: ["test/browser/**", ...sharing, ...skipped],
          environment: "node",
          // the CLI compiled once for the tests that spawn it (test/support/cli.ts)
          globalSetup: ["test/support/build-cli-once.ts"],
          maxWorkers: workers,
          // Notebooks run their cells in a worker (cell-worker.ts): triage takes ~60 s on a loaded 2-core machine.
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: "browser",
          include: ["test/browser/**/*.test.ts"],
          exclude: skipped,
          environment: "node",
          globalSetup: ["test/browser/global-setup.ts"],
          testTimeout: 240_000,
          hookTimeout: 300_000,
          // The same worker count as the node project puts both in one pool (vitest groups projects by it): a browser
          // file runs beside a node file or another browser file, instead of all of them one by one after the node
          // project (each drives its own Chromium on port 0 and its own temporary folders).
          maxWorkers: workers,
          // expect.poll's 1 s default is shorter than one DuckDB-WASM re-run on a loaded 2-core machine (CI at load 10):
          // a poll that waits for a new state fails only when that state never comes, not when it is slow to come.
          expect: { poll: { timeout: 60_000 } },
        },
      },
    ],
  },
});
