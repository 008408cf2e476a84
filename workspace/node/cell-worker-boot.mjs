// Entry of the notebook worker (cell-worker.ts): a fresh worker thread does not inherit the parent's TypeScript
// loader, so it registers tsx itself, as cli/jankbook.js does.
import { register } from "tsx/esm/api";

register();
await import("./cell-worker.ts");
