// The notebooks bundled with the workspace (notebooks/*.md), and which sample runs a notebook asks for.
import { parseNotebook } from "../notebook/format";
import { matchRunNames } from "../notebook/runs";

const bundled = import.meta.glob("../../notebooks/**/*.md", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

export function bundledNotebooks(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, text] of Object.entries(bundled))
    out[path.replace(/^.*\//, "").replace(/\.md$/, "")] = text;
  return out;
}

/** The sample runs a notebook's front matter names (globs allowed); all samples when it names none. */
export function runsForNotebook(
  text: string,
  available: readonly string[],
): { runs: string[]; missing: string[] } {
  const refs = parseNotebook(text).frontMatter?.runs ?? [];
  if (refs.length === 0) return { runs: [...available], missing: [] };
  const runs = new Set<string>();
  const missing: string[] = [];
  for (const ref of refs) {
    const found = matchRunNames(ref, available);
    if (found.length === 0) missing.push(ref);
    found.forEach((r) => runs.add(r));
  }
  return { runs: [...runs], missing };
}
