// A device end of the adb transport protocol (packages/modules/adb protocol.txt) over TCP, so the real
// adb server attaches it with `adb connect 127.0.0.1:PORT`. It serves `shell:` streams and, when given a
// file lookup, `sync:` (adb-sync.ts); every other service is refused with CLSE. One WRTE in flight per
// stream: the next waits for the host's OKAY.
import { createServer, type Server, type Socket } from "node:net";
import { serveSync, type SyncFiles } from "./adb-sync";

const A_CNXN = 0x4e584e43;
const A_OPEN = 0x4e45504f;
const A_OKAY = 0x59414b4f;
const A_WRTE = 0x45545257;
const A_CLSE = 0x45534c43;
const A_AUTH = 0x48545541;
const VERSION = 0x01000001;
const MAX_PAYLOAD = 1024 * 1024;
/** What we send per WRTE: well under what adb accepts, so long dumps stream in pieces. */
const CHUNK = 64 * 1024;

function packet(command: number, arg0: number, arg1: number, data: Buffer = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(24);
  let sum = 0;
  for (const b of data) sum = (sum + b) >>> 0;
  header.writeUInt32LE(command, 0);
  header.writeUInt32LE(arg0 >>> 0, 4);
  header.writeUInt32LE(arg1 >>> 0, 8);
  header.writeUInt32LE(data.length, 12);
  header.writeUInt32LE(sum, 16);
  header.writeUInt32LE((command ^ 0xffffffff) >>> 0, 20);
  return Buffer.concat([header, data]);
}

/** One open shell stream, as the service handler sees it. */
export interface ShellStream {
  /** resolves once the host acknowledged the data; rejects if the stream or connection closed */
  write(data: string | Buffer): Promise<void>;
  /** closes the stream (the command "exited") */
  end(): void;
  readonly closed: boolean;
  /** called when the host closes the stream (the client went away) or the connection drops */
  onClose(cb: () => void): void;
}

export type ShellHandler = (command: string, stream: ShellStream) => void;

interface StreamState {
  local: number;
  remote: number;
  closed: boolean;
  waiting: { resolve: () => void; reject: (e: Error) => void } | null;
  queue: Promise<void>;
  closers: (() => void)[];
  /** bytes the host wrote to this stream (sync requests); shell stdin is ignored */
  onData: ((data: Buffer) => void) | null;
}

export interface TransportOptions {
  /** the banner's properties: ro.product.name, ro.product.model, ro.product.device */
  banner: Record<string, string>;
  shell: ShellHandler;
  /** files `adb pull` can read (the `sync:` service); absent: sync is refused like any other service */
  files?: SyncFiles;
}

export class AdbTransportServer {
  private server: Server | null = null;
  private sockets = new Set<Socket>();
  private nextId = 1;
  port = 0;

  constructor(private readonly options: TransportOptions) {}

  listen(port = 0, host = "127.0.0.1"): Promise<number> {
    return new Promise((resolve, reject) => {
      const server = createServer((socket) => this.serve(socket));
      server.once("error", reject);
      server.listen(port, host, () => {
        this.server = server;
        this.port = (server.address() as { port: number }).port;
        resolve(this.port);
      });
    });
  }

  /** Drops every connection and stops listening: to the host the device has vanished. */
  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((r) => server.close(() => r()));
  }

  /** Cuts the live connections but keeps listening (a flaky cable). */
  dropConnections(): void {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  /** The handler's view of a stream: writes wait for the host's OKAY, one WRTE in flight. */
  private streamOf(
    s: StreamState,
    send: (p: Buffer) => void,
    closeStream: (s: StreamState, notifyHost: boolean) => void,
  ): ShellStream {
    return {
      write: (d) => {
        const bytes = typeof d === "string" ? Buffer.from(d, "utf8") : d;
        const run = async () => {
          for (let off = 0; off < bytes.length; off += CHUNK) {
            if (s.closed) throw new Error("stream closed");
            const piece = bytes.subarray(off, off + CHUNK);
            await new Promise<void>((resolve, reject) => {
              s.waiting = { resolve, reject };
              send(packet(A_WRTE, s.local, s.remote, piece));
            });
          }
        };
        s.queue = s.queue.then(run, run);
        return s.queue;
      },
      end: () => {
        void s.queue.catch(() => {}).then(() => closeStream(s, true));
      },
      get closed() {
        return s.closed;
      },
      onClose: (cb) => s.closers.push(cb),
    };
  }

  private serve(socket: Socket) {
    this.sockets.add(socket);
    socket.setNoDelay(true);
    const streams = new Map<number, StreamState>();
    let buffer = Buffer.alloc(0);
    const send = (p: Buffer) => {
      if (!socket.destroyed) socket.write(p);
    };
    const closeStream = (s: StreamState, notifyHost: boolean) => {
      if (s.closed) return;
      s.closed = true;
      streams.delete(s.local);
      s.waiting?.reject(new Error("stream closed"));
      s.waiting = null;
      if (notifyHost) send(packet(A_CLSE, s.local, s.remote));
      for (const cb of s.closers) cb();
    };
    socket.on("close", () => {
      this.sockets.delete(socket);
      for (const s of [...streams.values()]) closeStream(s, false);
    });
    socket.on("error", () => socket.destroy());
    socket.on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length >= 24) {
        const len = buffer.readUInt32LE(12);
        if (buffer.length < 24 + len) break;
        const cmd = buffer.readUInt32LE(0);
        const arg0 = buffer.readUInt32LE(4);
        const arg1 = buffer.readUInt32LE(8);
        const data = buffer.subarray(24, 24 + len);
        buffer = buffer.subarray(24 + len);
        switch (cmd) {
          case A_CNXN: {
            const props = Object.entries(this.options.banner)
              .map(([k, v]) => `${k}=${v}`)
              .join(";");
            send(packet(A_CNXN, VERSION, MAX_PAYLOAD, Buffer.from(`device::${props};features=\0`)));
            break;
          }
          case A_AUTH:
            break; // never asked for: we reply to CNXN directly
          case A_OPEN: {
            const service = data.toString("utf8").replace(/\0+$/, "");
            const m = /^shell(?:,[^:]*)?:(.*)$/s.exec(service);
            const sync = service === "sync:" && this.options.files;
            if (!m && !sync) {
              send(packet(A_CLSE, 0, arg0));
              break;
            }
            const s: StreamState = {
              local: this.nextId++,
              remote: arg0,
              closed: false,
              waiting: null,
              queue: Promise.resolve(),
              closers: [],
              onData: null,
            };
            streams.set(s.local, s);
            send(packet(A_OKAY, s.local, s.remote));
            const stream = this.streamOf(s, send, closeStream);
            try {
              if (m) this.options.shell(m[1]!, stream);
              else s.onData = serveSync(stream, this.options.files!);
            } catch {
              stream.end();
            }
            break;
          }
          case A_OKAY: {
            const s = streams.get(arg1);
            if (s?.waiting) {
              const w = s.waiting;
              s.waiting = null;
              w.resolve();
            }
            break;
          }
          case A_WRTE: {
            const s = streams.get(arg1);
            if (s) {
              send(packet(A_OKAY, s.local, s.remote));
              s.onData?.(Buffer.from(data));
            }
            break;
          }
          case A_CLSE: {
            const s = streams.get(arg1);
            if (s) closeStream(s, true);
            break;
          }
        }
      }
    });
  }
}
