// The subcommands, one file each, loaded only when their command runs (a start-up imports one command's
// code, not all of them). A new command is one line: its name and how to load its register function.
import type { Command } from "commander";

/** Adds a command to the program; the command reports its exit code through setExitCode. */
export type RegisterCommand = (program: Command, setExitCode: (code: number) => void) => void;

export const commands: Record<string, () => Promise<RegisterCommand>> = {
  info: async () => (await import("./info")).registerInfo,
  collect: async () => (await import("./collect")).registerCollect,
  simulate: async () => (await import("./simulate")).registerSimulate,
  run: async () => (await import("./run")).registerRun,
  publish: async () => (await import("./publish")).registerPublish,
  import: async () => (await import("./import")).registerImport,
  export: async () => (await import("./export")).registerExport,
  pack: async () => (await import("./pack")).registerPack,
  lake: async () => (await import("./lake")).registerLake,
  serve: async () => (await import("./serve")).registerServe,
  compare: async () => (await import("./compare")).registerCompare,
};
