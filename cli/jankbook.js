#!/usr/bin/env node
// The jankbook command: the compiled CLI (cli/dist, from `npm run build:cli`, run by `prepare`) when it is
// newer than every source it was built from; otherwise the TypeScript sources through tsx, said once on
// stderr. JANKBOOK_FROM_SOURCES=1 picks the sources without a word (tests run the code they test).
import { fileURLToPath } from "node:url";
import { buildState } from "./build-state.mjs";

const fromSources = process.env.JANKBOOK_FROM_SOURCES === "1";
const state = fromSources ? { fresh: false } : buildState(fileURLToPath(new URL("..", import.meta.url)));
let main;
if (state.fresh) ({ main } = await import("./dist/main.js"));
else {
  if (!fromSources)
    process.stderr.write(
      `jankbook: ${state.reason}; running the sources through tsx (slow start; \`npm run build:cli\` compiles them)\n`,
    );
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import("./main.ts"));
}
process.exitCode = await main(process.argv);
