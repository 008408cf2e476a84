// jankbook's own version, from the package.json next to the CLI (sources in cli/, the build in cli/dist/):
// never npm_package_version, which under another package's `npm run` is that package's.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export function jankbookVersion(from: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(from));
  for (let i = 0; i < 4; i++, dir = dirname(dir)) {
    let text: string;
    try {
      text = readFileSync(join(dir, "package.json"), "utf8");
    } catch {
      continue;
    }
    const pkg = JSON.parse(text) as { name?: string; version?: string };
    if (pkg.name === "jankbook" && pkg.version) return pkg.version;
  }
  throw new Error(`no package.json of jankbook above ${fileURLToPath(from)}`);
}
