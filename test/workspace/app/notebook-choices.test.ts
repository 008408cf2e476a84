import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { notebookChoices, notebookUrl } from "../../../workspace/app/notebook-choices";

const ROOT = join(import.meta.dirname, "../../..");

describe("notebookChoices", () => {
  it("lists every notebook under notebooks/, top-level first, with the title its front matter gives", () => {
    const notebooksIn = (folder: string) =>
      readdirSync(join(ROOT, "notebooks", folder))
        .filter((f) => f.endsWith(".md"))
        .map((f) => f.replace(/\.md$/, ""))
        .sort();
    const folders = ["", "cases", "examples"]; // top level first, then the folders by name
    const choices = notebookChoices();
    expect(choices.map((c) => c.name)).toEqual(folders.flatMap(notebooksIn));
    expect(choices.map((c) => c.folder)).toEqual(folders.flatMap((d) => notebooksIn(d).map(() => d)));
    // read off the file by hand: notebooks/triage.md's front matter says "title: Triage of the sample runs"
    expect(readFileSync(join(ROOT, "notebooks/triage.md"), "utf8")).toContain(
      "title: Triage of the sample runs",
    );
    expect(choices.find((c) => c.name === "triage")?.title).toBe("Triage of the sample runs");
  });
});

describe("notebookUrl", () => {
  it.each([
    ["http://localhost:5173/", "triage", "http://localhost:5173/?notebook=triage"],
    [
      "http://localhost:5173/?notebook=triage&runs=samples/a/,samples/b/#x",
      "gfxinfo-lab",
      "http://localhost:5173/?notebook=gfxinfo-lab",
    ],
    [
      "http://127.0.0.1:4000/?engine=server&notebook=lab.md",
      "perfetto-frames",
      "http://127.0.0.1:4000/?engine=server&notebook=perfetto-frames",
    ],
  ])("%s + %s -> %s", (href, name, expected) => {
    expect(notebookUrl(href, name)).toBe(expected);
  });
});
