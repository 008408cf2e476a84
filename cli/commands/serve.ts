// `jankbook serve [--lake DIR] [--runs DIR...] [--port N]` (docs/scaling.md): the workspace on a native
// DuckDB that holds a lab's runs and lake, on 127.0.0.1 only; the page it prints queries the server, not its
// own DuckDB.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

interface ServeCommandOptions {
  lake?: string;
  runs?: string[];
  port: string;
  notebook?: string;
}

/** dist/, built first when missing (as the browser tests' global setup builds it). */
function builtWorkspace(): string {
  const dist = join(ROOT, "dist");
  if (!existsSync(join(dist, "index.html"))) {
    process.stderr.write(`building the workspace into ${dist} (vite build)…\n`);
    execFileSync("npx", ["vite", "build", "--logLevel", "warn"], { cwd: ROOT, stdio: "inherit" });
  }
  return dist;
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

export function registerServe(program: Command) {
  program
    .command("serve")
    .description("serve the workspace on 127.0.0.1 with a native DuckDB holding the runs and the lake")
    .option("--lake <dir>", "a lake (jankbook lake add): its tables as lake.<table>")
    .option("--runs <dir>", "run bundle folder, or a folder of them (repeatable)", collect)
    .option("--port <n>", "port on 127.0.0.1 (0: any free one)", "0")
    .option("--notebook <file>", "a notebook (.md) to open in the printed URL")
    .action(async (opts: ServeCommandOptions) => {
      if (!opts.lake && !opts.runs?.length)
        throw new Error("jankbook serve: give --lake DIR, --runs DIR, or both");
      const port = Number(opts.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new Error(`--port ${opts.port}: expected a port number`);
      const { startSqlServer } = await import("../../workspace/node/sql-server");
      const server = await startSqlServer({
        dist: builtWorkspace(),
        lake: opts.lake,
        runs: opts.runs,
        port,
        notebook: opts.notebook,
        progress: (line) => process.stderr.write(`${line}\n`),
      });
      const query = new URLSearchParams({ engine: "server" });
      if (opts.notebook) query.set("notebook", `notebooks/${encodeURIComponent(basename(opts.notebook))}`);
      process.stdout.write(`${server.url}?${query.toString().replace(/%2F/g, "/")}\n`);
      process.stderr.write("serving on 127.0.0.1 only; Ctrl-C stops\n");
      await new Promise<void>((ok) => {
        const stop = () => void server.close().then(ok);
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      });
    });
}
