// The last phase of a collection: every table built from what the phases read, each on its own, so one that
// cannot be built (no frames at all, a value the schema refuses) is left out with a warning naming it and
// why, and the bundle is still written with every other table, marked incomplete (nothing collected
// may ever be lost).
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Table } from "apache-arrow";
import { newManifest, type Manifest, type RunContext } from "../../bundle/manifest";
import { writeBundleFolder } from "../../bundle/node-io";
import type { TableName } from "../../bundle/schema";
import { validateTable } from "../../bundle/validate";
import { agentTables, framesTable } from "../bundle-tables";
import { agentNotRunningHint, type AgentData } from "../sources/agent-lines";
import type { FrameRecord } from "../sources/framestats";
import type { Collection } from "./collection";

export interface CollectedData {
  runId: string;
  pkg: string;
  context: RunContext;
  synthetic: boolean;
  startedAt: string;
  frames: FrameRecord[];
  agent: AgentData;
  /** tables of the other phases (method trace, counters, heap), built or to build */
  built: Partial<Record<TableName, Table | null | (() => Table | null)>>;
  /** what the scenario driver printed, kept as driver.log */
  driverOutput: string;
}

export async function writeCollectedBundle(c: Collection, dir: string, d: CollectedData): Promise<Manifest> {
  const tables: Partial<Record<TableName, Table>> = {};
  const keep = (name: string, build: () => Partial<Record<TableName, Table | null>>) => {
    let built: Partial<Record<TableName, Table | null>>;
    try {
      built = build();
    } catch (e) {
      c.warn(
        `${name}: not written, it could not be built (${(e as Error).message}); the other tables are kept`,
      );
      return;
    }
    for (const [t, table] of Object.entries(built) as [TableName, Table | null][]) {
      if (!table) continue;
      try {
        validateTable(table, t, `${t} (collected)`);
        tables[t] = table;
      } catch (e) {
        c.warn(`${t}: not written, ${(e as Error).message}; the other tables are kept`);
      }
    }
  };

  if (d.frames.length)
    keep("frames", () => {
      const frames = framesTable(d.runId, d.frames, d.context.refresh_hz ?? null);
      if (frames.unknownColumns.length)
        c.warn(`framestats columns not in the schema, not kept: ${frames.unknownColumns.join(", ")}`, false);
      if (frames.skipped) c.warn(`${frames.skipped} framestats rows without IntendedVsync left out`, false);
      const suspect = frames.table.getChild("suspect")!.nullCount;
      if (suspect < frames.table.numRows)
        c.warn(
          `framestats: ${frames.table.numRows - suspect} frames flagged suspect (impossible or unfinished times; frames.suspect says why), left out of the analyses by default`,
          false,
        );
      return { frames: frames.table.numRows ? frames.table : null };
    });
  else if (!c.lost)
    c.warn("framestats: no frame was rendered during the run (or none was read); no frames table");
  keep("the agent's tables (tasks, contexts, render_ops, ui_events)", () => agentTables(d.runId, d.agent));
  for (const [name, table] of Object.entries(d.built) as [TableName, Table | null | (() => Table | null)][])
    keep(name, () => ({ [name]: typeof table === "function" ? table() : table }));
  if (!d.agent.lines) c.warn(agentNotRunningHint(d.pkg), false);

  const manifest = newManifest(d.runId, d.context, {
    started_at: d.startedAt,
    created_by: "jankbook collect",
    synthetic: d.synthetic,
    complete: c.complete,
    warnings: c.warnings,
    sources: c.sources,
    ...(Object.keys(d.agent.lostLines).length ? { lost_lines: d.agent.lostLines } : {}),
  });
  const written = await writeBundleFolder(dir, manifest, tables);
  if (d.driverOutput) {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "driver.log"), d.driverOutput);
  }
  return written;
}
