// Command-line entry: each subcommand lives in cli/commands/<name>.ts and is registered here.
import { Command, CommanderError } from "commander";
import { commands } from "./commands/index";

export async function main(argv: string[]): Promise<number> {
  const program = new Command("jankbook")
    .description(
      "Diagnose Android UI jank: collect traces, analyse them in notebooks, gate CI on regressions.",
    )
    .version(process.env.npm_package_version ?? "0.1.0")
    .exitOverride();
  let exitCode = 0;
  for (const register of commands) register(program, (code) => (exitCode = code));
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode;
    process.stderr.write(`jankbook: ${(e as Error).message}\n`);
    return 1;
  }
  return exitCode;
}
