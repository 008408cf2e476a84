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
import { AgentLineReader, decodeRecord, hookWarnings } from "../../../collectors/sources/agent-lines";
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
        enqueued: 3602001000000n,
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
        enqueued: 3602003000000n,
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
      // an agent before 3.0 says nothing of replays and windows
      replayed: null,
      window_id: null,
      window_left: null,
      window_top: null,
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
    // A v2 line without its end marker is a cut line, whatever its record type.
    expect(d.warnings).toContain(
      'recorded-v1.log line 17: future-record line cut (no end marker "|"); skipped',
    );
    expect(d.warnings).toContain(
      "agent pid 8123: 1 of 14 lines lost (sequence numbers 0-13 have holes; logcat buffer overrun or logd rate limit?)",
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
    due: fc.option(ns, { nil: null }),
  }),
  fc.record({
    type: fc.constant("hook" as const),
    hook: text,
    group: text,
    status: fc.constantFrom("ok", "missing", "failed", "off"),
    detail: text,
    found: fc.array(text, { maxLength: 4 }),
  }),
  fc.record({
    type: fc.constant("hello" as const),
    agent_version: text,
    pid: fc.nat(),
    package: text,
    api_level: fc.option(fc.integer({ min: 1, max: 40 }), { nil: null }),
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
        expect(parts[0]).toBe("jb2");
        expect(parts.at(-1)).toBe("|");
        parts.pop();
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

function readLog(name: string) {
  const log = parseLogcat(readFileSync(`test/fixtures/agent/${name}`, "utf8"), name);
  const reader = new AgentLineReader();
  for (const l of log.lines)
    if (l.tag === AGENT_TAG) reader.feed(l.message, l.pid, `${name} line ${l.lineNo}`);
  return reader.finish();
}

describe("agent protocol v2 against recorded lines", () => {
  const d = readLog("recorded-v2.log");

  it("reads hello with the API level and one report per hook", () => {
    expect(d.hello).toEqual({
      type: "hello",
      agent_version: "2.0.0",
      pid: 9001,
      package: "com.example.app",
      api_level: 33,
    });
    expect(d.hooks.map((h) => [h.hook, h.status, h.found.length])).toEqual([
      ["Choreographer.doFrame", "ok", 1],
      ["View.draw", "missing", 1],
      ["GestureDetector.onTouchEvent", "off", 0],
    ]);
  });

  it("turns hook reports into the warnings collect prints, naming what the run loses", () => {
    expect(hookWarnings(d)).toEqual([
      "render ops missing (draw): View.draw not hooked on this device (API 33): no overload draw(android.graphics.Canvas); found draw(android.graphics.Canvas,android.view.ViewGroup,long) (recorded-v2.log line 4)",
      "gesture ui events (tap, scroll, swipe) missing: GestureDetector.onTouchEvent turned off by the agent's config (group gestures) (recorded-v2.log line 5)",
    ]);
  });

  it("schedules a delayed message at its target time, keeps the call time, and leaves out cut and impossible tasks", () => {
    expect(d.tasks.map((t) => [t.task_id, t.scheduled, t.enqueued, t.started, t.ended])).toEqual([
      [2, 5102001000000n, 5102001000000n, 5102002000000n, 5102010000000n],
    ]);
    expect(d.warnings).toEqual([
      'recorded-v2.log line 12: end line cut (no end marker "|"); task 1 left out',
      "agent: task 1 left out (data lost): its end line (recorded-v2.log line 12) was cut",
      "agent: task 3 left out (data lost): it ends (5102, recorded-v2.log line 15) before it starts (5102401000000, recorded-v2.log line 14); a line cut mid-number?",
    ]);
    expect(d.partial).toBe(true);
    expect(d.lines).toBe(14);
    expect(d.uiEvents).toEqual([{ ts: 5102600000000n, kind: "click", target: "list_item", source: "agent" }]);
  });
});

describe("a line cut mid-number", () => {
  const lines = [
    "jb1 0 task 1 thread java.lang.Thread@1 - T 3602001000000 0",
    "jb1 1 begin 1 3602002000000 8140 t",
    "jb1 2 end 1 3602100000000",
  ];
  const read = (ls: string[]) => {
    const r = new AgentLineReader();
    ls.forEach((l, i) => r.feed(l, 1, `x.log line ${i + 1}`));
    return r.finish();
  };

  it("rejects the task whose end line lost digits, naming both lines", () => {
    const d = read([lines[0]!, lines[1]!, "jb1 2 end 1 36021"]);
    expect(d.tasks).toEqual([]);
    expect(d.warnings).toContain(
      "agent: task 1 left out (data lost): it ends (36021, x.log line 3) before it starts (3602002000000, x.log line 2); a line cut mid-number?",
    );
  });

  it("leaves out the task of a v1 line the file ends inside, whether or not digits were lost", () => {
    const r = new AgentLineReader();
    r.feed(lines[0]!, 1, "x.log line 1");
    r.feed(lines[1]!, 1, "x.log line 2");
    r.feed("jb1 2 end 1 3602100", 1, "x.log line 3", true);
    const d = r.finish();
    expect(d.tasks).toEqual([]);
    expect(d.partial).toBe(true);
    expect(d.warnings).toContain("x.log line 3: end line cut (the file ends inside it); task 1 left out");
    // cut after the last digit: a v1 line cannot tell it lost nothing, so it is left out all the same
    const r2 = new AgentLineReader();
    lines.forEach((l, i) => r2.feed(l, 1, `x.log line ${i + 1}`, i === 2));
    expect(r2.finish().tasks).toEqual([]);
  });

  it("keeps a v2 line the file ends inside when its end marker is there (the line is whole)", () => {
    const r = new AgentLineReader();
    const v2 = lines.map((l) => `${l.replace("jb1", "jb2").replace(/ 0$/, " 0 -")} |`);
    v2.forEach((l, i) => r.feed(l, 1, `x.log line ${i + 1}`, i === 2));
    const d = r.finish();
    expect(d.tasks.map((t) => [t.task_id, t.started, t.ended])).toEqual([
      [1, 3602002000000n, 3602100000000n],
    ]);
    expect(d.partial).toBe(false);
  });

  it("never yields a task ending before it starts or starting before it was scheduled, wherever any line is cut", () => {
    fc.assert(
      fc.property(fc.nat(2), fc.nat(60), fc.boolean(), (which, at, v2) => {
        const ls = lines.map((l) => (v2 ? `${l.replace("jb1", "jb2").replace(/ 0$/, " 0 -")} |` : l));
        const cut = ls[which]!.slice(0, Math.min(at, ls[which]!.length - 1));
        const d = read(ls.map((l, i) => (i === which ? cut : l)));
        for (const t of d.tasks) {
          if (t.started !== null) expect(t.started).toBeGreaterThanOrEqual(t.scheduled);
          if (t.ended !== null) expect(t.ended).toBeGreaterThanOrEqual(t.started!);
        }
        // A v2 cut shows whenever the line still starts with its version; shorter, it is no agent line at all.
        if (v2 && cut.length >= 3) expect(d.partial).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("hostile lines", () => {
  const token = fc.oneof(
    fc.constantFrom(
      "jb1",
      "jb2",
      "task",
      "begin",
      "end",
      "hook",
      "op",
      "input",
      "ctx",
      "hello",
      "|",
      "-",
      "%",
    ),
    fc.bigInt({ min: -(1n << 64n), max: 1n << 64n }).map(String),
    fc.nat(5).map(String),
    fc.string({ maxLength: 6 }),
  );
  it("any sequence of lines ends in rows and warnings, never a throw or an impossible task", () => {
    fc.assert(
      fc.property(fc.array(fc.array(token, { maxLength: 12 }), { maxLength: 40 }), (ls) => {
        const r = new AgentLineReader();
        ls.forEach((l, i) => r.feed(l.join(" "), 1, `line ${i + 1}`));
        const d = r.finish();
        for (const t of d.tasks) {
          if (t.started !== null) expect(t.started >= t.scheduled).toBe(true);
          if (t.ended !== null) expect(t.started !== null && t.ended >= t.started).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe("task times joined from lines in any order", () => {
  it("keeps exactly the tasks whose scheduled <= started <= ended, whatever order their lines came in", () => {
    const t = fc.bigInt({ min: 0n, max: 100n });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(t, t, t), { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
        (times, order) => {
          const lines = times.flatMap(([s, b, e], i) => [
            `jb2 ${3 * i} task ${i + 1} thread T - C ${s} 0 - |`,
            `jb2 ${3 * i + 1} begin ${i + 1} ${b} 7 w |`,
            `jb2 ${3 * i + 2} end ${i + 1} ${e} |`,
          ]);
          const shuffled = lines
            .map((l, i) => [order[i]!, i, l] as const)
            .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
          const r = new AgentLineReader();
          shuffled.forEach(([, , l], i) => r.feed(l, 1, `line ${i + 1}`));
          const d = r.finish();
          const kept = times.flatMap(([s, b, e], i) => (s <= b && b <= e ? [i + 1] : []));
          expect(d.tasks.map((x) => x.task_id).sort()).toEqual(kept);
          expect(d.partial).toBe(kept.length < times.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("drop (v2)", () => {
  it("leaves out a task taken back before it ran and ignores a drop after it started, saying so", () => {
    const r = new AgentLineReader();
    [
      "jb2 0 ctx 0 full f |",
      "jb2 1 task 1 handler_thread q 1 A 100 0 150 |",
      "jb2 2 drop 1 120 |",
      "jb2 3 task 2 handler_thread q 1 B 130 0 - |",
      "jb2 4 begin 2 140 7 w |",
      "jb2 5 drop 2 145 |",
      "jb2 6 end 2 160 |",
    ].forEach((l, i) => r.feed(l, 1, `x line ${i + 1}`));
    const d = r.finish();
    expect(d.tasks.map((t) => [t.task_id, t.started, t.ended])).toEqual([[2, 140n, 160n]]);
    expect(d.warnings).toEqual([
      "x line 6: task 2 dropped after it started; the drop is ignored",
      "agent: 1 tasks taken back before they ran (looper messages removed from their queue) are not in tasks",
    ]);
    expect(() => decodeRecord("drop", ["1", "2"], 1)).toThrow(/unknown record type "drop" in protocol v1/);
  });
});

describe("decodeRecord: a bad field is named", () => {
  it.each([
    ["begin", ["1", "x", "3", "main"], 'ts is not an integer ("x")'],
    ["begin", ["1", "2", "3.5", "main"], 'tid is not an integer ("3.5")'],
    ["begin", ["1", "2", "3", "-"], "thread_name missing"],
    ["end", ["1", "9999999999999999999"], 'ts overflows int64 ("9999999999999999999")'],
    ["drop", ["a", "2"], 'task_id is not an integer ("a")'],
    ["input", ["5", "click", "-", "-"], "source missing"],
    ["input", ["", "click", "-", "agent"], 'ts is not an integer ("")'],
  ])("%s %j: %s", (type, fields, message) => {
    expect(() => decodeRecord(type, fields)).toThrow(new Error(message));
  });

  it("reads each field by its place: an input's target may be absent", () => {
    expect(decodeRecord("input", ["5", "click", "-", "agent"])).toEqual({
      type: "input",
      ts: 5n,
      kind: "click",
      target: null,
      source: "agent",
    });
    expect(decodeRecord("begin", ["7", "-3", "12", "Thread%201"])).toEqual({
      type: "begin",
      task_id: 7,
      ts: -3n,
      tid: 12,
      thread_name: "Thread 1",
    });
  });
});
