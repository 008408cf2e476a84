// The one module that talks to the adb server (through @devicefarmer/adbkit): shell commands with
// timeouts, streamed shells, and a disconnect check.
import { createRequire } from "node:module";
import type { Duplex } from "node:stream";

// adbkit is CommonJS with named exports only: take it through require so tsx and Node agree.
const { Adb } = createRequire(import.meta.url)(
  "@devicefarmer/adbkit",
) as typeof import("@devicefarmer/adbkit");

export type AdbClient = ReturnType<typeof Adb.createClient>;

export class CommandTimeout extends Error {
  constructor(
    readonly command: string,
    readonly ms: number,
  ) {
    super(`"${command}" did not answer within ${(ms / 1000).toFixed(1)} s`);
    this.name = "CommandTimeout";
  }
}

type AdbConnection = Awaited<ReturnType<AdbClient["connection"]>>;
/** Sockets to the adb server that a client has open, so a call that never got an answer can be let go. */
const openConnections = new WeakMap<AdbClient, Set<AdbConnection>>();

export function adbClient(host?: string, port?: number): AdbClient {
  const client = Adb.createClient({ host: host ?? "127.0.0.1", port: port ?? 5037 });
  const open = new Set<AdbConnection>();
  openConnections.set(client, open);
  // A frozen device never answers the adb server, so a call past its deadline keeps its socket open and
  // the process alive; every connection is remembered until it closes, for releaseAdb.
  const connect = client.connection.bind(client);
  client.connection = () =>
    connect().then((conn: AdbConnection) => {
      open.add(conn);
      conn.on("close", () => open.delete(conn));
      return conn;
    });
  // a socket error also fails the call that owns it, which reports it; unhandled here it would crash node
  client.on("error", () => {});
  return client;
}

/** Closes every socket the client still has open (calls that outlived their deadlines); returns how many. */
export function releaseAdb(client: AdbClient): number {
  const open = openConnections.get(client);
  if (!open) return 0;
  const n = open.size;
  // destroyed, not ended: a peer that reads nothing would never see an end, and the socket would stay open
  for (const conn of [...open]) conn.socket.destroy();
  open.clear();
  return n;
}

/** p, or onTimeout()'s error after ms. */
export function withTimeout<T>(
  p: PromiseLike<T>,
  ms: number,
  onTimeout: () => Error,
  cleanup?: () => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup?.();
      reject(onTimeout());
    }, ms);
    Promise.resolve(p).then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

export class DeviceShell {
  constructor(
    readonly client: AdbClient,
    readonly serial: string,
    readonly timeoutMs = 10_000,
  ) {}

  /** Runs a command and returns its whole output; throws CommandTimeout if it takes longer than `ms`. */
  async run(command: string, ms = this.timeoutMs): Promise<string> {
    let stream: Duplex | null = null;
    let late = false;
    const work = (async () => {
      stream = (await this.client.getDevice(this.serial).shell(command)) as Duplex;
      // the device answered after the deadline: nobody reads this stream, close it
      if (late) stream.destroy();
      return await new Promise<string>((resolve, reject) => {
        const chunks: Buffer[] = [];
        stream!.on("data", (c: Buffer) => chunks.push(c));
        stream!.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        stream!.on("error", reject);
        stream!.on("close", () => reject(new Error(`"${command}": stream closed`)));
      });
    })();
    return withTimeout(
      work,
      ms,
      () => new CommandTimeout(command, ms),
      () => {
        late = true;
        (stream as Duplex | null)?.destroy();
      },
    );
  }

  /** Opens a long-running shell (logcat, monkey); the caller reads and ends it. */
  async open(command: string, ms = this.timeoutMs): Promise<Duplex> {
    let late = false;
    const opened = (this.client.getDevice(this.serial).shell(command) as PromiseLike<Duplex>).then((s) => {
      if (late) s.destroy(); // opened after the deadline: the caller has given up on it
      return s;
    });
    return withTimeout(
      opened,
      ms,
      () => new CommandTimeout(command, ms),
      () => (late = true),
    );
  }

  /** true while the adb server lists the device as online */
  async online(ms = 3000): Promise<boolean> {
    try {
      const devices = await withTimeout(
        this.client.listDevices() as PromiseLike<{ id: string; type: string }[]>,
        ms,
        () => new Error("adb server did not answer"),
      );
      return devices.some((d) => d.id === this.serial && d.type === "device");
    } catch {
      return false;
    }
  }

  /** A file's bytes over the sync service; STAT first, since adbkit reports a failed RECV only after 'end'. */
  async pull(path: string, ms = 60_000): Promise<Buffer> {
    let end: (() => void) | null = null;
    const work = (async () => {
      const sync = await this.client.getDevice(this.serial).syncService();
      end = () => sync.end();
      let bytes: Buffer;
      let stat: { size: bigint };
      try {
        stat = await sync.stat(path);
        const transfer = sync.pull(path);
        bytes = await new Promise<Buffer>((resolve, reject) => {
          const chunks: Buffer[] = [];
          transfer.on("data", (c: Buffer) => chunks.push(c));
          transfer.on("end", () => resolve(Buffer.concat(chunks)));
          transfer.on("error", reject);
        });
      } finally {
        sync.end();
      }
      if (BigInt(bytes.length) < stat.size)
        throw new Error(`pull ${path}: got ${bytes.length} of its ${stat.size} bytes`);
      return bytes;
    })();
    return withTimeout(
      work,
      ms,
      () => new CommandTimeout(`pull ${path}`, ms),
      () => (end as (() => void) | null)?.(),
    );
  }
}
