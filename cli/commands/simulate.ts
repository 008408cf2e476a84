// `jankbook simulate`: starts simulated phones (collectors/simulator) and attaches them to the adb server,
// so `jankbook collect` can be tried without hardware.
import type { Command } from "commander";
import { adbClient } from "../../collectors/adb/shell";
import { PROFILES } from "../../collectors/simulator/device-profiles";
import { SimulatedPhone } from "../../collectors/simulator/phone";
import { SCENARIOS, type ScenarioName } from "../../collectors/simulator/scenarios";

export function registerSimulate(program: Command, _setExitCode: (code: number) => void) {
  program
    .command("simulate")
    .description(
      `start simulated phones playing a scenario (${SCENARIOS.join(", ")}) and attach them to adb; Ctrl-C stops`,
    )
    .option("--scenario <name>", "scenario to play", "paper-cases")
    .option(
      "--device <profiles>",
      `comma-separated device profiles (${Object.keys(PROFILES).join(", ")})`,
      "pixel-4a",
    )
    .option("--seed <n>", "model seed", "42")
    .option("--time-scale <x>", "device seconds per wall second once the scenario runs", "1")
    .option("--port <port>", "first TCP port (outside adb's 5555-5585 emulator range)", "6520")
    .option(
      "--start-on <when>",
      "driver (monkey/am instrument starts the scenario) or reset (the framestats reset does)",
      "driver",
    )
    .option("--truth <dir>", "write each phone's ground_truth.json under this folder")
    .option("--adb-port <port>", "adb server port", "5037")
    .action(async (o: Record<string, string>) => {
      if (!SCENARIOS.includes(o.scenario as ScenarioName))
        throw new Error(`--scenario ${o.scenario}: expected one of ${SCENARIOS.join(", ")}`);
      const client = adbClient("127.0.0.1", Number(o.adbPort));
      const phones: SimulatedPhone[] = [];
      const names = o.device!.split(",");
      for (const [i, name] of names.entries()) {
        const profile = PROFILES[name];
        if (!profile)
          throw new Error(`--device ${name}: expected one of ${Object.keys(PROFILES).join(", ")}`);
        const port = Number(o.port) + i;
        if (port >= 5555 && port <= 5585)
          throw new Error(`--port ${port}: adb scans 5555-5585 for emulators; pick another`);
        const phone = new SimulatedPhone({
          profile,
          scenario: o.scenario as ScenarioName,
          seed: Number(o.seed) + i,
          timeScale: Number(o.timeScale),
          startOn: o.startOn === "reset" ? "reset" : "driver",
        });
        await phone.listen(port);
        await client.connect("127.0.0.1", port);
        phones.push(phone);
        if (o.truth) await phone.writeGroundTruth(`${o.truth}/${phone.serial.replace(":", "_")}`);
        process.stdout.write(
          `simulated ${profile.model} (Android ${profile.sdk_release}, API ${profile.api_level}) playing ${o.scenario} for ${phone.timeline.truth.package}: adb connect ${phone.serial}\n`,
        );
      }
      // Faster device time needs faster polls, or the 120-frame window moves past frames between them.
      process.stdout.write(
        `try: jankbook collect --package ${phones[0]!.timeline.truth.package} ${phones.length > 1 ? "--all-devices" : `--serial ${phones[0]!.serial}`} --scenario monkey:500${Number(o.timeScale) > 1 ? ` --poll ${Math.floor(1000 / Number(o.timeScale))}` : ""} --out runs/\n`,
      );
      await new Promise<void>((resolve) => process.once("SIGINT", () => resolve()));
      for (const p of phones) {
        await client.disconnect("127.0.0.1", p.port).catch(() => {});
        await p.close();
      }
    });
}
