// Command-line entry: picks the subcommand from argv and loads only that command's module
// (cli/commands/index.ts); without a known subcommand (--help, a typo, a bare `help`) it loads them all so
// commander can list them or suggest one, except for --version, which needs none.
import { Command, CommanderError } from "commander";
import { commands, type RegisterCommand } from "./commands/index";
import { fsErrorMessage } from "./fs-errors";
import { jankbookVersion } from "./version";

/** The commands to load for these arguments (argv as process.argv: node, script, args...). */
export function commandsFor(argv: readonly string[]): string[] {
  const args = argv.slice(2);
  const first = args.find((a) => !a.startsWith("-"));
  if (first !== undefined && Object.hasOwn(commands, first)) return [first];
  if (first === undefined && args.some((a) => a === "-V" || a === "--version")) return [];
  return Object.keys(commands);
}

export async function main(argv: string[]): Promise<number> {
  const program = new Command("jankbook")
    .description(
      "Diagnose Android UI jank: collect traces, analyse them in notebooks, gate CI on regressions.",
    )
    .version(jankbookVersion())
    .exitOverride();
  let exitCode = 0;
  try {
    const wanted = commandsFor(argv);
    const registers: RegisterCommand[] = await Promise.all(wanted.map((name) => commands[name]!()));
    for (const register of registers) register(program, (code) => (exitCode = code));
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode;
    process.stderr.write(
      `jankbook: ${fsErrorMessage(e) ?? fsErrorMessage((e as Error).cause) ?? (e as Error).message}\n`,
    );
    return 1;
  }
  return exitCode;
}
