// The installed command as a user starts it (docs/budgets.md: `jankbook --version` < 0.3 s, importing a
// 1 MB file < 1 s, whole process): each measurement spawns `node cli/jankbook.js`, beside `node -e 0`.
// Setup compiles the CLI when cli/dist is missing or stale, so what is timed is the compiled path.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { framestatsLayoutFor } from "../collectors/sources/framestats";
import { type Benchmark } from "./harness";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "cli", "jankbook.js");
let work = "";
let framestats = "";

/** A framestats dump (Android 12 layout) of `windows` windows x 120 frames each, about 1 MB at 32 windows. */
export function syntheticFramestats(windows: number): string {
  const layout = framestatsLayoutFor(31)!;
  const out = [
    "Applications Graphics Acceleration Info:",
    "Uptime: 3600000 Realtime: 3600000",
    "",
    "** Graphics info for pid 4242 [org.jankbook.bench] **",
    "",
  ];
  let vsync = 3_600_000_000_000;
  for (let w = 0; w < windows; w++) {
    out.push("", `\torg.jankbook.bench/org.jankbook.bench.Screen${w} (visibility=0)`, "---PROFILEDATA---");
    out.push(layout.join(",") + ",");
    for (let f = 0; f < 120; f++, vsync += 16_666_667) {
      const at: Record<string, number> = { Flags: 0, FrameTimelineVsyncId: 1000 + w * 120 + f };
      const row = layout.map((c, i) =>
        c in at ? at[c]! : c.endsWith("Duration") || c === "FrameInterval" ? 16_666_667 : vsync + i * 400_000,
      );
      out.push(row.join(",") + ",");
    }
    out.push("---PROFILEDATA---");
  }
  return out.join("\n") + "\n";
}

/** Wall ms of one whole process. */
function spawnMs(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  const ms = performance.now() - t0;
  if (r.status !== 0 && r.status !== 2)
    throw new Error(`${cmd} ${args.join(" ")}: exit ${r.status}: ${String(r.stderr).slice(0, 500)}`);
  return ms;
}

async function ensureBuilt() {
  const { buildState } = (await import(join(ROOT, "cli", "build-state.mjs"))) as {
    buildState(root: string): { fresh: boolean };
  };
  if (!buildState(ROOT).fresh) {
    const { buildCli } = (await import(join(ROOT, "cli", "build-cli.mjs"))) as {
      buildCli(): Promise<string[]>;
    };
    await buildCli();
  }
}

const nodeBaseline = { name: "node -e 0", measure: () => spawnMs(process.execPath, ["-e", "0"]) };

export const benchmarks: Benchmark[] = [
  {
    name: "cli/jankbook --version (whole process, ms)",
    unit: "ms",
    budget: 300,
    runs: 9,
    setup: ensureBuilt,
    measure: () => spawnMs(process.execPath, [CLI, "--version"]),
    peer: nodeBaseline,
  },
  {
    name: "cli/jankbook import 1 MB framestats (whole process, ms)",
    unit: "ms",
    budget: 1000,
    runs: 7,
    async setup() {
      await ensureBuilt();
      work = mkdtempSync(join(tmpdir(), "jankbook-bench-cli-"));
      framestats = join(work, "framestats.txt");
      writeFileSync(framestats, syntheticFramestats(32));
    },
    measure: () =>
      spawnMs(process.execPath, [CLI, "import", framestats, "--out", join(work, "out"), "--run-id", "b"]),
    peer: nodeBaseline,
    teardown() {
      if (work) rmSync(work, { recursive: true, force: true });
    },
  },
];
