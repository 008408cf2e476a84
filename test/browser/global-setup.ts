// Builds the workspace once for all browser tests (they serve dist/ with workspace/node/static-server.ts).
import { execFileSync } from "node:child_process";

export default function setup() {
  if (process.env.JB_SKIP_BUILD) return;
  execFileSync("npx", ["vite", "build", "--logLevel", "warn"], { stdio: "inherit" });
}
