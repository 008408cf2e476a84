// `jankbook collect`: one run bundle per device from the adb server (collectors/adb/collect-device.ts).
import type { Command } from "commander";
import { join } from "node:path";
import { collectDevice, splitScenario, type CollectResult } from "../../collectors/adb/collect-device";
import { ProgressPrinter } from "../../collectors/adb/progress";
import { adbClient, DeviceShell, releaseAdb, withTimeout, type AdbClient } from "../../collectors/adb/shell";

/** Exit codes, as the help text documents them. */
export const COLLECT_EXIT = { complete: 0, error: 1, incomplete: 2, interrupted: 130 } as const;

const EXIT_HELP = `
Exit codes:
  0    every bundle complete (with --scenario manual, Ctrl-C is how a run ends: still 0)
  1    nothing collected: bad option, no device, unknown serial, package not installed, adb unreachable
  2    a bundle was written but is incomplete (device gone or frozen, failed dumps, a hung command, no
       frames); see its warnings
  130  interrupted by Ctrl-C before a monkey/instrument scenario ended: the bundles keep what was collected
       and are marked incomplete; a second Ctrl-C quits at once without writing
`;

export function parseDuration(text: string, option = "--duration"): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!m || Number(m[1]) <= 0)
    throw new Error(`${option} ${text}: expected a positive time, e.g. 120s, 2m or 500ms`);
  const n = Number(m[1]);
  return m[2] === "ms" ? n : m[2] === "m" ? n * 60_000 : n * 1000;
}

function positiveInt(name: string, text: string): number {
  if (!/^\d+$/.test(text) || Number(text) <= 0)
    throw new Error(`${name} ${text}: expected a positive whole number`);
  return Number(text);
}

function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** The serials to collect from, or an error saying why there are none. */
async function chooseDevices(
  client: AdbClient,
  o: { serial?: string; allDevices?: boolean; adbPort: number },
): Promise<string[]> {
  let listed: { id: string; type: string }[];
  try {
    listed = await withTimeout(
      client.listDevices() as PromiseLike<{ id: string; type: string }[]>,
      10_000,
      () => new Error("no answer within 10 s"),
    );
  } catch (e) {
    throw new Error(
      `cannot reach the adb server on port ${o.adbPort}: ${(e as Error).message} (is adb installed? try \`adb start-server\`)`,
    );
  }
  const online = listed.filter((d) => d.type === "device").map((d) => d.id);
  const seen = listed.length
    ? `adb devices lists ${listed.map((d) => `${d.id} (${d.type})`).join(", ")}`
    : "adb devices lists none";
  if (o.serial) {
    const d = listed.find((x) => x.id === o.serial);
    if (!d) throw new Error(`device ${o.serial} not found; ${seen}`);
    if (d.type !== "device")
      throw new Error(
        `device ${o.serial} is ${d.type}, not ready${d.type === "unauthorized" ? " (accept the USB debugging prompt on the phone)" : ""}`,
      );
    return [o.serial];
  }
  if (!online.length)
    throw new Error(
      `no device online (${seen}); plug in a phone with USB debugging on, or start a simulated one with \`jankbook simulate\``,
    );
  if (o.allDevices || online.length === 1) return online;
  throw new Error(
    `several devices online (${online.join(", ")}): pick one with --serial or use --all-devices`,
  );
}

