// The device side of adb's file sync service (`sync:`; AOSP packages/modules/adb SYNC.TXT), enough for
// `adb pull`: STAT and RECV answered from a file lookup, QUIT closes. Requests are id(4) len(u32) path;
// RECV answers DATA chunks of at most 64 KiB, then DONE, or FAIL with a message.
import type { ShellStream } from "./adb-transport";

/** The phone's files: their bytes now, or null when there is no such file. */
export type SyncFiles = (path: string) => Uint8Array | null;

const DATA_MAX = 64 * 1024;

function word(id: string, n: number): Buffer {
  const b = Buffer.alloc(8);
  b.write(id, 0, "latin1");
  b.writeUInt32LE(n >>> 0, 4);
  return b;
}

/** Serves one sync stream; returns the function that takes the host's bytes. */
export function serveSync(stream: ShellStream, files: SyncFiles): (data: Buffer) => void {
  let buffer = Buffer.alloc(0);
  const answer = (id: string, path: string) => {
    const bytes = files(path);
    if (id === "STAT") {
      const b = Buffer.alloc(16);
      b.write("STAT", 0, "latin1");
      if (bytes) {
        b.writeUInt32LE(0o100644, 4); // regular file, rw-r--r--
        b.writeUInt32LE(bytes.length, 8);
        b.writeUInt32LE(Math.floor(Date.now() / 1000), 12);
      }
      return void stream.write(b).catch(() => {});
    }
    if (id === "RECV") {
      if (!bytes) return fail(`${path}: open failed: No such file or directory`);
      const parts: Buffer[] = [];
      for (let off = 0; off < bytes.length; off += DATA_MAX) {
        const piece = bytes.subarray(off, off + DATA_MAX);
        parts.push(word("DATA", piece.length), Buffer.from(piece));
      }
      parts.push(word("DONE", 0));
      return void stream.write(Buffer.concat(parts)).catch(() => {});
    }
    fail(`${id}: not supported by the simulated phone`);
  };
  const fail = (message: string) => {
    const text = Buffer.from(message, "utf8");
    void stream.write(Buffer.concat([word("FAIL", text.length), text])).catch(() => {});
  };
  return (data) => {
    buffer = Buffer.concat([buffer, data]);
    while (buffer.length >= 8) {
      const id = buffer.toString("latin1", 0, 4);
      const len = buffer.readUInt32LE(4);
      if (id === "QUIT") return stream.end();
      if (buffer.length < 8 + len) return;
      const path = buffer.toString("utf8", 8, 8 + len);
      buffer = buffer.subarray(8 + len);
      answer(id, path);
    }
  };
}
