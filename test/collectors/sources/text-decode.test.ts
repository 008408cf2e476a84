import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeText, sniffEncoding } from "../../../collectors/sources/text-decode";

/** UTF-16 bytes written out by hand, code unit by code unit (an independent encoder). */
function utf16(s: string, le: boolean, bom: boolean): Uint8Array {
  const units = (bom ? "\ufeff" : "") + s;
  const out = new Uint8Array(units.length * 2);
  for (let i = 0; i < units.length; i++) {
    const u = units.charCodeAt(i);
    out[2 * i + (le ? 0 : 1)] = u & 0xff;
    out[2 * i + (le ? 1 : 0)] = u >> 8;
  }
  return out;
}
const utf8 = (s: string, bom = false) =>
  new Uint8Array([...(bom ? [0xef, 0xbb, 0xbf] : []), ...new TextEncoder().encode(s)]);

const FAILED =
  "Applications Graphics Acceleration Info:\r\n\r\nFailure while dumping the app: ProcessRecord{1 2:a.b/u0a1}\r\n";

describe("decodeText", () => {
  it.each([
    ["UTF-8", utf8(FAILED), "utf-8", false],
    ["UTF-8 with a BOM (Notepad)", utf8(FAILED, true), "utf-8", true],
    ["UTF-16LE with a BOM (PowerShell > redirection)", utf16(FAILED, true, true), "utf-16le", true],
    ["UTF-16BE with a BOM", utf16(FAILED, false, true), "utf-16be", true],
    ["UTF-16LE without a BOM", utf16(FAILED, true, false), "utf-16le", false],
    ["UTF-16BE without a BOM", utf16(FAILED, false, false), "utf-16be", false],
  ] as const)("%s: the same text, CRLF kept, no BOM character", (_, bytes, encoding, bom) => {
    const d = decodeText(bytes);
    expect(d).toEqual({ text: FAILED, encoding, bom, invalid: 0 });
  });

  it("counts the half code unit a cut UTF-16 file ends with", () => {
    const bytes = utf16("abc", true, true);
    const d = decodeText(bytes.subarray(0, bytes.length - 1));
    expect([d.text, d.invalid]).toEqual(["ab", 1]);
  });

  it("reads binary bytes as UTF-8 with replacement characters counted, never as UTF-16", () => {
    const bytes = new Uint8Array([0x53, 0x4c, 0x4f, 0x57, 0xff, 0x00, 0x01, 0x02, 0xc3, 0x28]);
    expect(sniffEncoding(bytes)).toEqual({ encoding: "utf-8", bom: false });
    expect(decodeText(bytes).invalid).toBe(2); // 0xff and the broken 0xc3 sequence
  });

  it("decodes any bytes without throwing, and a UTF-8 reading never loses a byte silently (property)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
        const d = decodeText(bytes);
        if (d.encoding === "utf-8" && d.invalid === 0)
          expect(new TextEncoder().encode(d.text)).toEqual(bytes.subarray(d.bom ? 3 : 0));
      }),
      { numRuns: 500 },
    );
  });

  it("round-trips any text through every encoding it sniffs (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), (s) => {
        fc.pre(!s.startsWith("\ufeff"));
        expect(decodeText(utf8(s)).text).toBe(s);
        expect(decodeText(utf8(s, true)).text).toBe(s);
        expect(decodeText(utf16(s, true, true)).text).toBe(s);
        expect(decodeText(utf16(s, false, true)).text).toBe(s);
      }),
      { numRuns: 300 },
    );
  });

  it("sniffs BOM-less UTF-16 of ASCII text (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(..."abc,019 \r\n\t-/:"), minLength: 2, maxLength: 300 }),
        (s) => {
          expect(decodeText(utf16(s, true, false))).toMatchObject({ text: s, encoding: "utf-16le" });
          expect(decodeText(utf16(s, false, false))).toMatchObject({ text: s, encoding: "utf-16be" });
        },
      ),
      { numRuns: 200 },
    );
  });
});
