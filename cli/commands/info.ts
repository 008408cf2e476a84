// `jankbook info <bundle>`: what a run bundle holds, and whether it loads cleanly.
import type { Command } from "commander";
import { readBundleFolder } from "../../bundle/node-io";

export function registerInfo(program: Command, setExitCode: (code: number) => void) {
  program
    .command("info")
    .description("show a run bundle's context, tables and row counts; exit 1 if any table fails to load")
    .argument("<bundle...>", "run bundle folders")
    .action(async (dirs: string[]) => {
      for (const dir of dirs) {
        const bundle = await readBundleFolder(dir);
        const m = bundle.manifest;
        const c = m.context;
        process.stdout.write(
          `${m.run_id}  ${c.app} ${c.app_version ?? ""} on ${c.device_model ?? "?"} (API ${c.api_level ?? "?"})` +
            `${m.synthetic ? "  [synthetic]" : ""}${m.complete ? "" : "  [incomplete]"}\n`,
        );
        for (const [name, table] of bundle.tables)
          process.stdout.write(`  ${name.padEnd(14)} ${table.numRows} rows\n`);
        for (const w of m.warnings) process.stdout.write(`  warning: ${w}\n`);
        for (const e of bundle.errors) process.stderr.write(`  error: ${e.message}\n`);
        if (bundle.errors.length) setExitCode(1);
      }
    });
}
