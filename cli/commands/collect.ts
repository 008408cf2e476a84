// `jankbook collect`: one run bundle per device from the adb server (collectors/adb/collect-device.ts).
import type { Command } from "commander";
import { join } from "node:path";
import { collectDevice, splitScenario, type CollectResult, type Progress } from "../../collectors/adb/collect-device";
import { adbClient, DeviceShell, onlineDevices } from "../../collectors/adb/shell";

export function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!m) throw new Error(`--duration ${text}: expected e.g. 120s, 2m or 500ms`);
  const n = Number(m[1]);
  return m[2] === "ms" ? n : m[2] === "m" ? n * 60_000 : n * 1000;
}

function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

export function registerCollect(program: Command, setExitCode: (code: number) => void) {
  program
    .command("collect")
    .description("collect frames, the agent's tasks/render ops/UI events and device context over adb; one bundle per device")
    .requiredOption("--package <pkg>", "application package")
    .option("--serial <serial>", "device serial (default: the only device)")
    .option("--all-devices", "collect from every online device at once (a device lab)")
    .option("--duration <time>", "how long to collect (120s, 2m)", "120s")
    .option("--scenario <how>", "monkey:<events> | instrument:<runner> | manual", "manual")
    .option("--method-trace", "also record a method trace (am profile start/stop)")
    .option("--counters", "also record hardware counters (simpleperf stat)")
    .option("--poll <ms>", "framestats polling interval in ms", "1000")
    .option("--command-timeout <ms>", "give up on a shell command after this long", "10000")
    .option("--run-id <id>", "run id (default: <package>_<model>_<time>)")
    .option("--adb-port <port>", "adb server port", "5037")
    .requiredOption("--out <dir>", "folder to write bundles into (one sub-folder per run)")
    .action(async (o: Record<string, string | boolean | undefined>) => {
      const scenario = String(o.scenario);
      splitScenario(scenario);
      const client = adbClient("127.0.0.1", Number(o.adbPort));
      let serials: string[];
      const online = await onlineDevices(client);
      if (o.allDevices) serials = online;
      else if (o.serial) serials = [String(o.serial)];
      else if (online.length === 1) serials = online;
      else throw new Error(online.length ? `several devices online (${online.join(", ")}): pick one with --serial or use --all-devices` : "no device online (adb devices lists none)");
      if (!serials.length) throw new Error("no device online (adb devices lists none)");
      const controller = new AbortController();
      const onSigint = () => {
        process.stderr.write("\nstopping: writing what was collected...\n");
        controller.abort();
      };
      process.once("SIGINT", onSigint);
      const progress = new Map<string, Progress>();
      const tty = process.stderr.isTTY;
      let lastLine = 0;
      const render = () => {
        const now = Date.now();
        if (!tty && now - lastLine < 5000) return;
        lastLine = now;
        const line = [...progress.values()].map((p) => `${p.serial} ${(p.elapsedMs / 1000).toFixed(0)}s frames ${p.frames} tasks ${p.tasks} events ${p.events} warnings ${p.warnings}`).join(" | ");
        process.stderr.write(tty ? `\r${line.slice(0, (process.stderr.columns ?? 200) - 1)}\x1b[K` : line + "\n");
      };
      const stamp = new Date().toISOString().replace(/[-:]/g, "").slice(0, 15);
      const results: (CollectResult | Error)[] = await Promise.all(
        serials.map(async (serial) => {
          const shell = new DeviceShell(client, serial, Number(o.commandTimeout));
          let model = serial;
          try {
            model = (await shell.run("getprop ro.product.model", 5000)).trim() || serial;
          } catch {
            /* the collection itself reports it */
          }
          const base = o.runId ? String(o.runId) : `${slug(String(o.package).split(".").pop()!)}_${slug(model)}_${stamp}`;
          const runId = o.runId && serials.length > 1 ? `${base}_${slug(serial)}` : base;
          try {
            return await collectDevice(shell, {
              package: String(o.package), scenario, durationMs: parseDuration(String(o.duration)), pollMs: Number(o.poll),
              methodTrace: o.methodTrace === true, counters: o.counters === true, dir: join(String(o.out), runId), runId,
              signal: controller.signal, onProgress: (p) => { progress.set(serial, p); render(); },
            });
          } catch (e) {
            return e as Error;
          }
        }),
      );
      process.removeListener("SIGINT", onSigint);
      if (tty) process.stderr.write("\n");
      let code = 0;
      for (const [i, r] of results.entries()) {
        if (r instanceof Error) {
          process.stderr.write(`jankbook collect: ${serials[i]}: ${r.message}\n`);
          code = 1;
          continue;
        }
        const m = r.manifest;
        const rows = Object.entries(m.tables).map(([k, v]) => `${k} ${v.rows}`).join(", ");
        process.stdout.write(`${r.dir}: ${rows || "no tables"}${m.complete ? "" : "  [incomplete]"}\n`);
        if (!m.complete) {
          code = Math.max(code, 2);
          process.stderr.write(`jankbook collect: ${r.serial}: collection incomplete (${r.ended}); the bundle keeps what was collected:\n`);
          for (const w of m.warnings) process.stderr.write(`  - ${w}\n`);
        }
      }
      setExitCode(code);
    });
}
