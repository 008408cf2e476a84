// `jankbook import <file> --out <dir>`: a saved file (method trace, framestats, gfxinfo, logcat, simpleperf stat) into a run
// bundle. The kind is detected from the content, not the file name.
import { readFile, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import type { Command } from "commander";
import { newManifest, type Manifest } from "../../bundle/manifest";
import { writeBundleFolder } from "../../bundle/node-io";
import { detectFramestats, importFramestats, type TextImport } from "../../collectors/import/framestats";
import { detectGfxinfo, importGfxinfo } from "../../collectors/import/gfxinfo";
import { detectLogcat, importLogcat } from "../../collectors/import/logcat";
import { detectMethodTrace, importMethodTrace } from "../../collectors/import/method-trace";
import { detectPerfetto, importPerfetto } from "../../collectors/import/perfetto";
import { detectSimpleperfStat, importSimpleperfStat } from "../../collectors/import/simpleperf";
import { detectSystrace, importSystrace } from "../../collectors/import/systrace";
import { describeBytes } from "../../collectors/sources/method-trace";

export interface ImportResult {
  dir: string;
  kind: string;
  imported: TextImport;
}

/** Detects the file's kind among all importers and writes the bundle to `<out>/<runId>`. */
export async function importFile(
  file: string,
  out: string,
  runId = defaultRunId(file),
): Promise<ImportResult> {
  const bytes = new Uint8Array(await readFile(file));
  const name = basename(file);
  const dir = join(out, runId);
  let imported: TextImport;
  let extra: Record<string, unknown> | null = null;
  if (detectMethodTrace(bytes)) imported = importMethodTrace(bytes, name, runId);
  else if (detectPerfetto(bytes)) imported = importPerfetto(bytes, name, runId);
  else if (detectSystrace(bytes)) imported = importSystrace(bytes, name, runId);
  else {
    const text = new TextDecoder().decode(bytes);
    if (detectSimpleperfStat(text)) imported = importSimpleperfStat(text, name, runId);
    else if (detectFramestats(text)) imported = importFramestats(text, name, runId);
    else if (detectGfxinfo(text)) {
      const g = importGfxinfo(text, name);
      imported = g;
      extra = { gfxinfo_summary: g.summary };
    } else if (detectLogcat(text)) imported = importLogcat(text, name, runId);
    else
      throw new Error(
        `${file}: not a method trace, Perfetto trace, framestats, gfxinfo, logcat or simpleperf stat file; it looks like ${describeBytes(bytes, 0)}`,
      );
  }
  const manifest = newManifest(runId, imported.context, {
    sources: [{ ...imported.source, tables: Object.keys(imported.tables) }],
    complete: imported.complete,
    warnings: imported.warnings,
    ...("clock" in imported ? { clock: imported.clock as Manifest["clock"] } : {}),
  });
  await writeBundleFolder(dir, manifest, imported.tables);
  if (extra) await writeFile(join(dir, "gfxinfo-summary.json"), JSON.stringify(extra, null, 2) + "\n");
  return { dir, kind: imported.source.kind, imported };
}

function defaultRunId(file: string): string {
  return `import-${basename(file)
    .replace(/\.[^.]*$/, "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")}`;
}

export function registerImport(program: Command, setExitCode: (code: number) => void) {
  program
    .command("import")
    .description(
      "import a saved file (method trace, framestats, gfxinfo, logcat, simpleperf stat) into a run bundle",
    )
    .argument("<file>", "file to import; its kind is detected from its content")
    .requiredOption("--out <dir>", "folder to write the bundle into (one sub-folder per run)")
    .option("--run-id <id>", "run id (default: import-<file name>)")
    .action(async (file: string, o: { out: string; runId?: string }) => {
      const r = await importFile(file, o.out, o.runId);
      const rows = Object.entries(r.imported.tables)
        .map(([k, t]) => `${k} ${t!.numRows}`)
        .join(", ");
      process.stdout.write(
        `${r.dir}: ${r.kind}: ${rows || "no tables"}${r.imported.complete ? "" : "  [incomplete]"}\n`,
      );
      for (const w of r.imported.warnings) process.stdout.write(`  warning: ${w}\n`);
      if (!r.imported.complete) setExitCode(2);
    });
}
