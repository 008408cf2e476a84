// `jankbook export <bundle> --format perfetto --out run.perfetto-trace [--open]`: a run as a Perfetto trace,
// and with --open the link that loads it in Perfetto UI from a one-shot local server (as open_trace_in_ui).
// The exporter loads inside the action, so registering the command costs nothing at start-up.
import { spawn } from "node:child_process";
import type { Command } from "commander";

export interface ExportResult {
  file: string;
  bytes: number;
  written: Record<string, number>;
  warnings: string[];
}

export async function exportBundle(dir: string, out: string, format = "perfetto"): Promise<ExportResult> {
  if (format !== "perfetto") throw new Error(`--format ${format}: unknown format (known: perfetto)`);
  const [{ readBundleFolder }, { bundleToPerfetto }, { writeFile }] = await Promise.all([
    import("../../bundle/node-io"),
    import("../../export/bundle-to-perfetto"),
    import("node:fs/promises"),
  ]);
  const b = await readBundleFolder(dir);
  const r = bundleToPerfetto(b.tables);
  await writeFile(out, r.trace);
  const warnings = [...b.errors.map((e) => e.message), ...r.warnings];
  return { file: out, bytes: r.trace.length, written: r.written as Record<string, number>, warnings };
}

function openBrowser(link: string) {
  const [cmd, args] =
    process.platform === "darwin"
      ? ["open", [link]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", "", link]]
        : ["xdg-open", [link]];
  // Best effort: the link is printed either way.
  spawn(cmd, args, { stdio: "ignore", detached: true })
    .on("error", () => {})
    .unref();
}

export function registerExport(program: Command, setExitCode: (code: number) => void) {
  program
    .command("export")
    .description(
      "export a run bundle as a Perfetto trace (frames, tasks, render ops, calls, slices, counters)",
    )
    .argument("<bundle>", "run bundle folder")
    .requiredOption("--out <file>", "trace file to write, e.g. run.perfetto-trace")
    .option("--format <format>", "output format", "perfetto")
    .option("--open", "serve the trace once on 127.0.0.1:9001 and open it in Perfetto UI")
    .option("--no-browser", "with --open: print the link instead of launching a browser")
    .option("--origin <url>", "Perfetto UI to open it in", "https://ui.perfetto.dev")
    .action(
      async (
        bundle: string,
        o: { out: string; format: string; open?: boolean; browser: boolean; origin: string },
      ) => {
        const r = await exportBundle(bundle, o.out, o.format);
        const parts = Object.entries(r.written).map(([k, n]) => `${k} ${n}`);
        process.stdout.write(`${r.file}: ${r.bytes} bytes; ${parts.join(", ") || "nothing to export"}\n`);
        for (const w of r.warnings) process.stdout.write(`  warning: ${w}\n`);
        if (r.warnings.length) setExitCode(2);
        if (!o.open) return;
        const { serveTraceOnce } = await import("../../export/serve-trace-once");
        const s = await serveTraceOnce(o.out, { origin: o.origin });
        process.stdout.write(`Open in Perfetto UI: ${s.link}\n(serving ${s.url} once; Ctrl-C to stop)\n`);
        if (o.browser) openBrowser(s.link);
        await s.served;
      },
    );
}
