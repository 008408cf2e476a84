// Browser byte sources for readBundle: a bundle at a URL, or files dropped on the page.
import type { BundleSource } from "./read-bundle";

/**
 * Why `response` is not the file asked for, or undefined when it is: an HTTP error, or the HTML page a dev
 * server's SPA fallback (Vite's) answers for any unknown path with 200 (parsed as JSON, it gave
 * "Unexpected token '<'").
 */
export function notServed(response: Response, file: string): string | undefined {
  if (!response.ok) return `HTTP ${response.status}`;
  const type = response.headers.get("content-type") ?? "";
  if (/^text\/html\b/i.test(type) && !/\.html?$/i.test(file))
    return "the server answered with an HTML page, as it does for a path it does not have";
  return undefined;
}

/** Does text start like an HTML page (a fallback served without a content type)? */
export function looksLikeHtml(bytes: Uint8Array): boolean {
  const head = new TextDecoder().decode(bytes.subarray(0, 64)).trimStart().toLowerCase();
  return head.startsWith("<!doctype html") || head.startsWith("<html");
}

export function urlSource(base: string): BundleSource {
  const root = base.endsWith("/") ? base : `${base}/`;
  const rootUrl = () => new URL(root, location.href);
  // A bundle that is not there says so with its URL, not with what parsing an error page gave.
  const get = async (file: string) => {
    const url = new URL(file, rootUrl());
    const response = await fetch(url);
    const wrong = notServed(response, file);
    if (wrong === undefined) return response;
    void response.body?.cancel().catch(() => undefined);
    throw new Error(
      file === "manifest.json" ? `no run bundle at ${rootUrl().href} (${wrong})` : `${url.href}: ${wrong}`,
    );
  };
  return {
    label: root.replace(/\/$/, ""),
    async read(file) {
      const bytes = await readBody(await get(file));
      if (file === "manifest.json" && looksLikeHtml(bytes))
        throw new Error(`no run bundle at ${rootUrl().href} (an HTML page where manifest.json should be)`);
      return bytes;
    },
    locate: (file) => ({ url: new URL(file, new URL(root, location.href)).href }),
    async *stream(file) {
      const response = await get(file);
      if (!response.body) return yield await readBody(response);
      yield* chunksOf(response.body);
    },
  };
}

/** A ReadableStream's chunks, read by hand (async iteration of ReadableStream is newer than some Chromiums). */
async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if ((finished = done)) return;
      yield value;
    }
  } finally {
    // Abandoned early (the run was refused, or its table failed): stop the download too.
    if (!finished) await reader.cancel().catch(() => undefined);
  }
}

/**
 * The body, gathered chunk by chunk into one buffer of the announced size: `arrayBuffer()` assembles a big
 * table in one main-thread task (382 ms for a 750 MB frames table), this spreads the copying over the
 * chunks as they arrive. Without a trustworthy length it falls back to `arrayBuffer()`.
 */
export async function readBody(response: Response): Promise<Uint8Array> {
  const length = Number(response.headers.get("content-length"));
  const encoded = (response.headers.get("content-encoding") ?? "identity") !== "identity";
  if (!response.body || !Number.isSafeInteger(length) || length <= 0 || encoded)
    return new Uint8Array(await response.arrayBuffer());
  const bytes = new Uint8Array(length);
  const reader = response.body.getReader();
  let filled = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (filled + value.length > length) throw new Error(`body longer than its content-length ${length}`);
    bytes.set(value, filled);
    filled += value.length;
  }
  return filled === length ? bytes : bytes.subarray(0, filled);
}

/**
 * Groups dropped files into bundles: every folder holding a manifest.json is one run. Files dropped
 * without folders (just manifest.json + tables) form one bundle.
 */
export function droppedSources(files: readonly File[]): BundleSource[] {
  const byDir = new Map<string, Map<string, File>>();
  for (const f of files) {
    const path = (f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name;
    const cut = path.lastIndexOf("/");
    const dir = cut >= 0 ? path.slice(0, cut) : "";
    const name = cut >= 0 ? path.slice(cut + 1) : path;
    if (!byDir.has(dir)) byDir.set(dir, new Map());
    byDir.get(dir)!.set(name, f);
  }
  const sources: BundleSource[] = [];
  for (const [dir, entries] of byDir) {
    if (!entries.has("manifest.json")) continue;
    sources.push({
      label: dir || "dropped files",
      async read(file) {
        const f = entries.get(file);
        if (!f) throw new Error("not among the dropped files");
        return new Uint8Array(await f.arrayBuffer());
      },
      async *stream(file) {
        const f = entries.get(file);
        if (!f) throw new Error("not among the dropped files");
        yield* chunksOf(f.stream());
      },
      locate(file) {
        const f = entries.get(file);
        if (!f) throw new Error(`${file}: not among the dropped files`);
        return { blob: f };
      },
    });
  }
  return sources;
}
