import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readBody } from "../../bundle/browser-sources";

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
