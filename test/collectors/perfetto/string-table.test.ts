// StringTable against a Map from decoded text to first-seen index: ids are handed out in order of first sight, the
// same bytes always give the same id, and byte strings that decode to one text (invalid UTF-8 becomes U+FFFD,
// WHATWG Encoding "decode") share it, however many strings grow the table.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StringTable } from "../../../collectors/sources/perfetto/string-table";

const text = new TextDecoder("utf-8", { fatal: false });

// Each id through a reference Map of decoded text, in order of first sight.
function reference(inputs: Uint8Array[]): number[] {
  const seen = new Map<string, number>();
  return inputs.map((b) => {
    const s = text.decode(b);
    if (!seen.has(s)) seen.set(s, seen.size);
    return seen.get(s)!;
  });
}

// Every input at an offset inside one shared buffer, as the decoder reads fields out of a trace.
function ids(inputs: Uint8Array[]): { ids: number[]; table: StringTable } {
  const table = new StringTable();
  const buf = new Uint8Array(inputs.reduce((n, b) => n + b.length + 3, 0));
  let at = 0;
  const out = inputs.map((b) => {
    at += 3;
    buf.set(b, at);
    const id = table.id(buf, at, at + b.length);
    at += b.length;
    return id;
  });
  return { ids: out, table };
}

describe("StringTable", () => {
  it("property: ids match a Map of the decoded text, in order of first sight", () => {
    const bytes = fc.uint8Array({ maxLength: 12 });
    // Few distinct values so that repeats are common; ASCII and arbitrary bytes alike.
    const ascii = fc.constantFrom(
      ...["", "a", "ab", "abcd", "abcde", "B|1|draw", "draw"].map((s) => new TextEncoder().encode(s)),
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(bytes, ascii), { maxLength: 80 }), (inputs) => {
        const { ids: got, table } = ids(inputs);
        expect(got).toEqual(reference(inputs));
        for (let i = 0; i < inputs.length; i++) expect(table.get(got[i]!)).toBe(text.decode(inputs[i]!));
      }),
    );
  });

  it("keeps every id through many rehashes (20,000 distinct names, then each again)", () => {
    const names = Array.from({ length: 20_000 }, (_, i) =>
      new TextEncoder().encode(`Choreographer#doFrame ${i}`),
    );
    const first = ids(names).ids;
    expect(first).toEqual(names.map((_, i) => i));
    const { table } = ids([]);
    const again = [...names, ...names].map((b) => table.id(b, 0, b.length));
    expect(again.slice(20_000)).toEqual(again.slice(0, 20_000));
    expect(new Set(again).size).toBe(20_000);
  });

  it("gives one id to invalid UTF-8 byte strings that decode alike, and JS text the same id", () => {
    const t = new StringTable();
    const ff = t.id(Uint8Array.of(0xff), 0, 1);
    const fe = t.id(Uint8Array.of(0xfe), 0, 1);
    expect(fe).toBe(ff);
    expect(t.get(ff)).toBe("\ufffd");
    expect(t.text("\ufffd")).toBe(ff);
    expect(t.id(Uint8Array.of(0xff), 0, 1)).toBe(ff);
    const draw = t.text("draw");
    expect(t.id(new TextEncoder().encode("draw"), 0, 4)).toBe(draw);
  });
});
