// Text files saved from a phone come in whatever encoding the shell that captured them used: UTF-8, UTF-8 with a
// BOM (Notepad), UTF-16LE with a BOM (PowerShell 5's `>` redirection), sometimes UTF-16 without one. Importers
// read text through this so a UTF-16 dump is read as the text it is, not refused as binary bytes.

export type TextEncodingName = "utf-8" | "utf-16le" | "utf-16be";

export interface DecodedText {
  text: string;
  encoding: TextEncodingName;
  /** a byte order mark was present (and is not part of `text`) */
  bom: boolean;
  /** bytes that were not valid in the encoding, each replaced by U+FFFD */
  invalid: number;
}

/** How many bytes the sniffer looks at to tell UTF-16 without a BOM from UTF-8. */
const SNIFF_BYTES = 4096;

/**
 * The encoding of `bytes`: a BOM decides (EF BB BF, FF FE, FE FF); without one, text whose odd (or even) bytes
 * are mostly zero while the others are printable ASCII is UTF-16LE (BE); anything else is read as UTF-8.
 */
export function sniffEncoding(bytes: Uint8Array): { encoding: TextEncodingName; bom: boolean } {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { encoding: "utf-8", bom: true };
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: "utf-16le", bom: true };
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: "utf-16be", bom: true };
  const n = Math.min(bytes.length, SNIFF_BYTES) & ~1;
  if (n < 4) return { encoding: "utf-8", bom: false };
  let zeroOdd = 0;
  let zeroEven = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0 && isAscii(bytes[i + 1]!)) zeroEven++;
    if (bytes[i + 1] === 0 && isAscii(bytes[i]!)) zeroOdd++;
  }
  const pairs = n / 2;
  // ASCII text in UTF-16 has a zero in every pair; 90% leaves room for a few non-Latin characters.
  if (zeroOdd >= 0.9 * pairs) return { encoding: "utf-16le", bom: false };
  if (zeroEven >= 0.9 * pairs) return { encoding: "utf-16be", bom: false };
  return { encoding: "utf-8", bom: false };
}

function isAscii(b: number): boolean {
  return b === 0x09 || b === 0x0a || b === 0x0d || (b >= 0x20 && b < 0x7f);
}

/** Decodes `bytes` in the sniffed encoding, without the BOM; invalid sequences become U+FFFD and are counted. */
export function decodeText(bytes: Uint8Array): DecodedText {
  const { encoding, bom } = sniffEncoding(bytes);
  const skip = bom ? (encoding === "utf-8" ? 3 : 2) : 0;
  let body = bytes.subarray(skip);
  if (encoding !== "utf-8" && body.length % 2 === 1) body = body.subarray(0, body.length - 1);
  const text = new TextDecoder(encoding, { ignoreBOM: true }).decode(body);
  let invalid = 0;
  for (let i = text.indexOf("\ufffd"); i >= 0; i = text.indexOf("\ufffd", i + 1)) invalid++;
  // A cut UTF-16 file loses its last half code unit: count it as invalid too.
  if (body.length !== bytes.length - skip) invalid++;
  return { text, encoding, bom, invalid };
}
