// One of jankbook's local servers in a process of its own, for tests that send it hostile requests: prints its
// URL on stdout, and dies the way the real one would if a request throws (no handler catches it here).
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveStatic, serveWorkspace } from "../../workspace/node/static-server";
import { startSqlServer } from "../../workspace/node/sql-server";
import { serveTraceOnce } from "../../export/serve-trace-once";

const kind = process.argv[2];
const tmp = mkdtempSync(join(tmpdir(), "jb-hostile-"));
const dist = join(tmp, "dist");
mkdirSync(join(dist, "assets"), { recursive: true });
writeFileSync(join(dist, "index.html"), "<title>jankbook</title>");
const notebooks = join(tmp, "notebooks");
mkdirSync(join(notebooks, "ex/r1"), { recursive: true });
writeFileSync(join(notebooks, "ex/r1/manifest.json"), '{"run_id":"r1"}');
writeFileSync(join(tmp, "t.perfetto-trace"), "trace bytes");

const url =
  kind === "static"
    ? (await serveStatic(dist)).url
    : kind === "workspace"
      ? (await serveWorkspace(dist, notebooks)).url
      : kind === "sql"
        ? (await startSqlServer({ dist, runs: [] })).url
        : kind === "trace"
          ? (await serveTraceOnce(join(tmp, "t.perfetto-trace"), { port: 0 })).url
          : null;
if (!url) throw new Error(`hostile-server: unknown kind ${kind}`);
process.stdout.write(`${url}\n`);
