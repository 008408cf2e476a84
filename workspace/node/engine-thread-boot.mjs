// Entry of the engine thread (engine-thread.ts) from sources: a worker thread does not inherit the parent's
// TypeScript loader, so it registers tsx itself, as cell-worker-boot.mjs does.
import { register } from "tsx/esm/api";

register();
await import("./engine-thread.ts");
