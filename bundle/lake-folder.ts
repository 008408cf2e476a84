// `lake add` writes only into a lake: a missing or empty folder becomes one (a marker file says so), a folder
// with the marker or made by an older `lake add` (table folders and run_summary/ only) is one; anything else
// (a home folder, a source tree, a typo) is refused before a byte is written.
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { LAKE_LOCK } from "./lake-lock";
import { TABLE_NAMES } from "./schema";

export const LAKE_MARKER = ".jankbook-lake";
const RUN_SUMMARY_DIR = "run_summary";
/** Where `lake add` keeps each run's place in the lake (workspace/db/node/lake-index.ts). */
export const LAKE_INDEX = ".jankbook-lake-index";

/** Makes `lake` a lake when it is missing or empty; throws when it is a folder with anything else in it. */
export async function checkLakeFolder(lake: string): Promise<void> {
  const entries = await readdir(lake, { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return null;
    throw new Error(`${lake}: cannot use as a lake (${e.message})`);
  });
  if (entries?.some((e) => e.name === LAKE_MARKER)) return;
  // the run index (workspace/db/node/lake-index.ts), and the copy of it a first add builds aside
  const lakeEntry = (name: string, dir: boolean) =>
    dir &&
    (name === RUN_SUMMARY_DIR ||
      name.startsWith(LAKE_INDEX) ||
      (TABLE_NAMES as readonly string[]).includes(name));
  // another `lake add` may have taken the lock in a folder it just made a lake
  const present = (entries ?? []).filter((e) => !e.name.startsWith(LAKE_LOCK));
  const foreign = present.filter((e) => !lakeEntry(e.name, e.isDirectory()));
  const oldLake = present.some((e) => e.name === RUN_SUMMARY_DIR && e.isDirectory());
  if (foreign.length > 0 || (present.length > 0 && !oldLake)) {
    const shown = (foreign.length ? foreign : present).map((e) => e.name);
    throw new Error(
      `${lake}: not a jankbook lake (no ${LAKE_MARKER} file) and not empty (${shown.slice(0, 3).join(", ")}${shown.length > 3 ? ", ..." : ""}): refusing to write into it; name an empty or new folder`,
    );
  }
  await mkdir(lake, { recursive: true });
  await writeFile(
    join(lake, LAKE_MARKER),
    "a jankbook lake: Hive-partitioned Parquet written by `jankbook lake add`\n",
    {
      flag: "a",
    },
  );
}
