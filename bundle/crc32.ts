// CRC-32 (IEEE 802.3, the zlib/PNG/gzip polynomial 0xEDB88320, reflected) of a table file, for the manifest's
// per-table checksum. Chosen over SHA-256 because it is incremental over streamed pieces in the browser too
// (WebCrypto's digest takes only a whole buffer) and costs little; it detects damage, not tampering.
// Slice-by-8 tables (Intel's "slicing-by-8"): eight table lookups per 8 input bytes.

const TABLES = (() => {
  const t = new Uint32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  for (let n = 0; n < 256; n++)
    for (let k = 1; k < 8; k++)
      t[k * 256 + n] = (t[(k - 1) * 256 + n]! >>> 8) ^ t[t[(k - 1) * 256 + n]! & 0xff]!;
  return t;
})();

/** Continues a CRC-32 over `bytes` (start with 0); returns the unsigned CRC so far. */
export function crc32(bytes: Uint8Array, crc = 0): number {
  const t = TABLES;
  let c = ~crc >>> 0;
  let i = 0;
  const n = bytes.length;
  for (; i + 8 <= n; i += 8) {
    const a = (c ^ (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24))) >>> 0;
    c =
      t[1792 + (a & 0xff)]! ^
      t[1536 + ((a >>> 8) & 0xff)]! ^
      t[1280 + ((a >>> 16) & 0xff)]! ^
      t[1024 + (a >>> 24)]! ^
      t[768 + bytes[i + 4]!]! ^
      t[512 + bytes[i + 5]!]! ^
      t[256 + bytes[i + 6]!]! ^
      t[bytes[i + 7]!]!;
  }
  for (; i < n; i++) c = t[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** The manifest's spelling: 8 lowercase hex digits. */
export function crc32Hex(crc: number): string {
  return crc.toString(16).padStart(8, "0");
}
