// The subcommands, one file each. A command reports its exit code through setExitCode.
import type { Command } from "commander";
import { registerInfo } from "./info";
import { registerPublish } from "./publish";
import { registerRun } from "./run";

export type RegisterCommand = (program: Command, setExitCode: (code: number) => void) => void;

export const commands: RegisterCommand[] = [registerInfo, registerRun, registerPublish];