export function registerCollect(program: Command, setExitCode: (code: number) => void) {
  program
    .command("collect")
    .description(
      "collect frames, the agent's tasks/render ops/UI events and device context over adb; one bundle per device",
    )
    .requiredOption("--package <pkg>", "application package")
    .option("--serial <serial>", "device serial (default: the only device)")
    .option("--all-devices", "collect from every online device at once (a device lab)")
    .option("--duration <time>", "how long to collect (120s, 2m)", "120s")
    .option("--scenario <how>", "monkey:<events> | instrument:<runner> | manual", "manual")
    .option("--method-trace", "also record a method trace (am profile start/stop)")
    .option("--counters", "also record hardware counters (simpleperf stat)")
    .option("--poll <ms>", "framestats polling interval in ms", "1000")
    .option(
      "--meminfo-interval <time>",
      "sample dumpsys meminfo into heap_samples this often (5s, 500ms), or off",
      "5s",
    )
    .option("--command-timeout <ms>", "give up on a shell command after this long", "10000")
    .option("--run-id <id>", "run id (default: <package>_<model>_<time>)")
    .option("--adb-port <port>", "adb server port", "5037")
    .option("--no-pack", "do not write run.duckdb beside the Arrow files (the workspace then streams them)")
    .requiredOption("--out <dir>", "folder to write bundles into (one sub-folder per run)")
    .addHelpText("after", EXIT_HELP)
    .action(async (o: Record<string, string | boolean | undefined>) => {
      // Every option is checked before the phone is touched.
      const pkg = String(o.package);
      if (!/^[A-Za-z][\w]*(\.[A-Za-z][\w]*)+$/.test(pkg))
        throw new Error(`--package ${pkg}: expected an application id like com.example.app`);
      const scenario = String(o.scenario);
      splitScenario(scenario);
      const durationMs = parseDuration(String(o.duration));
      const pollMs = positiveInt("--poll", String(o.poll));
      const commandTimeout = positiveInt("--command-timeout", String(o.commandTimeout));
      const meminfoIntervalMs =
        o.meminfoInterval === "off" ? null : parseDuration(String(o.meminfoInterval), "--meminfo-interval");
      const adbPort = positiveInt("--adb-port", String(o.adbPort));
      if (o.serial && o.allDevices) throw new Error("--serial and --all-devices: choose one");
      const client = adbClient("127.0.0.1", adbPort);
      try {
        const serials = await chooseDevices(client, {
          serial: o.serial as string | undefined,
          allDevices: o.allDevices === true,
          adbPort,
        });

        const controller = new AbortController();
        const onSigint = () => {
          if (controller.signal.aborted) {
            process.stderr.write("\njankbook collect: second Ctrl-C: quitting without writing\n");
            process.exit(COLLECT_EXIT.interrupted);
          }
          process.stderr.write(
            "\njankbook collect: Ctrl-C: stopping and writing what was collected (Ctrl-C again to quit at once)\n",
          );
          controller.abort();
        };
        process.on("SIGINT", onSigint);
        const progress = new ProgressPrinter(process.stderr);
        const stamp = new Date().toISOString().replace(/[-:]/g, "").slice(0, 15);
        const results: (CollectResult | Error)[] = await Promise.all(
          serials.map(async (serial) => {
            const shell = new DeviceShell(client, serial, commandTimeout);
            let model = serial;
            try {
              model = (await shell.run("getprop ro.product.model", 5000)).trim() || serial;
            } catch {
              /* the collection itself reports it */
            }
            // Several devices (maybe the same model): the serial keeps their bundles apart.
            const base = o.runId ? String(o.runId) : `${slug(pkg.split(".").pop()!)}_${slug(model)}_${stamp}`;
            const runId = serials.length > 1 ? `${base}_${slug(serial)}` : base;
            try {
              const result = await collectDevice(shell, {
                package: pkg,
                scenario,
                durationMs,
                pollMs,
                methodTrace: o.methodTrace === true,
                counters: o.counters === true,
                meminfoIntervalMs,
                dir: join(String(o.out), runId),
                runId,
                signal: controller.signal,
                onProgress: (p) => progress.update(p),
              });
              // run.duckdb beside the Arrow files, so the workspace attaches the run instead of ingesting it
              // (docs/scaling.md).
              if (o.pack !== false) await packCollected(join(String(o.out), runId));
              return result;
            } catch (e) {
              return e as Error;
            }
          }),
        );
        process.removeListener("SIGINT", onSigint);
        progress.done();
        const seen = { failed: false, incomplete: false, interrupted: false };
        for (const [i, r] of results.entries()) {
          if (r instanceof Error) {
            process.stderr.write(`jankbook collect: ${serials[i]}: ${r.message} (no bundle written)\n`);
            seen.failed = true;
            continue;
          }
          const m = r.manifest;
          const rows = Object.entries(m.tables)
            .map(([k, v]) => `${k} ${v.rows}`)
            .join(", ");
          process.stdout.write(`${r.dir}: ${rows || "no tables"}${m.complete ? "" : "  [incomplete]"}\n`);
          if (!m.complete) {
            const interrupted = r.ended === "interrupted";
            seen[interrupted ? "interrupted" : "incomplete"] = true;
            process.stderr.write(
              `jankbook collect: ${r.serial}: ${interrupted ? "interrupted" : `collection incomplete (${r.ended})`}; the bundle keeps what was collected:\n`,
            );
            for (const w of m.warnings) process.stderr.write(`  - ${w}\n`);
          }
        }
        // The most telling outcome wins: the user's Ctrl-C, then a device with no bundle, then an incomplete one.
        const code = seen.interrupted
          ? COLLECT_EXIT.interrupted
          : seen.failed
            ? COLLECT_EXIT.error
            : seen.incomplete
              ? COLLECT_EXIT.incomplete
              : COLLECT_EXIT.complete;
        setExitCode(code);
      } finally {
        // Calls to a frozen device (or adb server) outlive their deadlines with their sockets open; let them
        // go, or the process would wait for them forever after writing the bundles.
        releaseAdb(client);
      }
    });
}

async function packCollected(dir: string): Promise<void> {
  try {
    const { packBundle } = await import("../../workspace/db/node/pack-bundle");
    const p = await packBundle(dir);
    if (p.errors.length)
      process.stderr.write(`${p.file}: packed with ${p.errors.length} errors: ${p.errors.join("; ")}\n`);
  } catch (e) {
    // The Arrow files are the run; a database that cannot be written loses nothing.
    process.stderr.write(
      `${dir}: run.duckdb not written (${(e as Error).message}); the Arrow files are complete\n`,
    );
  }
}
