// `jankbook info <bundle>`: what a run bundle holds, and whether it loads cleanly.
import type { Command } from "commander";
import type { Manifest } from "../../bundle/manifest";
import { appText, unnamedDeviceText } from "../../bundle/run-naming";
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
        process.stdout.write(`${runHeadline(m)}\n`);
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

/** The run's first line: id, app and device, each named or, for a trace that does not name them, said so. */
export function runHeadline(m: Manifest): string {
  const c = m.context;
  const unnamed = unnamedDeviceText(m);
  const device = unnamed
    ? `on ${unnamed}`
    : `on ${c.device_model ?? "?"} (API ${c.api_level ?? "?"})${c.manufacturer ? `, ${c.manufacturer}` : ""}${c.sdk_release ? `, Android ${c.sdk_release}` : ""}`;
  return `${m.run_id}  ${appText(m)} ${device}${m.synthetic ? "  [synthetic]" : ""}${m.complete ? "" : "  [incomplete]"}`;
}
