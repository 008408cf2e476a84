// Browser byte sources for readBundle: a bundle at a URL, or files dropped on the page.
import type { BundleSource } from "./read-bundle";

export function urlSource(base: string): BundleSource {
  const root = base.endsWith("/") ? base : `${base}/`;
  const get = async (file: string) => {
    const response = await fetch(new URL(file, new URL(root, location.href)));
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return response;
  };
  return {
    label: root.replace(/\/$/, ""),
    async read(file) {
      return readBody(await get(file));
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
