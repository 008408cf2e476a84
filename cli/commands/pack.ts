// `jankbook pack <bundle>...`: writes each bundle's run.duckdb (the fast form the workspace attaches,
// docs/scaling.md).
import type { Command } from "commander";
import { packBundle } from "../../workspace/db/node/pack-bundle";

export function registerPack(program: Command, setExitCode: (code: number) => void) {
  program
    .command("pack")
    .description(
      "write run.duckdb beside a bundle's Arrow files and list it in manifest.json; exit 2 if some rows could not be packed",
    )
    .argument("<bundle...>", "run bundle folders")
    .action(async (dirs: string[]) => {
      for (const dir of dirs) {
        const t0 = performance.now();
        const { manifest, file, errors } = await packBundle(dir);
        const tables = Object.entries(manifest.database!.tables)
          .map(([name, rows]) => `${name} ${rows}`)
          .join(", ");
        process.stdout.write(`${file}: ${tables} (${Math.round(performance.now() - t0)} ms)\n`);
        for (const e of errors) process.stderr.write(`  error: ${e}\n`);
        if (errors.length) setExitCode(2);
      }
    });
}
