// Which notebook ?notebook=NAME opens, and the errors when none: a dev server's SPA fallback answers
// every unknown path with its index.html, which must never be taken for a notebook.
import { describe, expect, it } from "vitest";
import {
  bundledName,
  openedNotebook,
  rememberOpened,
  resolveNotebook,
  type NotebookLookup,
} from "../../../workspace/app/notebook-resolve";

const INDEX_HTML = '<!doctype html>\n<html lang="en"><head><title>jankbook</title></head></html>\n';
const NOTEBOOK = "---\nruns:\n  - synthetic-feed-scroll\n---\n\n# Served\n";

/** A server holding `files`; unknown paths get 404, or with `spa` Vite's fallback: index.html with 200. */
function lookup(files: Record<string, [string, string]>, spa = false): NotebookLookup & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    bundled: { triage: "# Triage", "frames-overview": "# Frames" },
    folders: { triage: "", "frames-overview": "examples" },
    base: "http://127.0.0.1:5173/?notebook=x",
    fetch: async (url) => {
      asked.push(url);
      const path = new URL(url).pathname.slice(1);
      const file = files[path];
      if (file) return new Response(file[1], { status: 200, headers: { "content-type": file[0] } });
      if (spa) return new Response(INDEX_HTML, { status: 200, headers: { "content-type": "text/html" } });
      return new Response("not found", { status: 404, headers: { "content-type": "text/plain" } });
    },
  };
}

describe("resolveNotebook", () => {
  it("opens a bundled notebook by name, with its folder, without fetching", async () => {
    const l = lookup({});
    expect(await resolveNotebook("frames-overview", l)).toEqual({
      name: "frames-overview",
      text: "# Frames",
      path: "frames-overview.md",
      folder: "examples",
    });
    expect(l.asked).toEqual([]);
  });

  it("fetches NAME.md beside the workspace", async () => {
    const l = lookup({ "fixtures/served.md": ["text/markdown", NOTEBOOK] });
    const nb = await resolveNotebook("fixtures/served.md", l);
    expect(nb).toEqual({ name: "fixtures/served.md", text: NOTEBOOK, path: "served.md" });
    expect(l.asked).toEqual(["http://127.0.0.1:5173/fixtures/served.md"]);
  });

  it("a name without .md found nowhere: says so and where it looked", async () => {
    await expect(resolveNotebook("nosuch", lookup({}))).rejects.toThrow(
      "no notebook named nosuch (looked among the bundled notebooks: frames-overview, triage;",
    );
  });

  it("nosuch.md: HTTP 404 names the URL", async () => {
    await expect(resolveNotebook("nosuch.md", lookup({}))).rejects.toThrow(
      "no notebook named nosuch.md (looked at http://127.0.0.1:5173/nosuch.md: HTTP 404;",
    );
  });

  it("nosuch.md behind an SPA fallback: the HTML page is refused, by content type or by its text", async () => {
    await expect(resolveNotebook("nosuch.md", lookup({}, true))).rejects.toThrow(
      /^no notebook named nosuch\.md \(looked at http:\/\/127\.0\.0\.1:5173\/nosuch\.md: the server answered with an HTML page/,
    );
    const untyped = lookup({ "bare.md": ["application/octet-stream", INDEX_HTML] });
    await expect(resolveNotebook("bare.md", untyped)).rejects.toThrow(
      "looked at http://127.0.0.1:5173/bare.md: an HTML page, not a notebook",
    );
  });

  it("a notebook opened from a file in this tab wins, and keeps the folder of the bundled one it names", async () => {
    const l = lookup({}, true);
    l.opened = (name) => (name === "frames-overview.md" ? "# Mine" : undefined);
    const nb = await resolveNotebook("frames-overview.md", l);
    expect([nb.name, nb.text, nb.path, nb.folder]).toEqual([
      "frames-overview.md",
      "# Mine",
      "frames-overview.md",
      "examples",
    ]);
    expect(l.asked).toEqual([]);
  });
});

describe("bundledName and the opened-notebook store", () => {
  it("maps a file name to a bundled notebook's name", () => {
    const bundled = { "frames-overview": "" };
    expect(bundledName("frames-overview.md", bundled)).toBe("frames-overview");
    expect(bundledName("dir/frames-overview.md", bundled)).toBe("frames-overview");
    expect(bundledName("other.md", bundled)).toBeUndefined();
  });

  it("remembers opened text per name; a failing storage loses nothing but the reload", () => {
    const map = new Map<string, string>();
    const storage = {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
    } as Storage;
    rememberOpened(storage, "a.md", "# A");
    expect(openedNotebook(storage, "a.md")).toBe("# A");
    expect(openedNotebook(storage, "b.md")).toBeUndefined();
    const full = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("quota");
      },
    } as unknown as Storage;
    expect(() => rememberOpened(full, "a.md", "# A")).not.toThrow();
    expect(openedNotebook(full, "a.md")).toBeUndefined();
  });
});
