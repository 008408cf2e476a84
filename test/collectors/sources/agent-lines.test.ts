import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AGENT_TAG,
  encodeRecord,
  field,
  unfield,
  type AgentRecord,
} from "../../../collectors/agent/protocol";
import { AgentLineReader, decodeRecord } from "../../../collectors/sources/agent-lines";
import { parseLogcat } from "../../../collectors/sources/logcat";

function readRecorded() {
  const log = parseLogcat(readFileSync("test/fixtures/agent/recorded-v1.log", "utf8"), "recorded-v1.log");
  const reader = new AgentLineReader();
  for (const l of log.lines)
    if (l.tag === AGENT_TAG) reader.feed(l.message, l.pid, `recorded-v1.log line ${l.lineNo}`);
  return reader.finish();
}

describe("agent protocol v1 against recorded lines", () => {
  const d = readRecorded();

  it("reads tasks with begin/end, queue identity and pool capacity (DiagDroid §5.2)", () => {
    expect(d.hello).toEqual({ type: "hello", agent_version: "1.0.0", pid: 8123, package: "com.example.app" });
    expect(d.tasks).toEqual([
      {
        task_id: 1,
        category: "async_task",
        executor_id: "android.os.AsyncTask$SerialExecutor@9f4ef63",
        pool_capacity: 1,
        task_class: "com.example.app.ListFragment$LoadTask",
        scheduled: 3602001000000n,
        started: 3602002000000n,
        ended: 3602100000000n,
        thread_id: 8140,
        thread_name: "AsyncTask #1",
        context_id: 0,
      },
      {
        task_id: 2,
        category: "thread_pool_executor",
        executor_id: "java.util.concurrent.ThreadPoolExecutor@1c2d",
        pool_capacity: 2,
        task_class: "com.example.app.ImageLoader$1",
        scheduled: 3602003000000n,
        started: null,
        ended: null,
        thread_id: null,
        thread_name: null,
        context_id: 7,
      },
    ]);
    expect(d.contexts.get(0)).toEqual([
      "android.os.AsyncTask.execute(AsyncTask.java:535)",
      "com.example.app.ListFragment.onListItemClick(ListFragment.java:141)",
    ]);
    expect(d.contexts.get(7)).toEqual([]); // referenced, never defined: kept empty and reported
  });

  it("reads render operations with geometry, hierarchy, background and visibility (DRAW §III)", () => {
    expect(d.renderOps).toHaveLength(3); // the repeated seq 7 line counts once
    expect(d.renderOps[1]).toEqual({
      frame: 0,
      view_id: 777,
      parent_id: 12345,
      view_class: "android.widget.GridView",
      op: "draw",
      start: 3602011000000n,
      dur: 2500000n,
      ui_thread: true,
      hw_accelerated: true,
      has_background: true,
      left: 0,
      top: 1320,
      width: 1080,
      height: 1080,
      visibility: "visible",
      xml_id: "gridview",
      layout_file: "res/layout/activity_editor.xml",
    });
    expect(d.renderOps[0]!.parent_id).toBeNull();
    expect(d.renderOps[2]).toMatchObject({
      op: "measure",
      ui_thread: true,
      hw_accelerated: false,
      has_background: false,
      visibility: "invisible",
    });
  });

  it("reads input events, counts duplicates, reports lost and bad lines by line number", () => {
    expect(d.uiEvents).toEqual([
      { ts: 3602000000000n, kind: "click", target: "list_item", source: "agent" },
      { ts: 3602400000000n, kind: "text", target: null, source: "agent" },
    ]);
    expect(d.duplicates).toBe(1);
    expect(d.warnings).toContain("recorded-v1.log line 15: task: expected 7 fields, got 5");
    expect(d.warnings).toContain(
      "recorded-v1.log line 17: agent protocol jb2 is not supported (this collector reads jb1); its lines are skipped",
    );
    expect(d.warnings).toContain(
      "agent pid 8123: 1 of 13 lines lost (sequence numbers 0-12 have holes; logcat buffer overrun?)",
    );
  });
});

const text = fc.string({ minLength: 1, maxLength: 20 });
const ns = fc.bigInt({ min: 0n, max: 1n << 62n });
const record: fc.Arbitrary<AgentRecord> = fc.oneof(
  fc.record({
    type: fc.constant("input" as const),
    ts: ns,
    kind: fc.constantFrom("click", "scroll", "text"),
    target: fc.option(text, { nil: null }),
    source: text,
  }),
  fc.record({
    type: fc.constant("begin" as const),
    task_id: fc.nat(),
    ts: ns,
    tid: fc.nat(),
    thread_name: text,
  }),
  fc.record({
    type: fc.constant("task" as const),
    task_id: fc.nat(),
    category: fc.constantFrom(
      "thread",
      "handler_thread",
      "intent_service",
      "thread_pool_executor",
      "async_task",
    ),
    executor_id: text,
    pool_capacity: fc.option(fc.nat(64), { nil: null }),
    task_class: text,
    scheduled: ns,
    context_id: fc.nat(),
  }),
  fc.record({
    type: fc.constant("ctx" as const),
    context_id: fc.nat(),
    frames: fc.array(text, { maxLength: 5 }),
  }),
);

describe("protocol encoding", () => {
  it("decode(encode(r)) == r for any record, whatever characters its strings hold", () => {
    fc.assert(
      fc.property(fc.nat(), record, (seq, r) => {
        const parts = encodeRecord(seq, r).split(" ");
        expect(parts[0]).toBe("jb1");
        expect(Number(parts[1])).toBe(seq);
        expect(decodeRecord(parts[2]!, parts.slice(3))).toEqual(r);
      }),
      { numRuns: 500 },
    );
  });
  it("field/unfield escape spaces, percent, the null dash and empty strings", () => {
    expect(field("AsyncTask #1")).toBe("AsyncTask%20#1");
    expect(field(null)).toBe("-");
    expect(unfield(field("-"))).toBe("-");
    expect(unfield(field(""))).toBe("");
    expect(unfield(field("100% a|b"))).toBe("100% a|b");
  });
});
