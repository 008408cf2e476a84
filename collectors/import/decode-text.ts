// Bytes of a saved text file to a string: UTF-8 with or without BOM, UTF-16 LE/BE with a BOM, or UTF-16 LE
// without one (PowerShell's `adb shell ... > file` writes UTF-16). A small step of our own until the shared
// collectors/sources/text-decode.ts lands (branch frames); swap it in then.

export interface DecodedText {
  text: string;
  encoding: "utf-8" | "utf-16le" | "utf-16be";
  bom: boolean;
}

export function decodeText(bytes: Uint8Array): DecodedText {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { text: new TextDecoder("utf-8").decode(bytes.subarray(3)), encoding: "utf-8", bom: true };
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: new TextDecoder("utf-16le").decode(bytes.subarray(2)), encoding: "utf-16le", bom: true };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: new TextDecoder("utf-16be").decode(bytes.subarray(2)), encoding: "utf-16be", bom: true };
  // ASCII text in UTF-16 LE without a BOM: every odd byte of the first ones is zero, no even one is.
  const n = Math.min(bytes.length & ~1, 64);
  if (n >= 4) {
    let le = true;
    for (let i = 0; i < n; i += 2) if (bytes[i] === 0 || bytes[i + 1] !== 0) le = false;
    if (le) return { text: new TextDecoder("utf-16le").decode(bytes), encoding: "utf-16le", bom: false };
  }
  return { text: new TextDecoder("utf-8").decode(bytes), encoding: "utf-8", bom: false };
}
