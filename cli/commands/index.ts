// The subcommands, one file each. A command reports its exit code through setExitCode.
import type { Command } from "commander";
import { registerCollect } from "./collect";
import { registerInfo } from "./info";
import { registerSimulate } from "./simulate";
import { registerPublish } from "./publish";
import { registerRun } from "./run";
import { registerImport } from "./import";
import { registerPack } from "./pack";
import { registerLake } from "./lake";

export type RegisterCommand = (program: Command, setExitCode: (code: number) => void) => void;

export const commands: RegisterCommand[] = [
  registerInfo,
  registerCollect,
  registerSimulate,
  registerRun,
  registerPublish,
  registerImport,
  registerPack,
  registerLake,
];
