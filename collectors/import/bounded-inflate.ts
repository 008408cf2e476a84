// Decompression with a ceiling: a few hundred KB of zlib can inflate to gigabytes (a `.ctrace` of `TRACE:\n` and
// 200 MB of newlines is 200 KB), and past V8's string and array limits the process aborts instead of failing.
// Every inflate of imported data goes through here and is refused by size, with the limit in the message.
import { constants, inflateSync } from "node:zlib";

/** 100 MiB: several times a full atrace buffer (8 CPUs x 8 MB of ftrace text), below V8's 2^27-element arrays
 * that splitting that many lines would need. */
export const MAX_INFLATED_BYTES = 100 * 1024 * 1024;

export class InflateLimitError extends Error {
  constructor(limit: number) {
    super(
      `inflates to more than ${limit / 1024 / 1024} MiB, more than any trace this importer reads (a zlib bomb, or a trace to split): refused`,
    );
    this.name = "InflateLimitError";
  }
}

function tooLarge(e: unknown): boolean {
  return (e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE" || e instanceof RangeError;
}

/** zlib inflate of the whole stream, refused past `limit` bytes of output. */
export function inflateBounded(bytes: Uint8Array, limit = MAX_INFLATED_BYTES): Uint8Array {
  try {
    return new Uint8Array(inflateSync(bytes, { maxOutputLength: limit }));
  } catch (e) {
    if (tooLarge(e)) throw new InflateLimitError(limit);
    throw e;
  }
}

/**
 * Like inflateBounded, for a stream that may be cut: node:zlib throws "unexpected end of file" (Z_BUF_ERROR) on a
 * stream without its end marker, where a sync flush returns what the bytes present inflate to. `used` is the input
 * the stream took (short of the bytes when something follows its end).
 */
export function inflateKeepBounded(
  b: Uint8Array,
  limit = MAX_INFLATED_BYTES,
): { out: Uint8Array; ended: boolean; used: number } {
  try {
    const r = inflateSync(b, { info: true, maxOutputLength: limit }) as unknown as {
      buffer: Buffer;
      engine: { bytesWritten: number };
    };
    return { out: r.buffer, ended: true, used: r.engine.bytesWritten };
  } catch (e) {
    if (tooLarge(e)) throw new InflateLimitError(limit);
    if ((e as { code?: string }).code !== "Z_BUF_ERROR") throw e;
    try {
      return {
        out: inflateSync(b, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: limit }),
        ended: false,
        used: b.length,
      };
    } catch (e2) {
      if (tooLarge(e2)) throw new InflateLimitError(limit);
      throw e2;
    }
  }
}
