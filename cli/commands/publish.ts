// `jankbook publish notebook.md --out file.html`: runs the notebook headless and writes one self-contained HTML
// page (workspace/publish/publish.ts) that opens offline and runs no code. Exits 1 if a cell or a check failed
// (the page is written anyway, with the errors shown in place).
import type { Command } from "commander";
import { executeNotebook, report, withLimits, type NotebookCommandOptions } from "./run";

const collect = (v: string, prev: string[] = []) => [...prev, v];

export function registerPublish(program: Command, setExitCode: (code: number) => void) {
  const command = program
    .command("publish")
    .description("publish a notebook as one self-contained HTML file")
    .argument("<notebook>", "notebook .md file")
    .requiredOption("--out <file.html>", "the HTML file to write")
    .option(
      "--runs <dir>",
      "run bundle folder, or a folder of them (repeatable; replaces the front matter's runs)",
      collect,
    )
    .option("--set <name=value>", "set an input (repeatable)", collect)
    .option(
      "--timeout <seconds>",
      "stop the cells still running after this long and publish the rest",
      "120",
    );
  withLimits(command)
    .option("--embed-data", "embed every result table in full as Arrow (a download link per table)")
    .action(async (path: string, opts: NotebookCommandOptions) => {
      if (!/\.html?$/i.test(opts.out!)) throw new Error(`--out ${opts.out}: publish writes HTML (.html)`);
      const r = await executeNotebook(path, opts);
      try {
        setExitCode(await report(r, opts.out, opts.embedData));
      } finally {
        await r.close();
      }
    });
}
