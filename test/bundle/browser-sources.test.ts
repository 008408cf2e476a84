import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { prepareBundle } from "../../bundle/prepare-bundle";
import { looksLikeHtml, notServed, readBody, urlSource } from "../../bundle/browser-sources";

/** A response whose body arrives in the given chunks, announcing `length` bytes. */
function chunked(chunks: Uint8Array[], length?: number): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
      controller.close();
    },
  });
  return new Response(body, { headers: length === undefined ? {} : { "content-length": String(length) } });
}

describe("readBody", () => {
  it("gathers any chunking of a body into exactly its bytes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 20 }), async (chunks) => {
        const whole = Uint8Array.from(chunks.flatMap((c) => [...c]));
        expect([...(await readBody(chunked(chunks, whole.length)))]).toEqual([...whole]);
        expect([...(await readBody(chunked(chunks)))]).toEqual([...whole]); // no length: arrayBuffer()
      }),
    );
  });

  it("keeps what arrived of a body cut short, and refuses one longer than announced", async () => {
    const cut = await readBody(chunked([Uint8Array.of(1, 2, 3)], 10));
    expect([...cut]).toEqual([1, 2, 3]);
    await expect(readBody(chunked([Uint8Array.of(1, 2, 3), Uint8Array.of(4)], 3))).rejects.toThrow(
      /longer than its content-length 3/,
    );
  });
});

describe("urlSource: a bundle that is not there", () => {
  const PAGE = "http://127.0.0.1:5173/?notebook=triage";
  const INDEX_HTML = "<!doctype html><html><body>jankbook</body></html>";
  afterEach(() => vi.unstubAllGlobals());

  /** The page's location and a server: 404 for everything, or (spa) Vite's fallback page with 200. */
  function serve(answer: "404" | "spa" | "untyped") {
    vi.stubGlobal("location", new URL(PAGE));
    vi.stubGlobal("fetch", async () =>
      answer === "404"
        ? new Response("not found", { status: 404 })
        : new Response(INDEX_HTML, {
            status: 200,
            headers: answer === "spa" ? { "content-type": "text/html; charset=utf-8" } : {},
          }),
    );
  }

  it.each([
    ["404", "HTTP 404"],
    ["spa", "the server answered with an HTML page"],
    ["untyped", "an HTML page where manifest.json should be"],
  ] as const)("answered %s: 'no run bundle at <url> (%s)', never a JSON parse error", async (answer, why) => {
    serve(answer);
    const error = await prepareBundle(urlSource("runs/nosuch"), { attach: true }).then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(error).toContain(`no run bundle at http://127.0.0.1:5173/runs/nosuch/ (${why}`);
    expect(error).not.toMatch(/JSON|Unexpected token/);
  });

  it("names the URL of a missing table file", async () => {
    serve("404");
    await expect(urlSource("runs/a/").read("frames.arrows")).rejects.toThrow(
      "http://127.0.0.1:5173/runs/a/frames.arrows: HTTP 404",
    );
  });

  it("notServed and looksLikeHtml", () => {
    const html = new Response("", { headers: { "content-type": "text/html" } });
    expect(notServed(html, "manifest.json")).toMatch(/HTML page/);
    expect(notServed(html, "report.html")).toBeUndefined();
    expect(notServed(new Response("", { status: 500 }), "x")).toBe("HTTP 500");
    expect(
      notServed(new Response("{}", { headers: { "content-type": "application/json" } }), "x"),
    ).toBeUndefined();
    const bytes = (t: string) => new TextEncoder().encode(t);
    expect(looksLikeHtml(bytes("  \n<!DOCTYPE html><html>"))).toBe(true);
    expect(looksLikeHtml(bytes("<html>"))).toBe(true);
    expect(looksLikeHtml(bytes('{"schema_version": 1}'))).toBe(false);
  });
});
