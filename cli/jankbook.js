#!/usr/bin/env node
// The jankbook command: loads the TypeScript sources through tsx, so the CLI runs the code the tests run.
import { register } from "tsx/esm/api";

register();
const { main } = await import("./main.ts");
process.exitCode = await main(process.argv);
