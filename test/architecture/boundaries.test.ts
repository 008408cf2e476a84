// docs/architecture.md: cells/ are pure analyses and collectors/ produce the bundle; neither reaches into the
// other.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.(ts|js)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Every module specifier of a file: static imports, re-exports and dynamic imports. */
export function specifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(
    /\b(?:import|export)\b[^;'"]*?\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm,
  ))
    out.push((m[1] ?? m[2] ?? m[3])!);
  return out;
}

/** "file: specifier" for each import of a file under `from` that resolves into the folder `into`. */
function crossings(from: string, into: string): string[] {
  return sources(from).flatMap((file) =>
    specifiers(readFileSync(file, "utf8"))
      .filter((s) => s.startsWith(".") && join(file, "..", s).split("/")[0] === into)
      .map((s) => `${file}: ${s}`),
  );
}

describe("module boundaries", () => {
  it("finds the imports it is looking for (the scanner itself)", () => {
    const text = `import type { A } from "../../collectors/x";\nexport * from "./y";\nconst z = await import("../z");\nimport "./side";`;
    expect(specifiers(text)).toEqual(["../../collectors/x", "./y", "../z", "./side"]);
    expect(join("cells/androscope/calls.ts", "..", "../../collectors/x").split("/")[0]).toBe("collectors");
  });

  it("no file in cells/ imports from collectors/", () => {
    expect(crossings("cells", "collectors")).toEqual([]);
  });

  it("no file in collectors/ imports from cells/", () => {
    expect(crossings("collectors", "cells")).toEqual([]);
  });

  // Node-only code (servers, native DuckDB, the headless runner) lives in workspace/node/, so the browser
  // build never pulls in node: modules and a reader sees at once which side a file runs on.
  it("only workspace/node/ imports node: modules or reaches into workspace/node/", () => {
    const browserSide = sources("workspace").filter((f) => !f.startsWith("workspace/node/"));
    const offending = browserSide.flatMap((file) =>
      specifiers(readFileSync(file, "utf8"))
        .filter(
          (s) =>
            s.startsWith("node:") || (s.startsWith(".") && join(file, "..", s).startsWith("workspace/node/")),
        )
        .map((s) => `${file}: ${s}`),
    );
    expect(offending).toEqual([]);
  });
});
