// `jankbook lake add <bundle>... --lake DIR`: a device lab's runs as Hive-partitioned Parquet
// (docs/scaling.md).
import type { Command } from "commander";
import { lakeAdd } from "../../workspace/db/node/lake-add";

export function registerLake(program: Command, setExitCode: (code: number) => void) {
  const lake = program.command("lake").description("a device lab's history as Hive-partitioned Parquet");
  lake
    .command("add")
    .description(
      "add run bundles to a lake (a run already there is replaced); exit 2 if some rows could not be read",
    )
    .argument("<bundle...>", "run bundle folders")
    .requiredOption("--lake <dir>", "the lake's folder")
    .action(async (dirs: string[], o: { lake: string }) => {
      const t0 = performance.now();
      let rows = 0;
      for (const r of await lakeAdd(o.lake, dirs)) {
        const n = Object.values(r.tables).reduce((a, b) => a + b, 0);
        rows += n;
        process.stdout.write(
          `${r.run_id}: ${Object.entries(r.tables)
            .map(([t, k]) => `${t} ${k}`)
            .join(", ")}\n`,
        );
        for (const e of r.errors) process.stderr.write(`  error: ${e}\n`);
        if (r.errors.length) setExitCode(2);
      }
      const s = (performance.now() - t0) / 1000;
      process.stderr.write(`${rows} rows in ${s.toFixed(1)} s (${Math.round(rows / s)} rows/s)\n`);
    });
}
