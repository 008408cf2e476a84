// `jankbook info <bundle>`: what a run bundle holds, and whether it loads cleanly.
import type { Command } from "commander";
import { describeLostLines } from "../../bundle/lost-lines";
import { inspectBundle } from "../../workspace/db/node/inspect-bundle";

export function registerInfo(program: Command, setExitCode: (code: number) => void) {
  program
    .command("info")
    .description(
      "show a run bundle's context, tables and row counts (from the manifest, the Arrow stream headers and a packed run's catalog: no table is decoded); exit 1 if any table fails to load",
    )
    .argument("<bundle...>", "run bundle folders")
    .action(async (dirs: string[]) => {
      for (const dir of dirs) {
        const bundle = await inspectBundle(dir);
        const m = bundle.manifest;
        const c = m.context;
        process.stdout.write(
          `${m.run_id}  ${c.app} ${c.app_version ?? ""} on ${c.device_model ?? "?"} (API ${c.api_level ?? "?"})` +
            `${m.synthetic ? "  [synthetic]" : ""}${m.complete ? "" : "  [incomplete]"}\n`,
        );
        for (const { name, rows } of bundle.tables)
          process.stdout.write(`  ${name.padEnd(14)} ${rows} rows\n`);
        if (bundle.database)
          process.stdout.write(
            `  ${bundle.database.file}: ${Object.entries(bundle.database.tables)
              .map(([t, n]) => `${t} ${n}`)
              .join(", ")}\n`,
          );
        if (m.lost_lines) process.stdout.write(`  lost agent lines: ${describeLostLines(m.lost_lines)}\n`);
        for (const w of m.warnings) process.stdout.write(`  warning: ${w}\n`);
        for (const e of bundle.errors) process.stderr.write(`  error: ${e}\n`);
        if (bundle.errors.length) setExitCode(1);
      }
    });
}
