// `npm start`: builds the workspace once (rebuilt only when a source is newer than the last build) and serves
// the optimized files from dist/ without on-the-fly compression (Vite's dev server took 11 s to the first
// chart). The runs beside notebooks are served live from notebooks/, as the dev plugin does.
import { execFileSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildDecision, writeBuildStamp } from "./build-cache";
import { serveWorkspace } from "./static-server";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const DIST = join(ROOT, "dist");
const NOTEBOOKS = join(ROOT, "notebooks");

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function build(): void {
  const started = Date.now();
  const decision = buildDecision(ROOT, DIST);
  if (!decision.stale) {
    const ms = Date.now() - started;
    process.stdout.write(
      `workspace: reused the build in dist/ (no source changed since; checked in ${ms} ms)\n`,
    );
    return;
  }
  // vite from this package's own node_modules, whatever the caller's PATH holds.
  const vite = join(ROOT, "node_modules", "vite", "bin", "vite.js");
  execFileSync(process.execPath, [vite, "build", "--logLevel", "warn"], { cwd: ROOT, stdio: "inherit" });
  writeBuildStamp(DIST, started);
  process.stdout.write(`workspace: built dist/ in ${seconds(Date.now() - started)} (${decision.reason})\n`);
}

const port = Number(process.env.PORT ?? 5173);
try {
  build();
  const url = (await serveWorkspace(DIST, NOTEBOOKS, port, "localhost")).url;
  process.stdout.write(`workspace: serving dist/ on ${url}  (npm run dev for Vite's dev server)\n`);
} catch (e) {
  const err = e as NodeJS.ErrnoException;
  process.stderr.write(
    err.code === "EADDRINUSE"
      ? `workspace: port ${port} is in use (another npm start?); set PORT=... to pick another\n`
      : `workspace: ${err.message}\n`,
  );
  process.exit(1);
}
