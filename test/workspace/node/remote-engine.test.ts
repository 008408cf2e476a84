// The engine across the worker boundary (remote-engine.ts): results come back as the engine gave them, and a result
// over the runner's caps fails its query with a message naming the cap and the option that raises it.
import { MessageChannel } from "node:worker_threads";
import { tableFromArrays, type Table } from "apache-arrow";
import { afterEach, describe, expect, it } from "vitest";
import type { SqlEngine } from "../../../workspace/db/engine";
import {
  DEFAULT_RESULT_CAPS,
  overResultCaps,
  remoteEngine,
  serveEngine,
} from "../../../workspace/node/remote-engine";

/** An engine whose every query answers `result` */
const answering = (result: () => Table): SqlEngine => ({
  query: async () => result(),
  insertArrowStream: async () => "created",
  interrupt: async () => {},
  close: async () => {},
});

describe("serveEngine and remoteEngine", () => {
  const channels: MessageChannel[] = [];
  afterEach(() => {
    for (const c of channels.splice(0)) {
      c.port1.close();
      c.port2.close();
    }
  });
  const connect = (engine: SqlEngine, caps = DEFAULT_RESULT_CAPS) => {
    const channel = new MessageChannel();
    channels.push(channel);
    serveEngine(channel.port1, engine, caps);
    return remoteEngine(channel.port2);
  };

  it("hands back the rows the engine gave", async () => {
    const remote = connect(answering(() => tableFromArrays({ x: Int32Array.from([1, 2, 3]) })));
    const t = await remote.query("SELECT x");
    expect(Array.from(t.getChild("x")!.toArray())).toEqual([1, 2, 3]);
  });

  it("fails a result over the row cap, and one over the byte cap, naming each", async () => {
    const table = () => tableFromArrays({ x: Float64Array.from({ length: 1000 }, (_, i) => i) });
    await expect(connect(answering(table), { maxRows: 999, maxBytes: 1 << 30 }).query("q")).rejects.toThrow(
      "the result has 1,000 rows, over the cap of 999 (--max-rows): aggregate in SQL, or raise the cap",
    );
    // 1,000 doubles are 8,000 bytes of body, plus the schema and framing
    await expect(connect(answering(table), { maxRows: 1000, maxBytes: 4096 }).query("q")).rejects.toThrow(
      /^the result is 0\.0079 MB of Arrow, over the cap of 0\.0039 MB \(--max-result-mb\)/,
    );
    expect(await connect(answering(table), { maxRows: 1000, maxBytes: 9000 }).query("q")).toHaveProperty(
      "numRows",
      1000,
    );
  });

  it("the default caps: 50M rows, 1 GiB", () => {
    expect(overResultCaps(50_000_000, 1 << 30, DEFAULT_RESULT_CAPS)).toBeNull();
    expect(overResultCaps(50_000_001, 0, DEFAULT_RESULT_CAPS)).toContain("over the cap of 50,000,000");
    expect(overResultCaps(1, (1 << 30) + 1, DEFAULT_RESULT_CAPS)).toBe(
      "the result is 1,024 MB of Arrow, over the cap of 1,024 MB (--max-result-mb): aggregate in SQL, or raise the cap",
    );
  });
});
