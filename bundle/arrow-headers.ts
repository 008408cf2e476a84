// Walks an Arrow IPC stream file reading only its message headers (8 bytes + metadata each) and skipping every
// body with a seek: the splitter that `run` loads the file with is fed the headers as they are and zeros for the
// bodies, which it never looks into, so its verdict (cuts, corrupt metadata, schema, row and null counts) is the
// one `run` reaches, for the cost of the headers alone. The body bytes are read only to check a manifest CRC-32.
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { Message } from "apache-arrow";
import { crc32 } from "./crc32";
import { IpcStreamSplitter } from "./ipc-stream-splitter";
import { BundleError } from "./manifest";
import { checksumError, decodeArrowFile } from "./read-bundle";
import { LOAD_CHUNK_BYTES, LOAD_CHUNK_ROWS } from "./table-chunks";
import { validateTable } from "./validate";

const ZEROS = new Uint8Array(8 << 20);

/** Rows the file's record batches declare and what is wrong with it (the splitter's words), headers only. */
export async function walkArrowHeaders(
  path: string,
  file: string,
  table: string,
  crc?: string,
): Promise<{ rows: number; errors: BundleError[] }> {
  const splitter = new IpcStreamSplitter({
    chunkRows: LOAD_CHUNK_ROWS,
    chunkBytes: LOAD_CHUNK_BYTES,
    file,
    table,
  });
  const handle = await open(path).catch((e: Error) => {
    throw new BundleError(file, `table ${table}: cannot read (${e.message})`, table);
  });
  const errors: BundleError[] = [];
  let rows: number;
  try {
    const size = (await handle.stat()).size;
    const read = async (at: number, n: number) => {
      const buf = new Uint8Array(Math.max(0, Math.min(n, size - at)));
      if (buf.length) await handle.read(buf, 0, buf.length, at);
      return buf;
    };
    let at = 0;
    while (at < size) {
      const prefix = await read(at, 8);
      splitter.push(prefix);
      const view = new DataView(prefix.buffer, prefix.byteOffset, prefix.length);
      // not a message prefix (the Arrow file format's magic, a flipped marker, a cut): the splitter decides
      if (prefix.length < 8 || view.getUint32(0, true) !== 0xffffffff) {
        splitter.push(await read(at + 8, 8 << 20));
        if (splitter.finish().whole) return decodeWhole(path, file, table);
        break;
      }
      const metadataLength = view.getInt32(4, true);
      if (metadataLength <= 0 || metadataLength > 16 << 20) break;
      const metadata = await read(at + 8, metadataLength);
      splitter.push(metadata);
      let bodyLength: number;
      try {
        bodyLength = Message.decode(metadata).bodyLength;
      } catch {
        break; // the splitter has named the corrupt metadata
      }
      if (!Number.isSafeInteger(bodyLength) || bodyLength < 0) break;
      const body = Math.min(bodyLength, size - at - 8 - metadataLength);
      for (let left = body; left > 0; left -= ZEROS.length)
        splitter.push(ZEROS.subarray(0, Math.min(left, ZEROS.length)));
      at += 8 + metadataLength + bodyLength;
    }
    const end = splitter.finish();
    if (end.whole) return decodeWhole(path, file, table);
    rows = splitter.rows;
    if (end.error) errors.push(end.error);
  } finally {
    await handle.close();
  }
  if (crc !== undefined && errors.length === 0) {
    let c = 0;
    for await (const piece of createReadStream(path, { highWaterMark: 4 << 20 }))
      c = crc32(piece as Uint8Array, c);
    const bad = checksumError(crc, c, file, table);
    if (bad) errors.push(bad);
  }
  return { rows, errors };
}

/** The Arrow file format, or columns out of the contract's order: decoded, as `run` decodes it. */
async function decodeWhole(path: string, file: string, table: string) {
  const handle = await open(path);
  try {
    const bytes = new Uint8Array(await handle.readFile());
    const { table: decoded, error } = decodeArrowFile(bytes, file, table);
    validateTable(decoded, table, file);
    return { rows: decoded.numRows, errors: error ? [error] : [] };
  } catch (e) {
    return {
      rows: 0,
      errors: [e instanceof BundleError ? e : new BundleError(file, (e as Error).message, table)],
    };
  } finally {
    await handle.close();
  }
}
