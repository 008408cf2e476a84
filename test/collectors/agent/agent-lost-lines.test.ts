// A logcat that lost agent lines (logd's rate limit, a full buffer): the agent's `count` records let the reader
// say how many of each type went missing and which analyses that touches, in the warnings `jankbook info`
// prints and the workspace's run overview shows.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { AGENT_TAG } from "../../../collectors/agent/protocol";
import { AgentLineReader } from "../../../collectors/sources/agent-lines";
import { androidOf, fakeAndroid } from "./fake-android";
import type { FakeObj } from "./fake-java";
import { loadAgent } from "./load-agent";
import { driveSession } from "./scenario";

const run = promisify(execFile);

async function session() {
  const vm = fakeAndroid(33);
  await loadAgent(vm);
  driveSession(vm);
  const a = androidOf(vm);
  // Enough frames for several count records: the title re-recorded, the DecorView replayed, each frame.
  const decor = a.roots[0]!.fields.mView as FakeObj;
  const title = (decor.fields.children as FakeObj[])[0]!;
  for (let i = 0; i < 300; i++) {
    vm.invoke(title, "invalidate");
    a.frame();
  }
  return vm.log.filter((l) => l.tag === AGENT_TAG).map((l) => l.message);
}

const typeOf = (line: string) => line.split(" ")[2]!;
const seqOf = (line: string) => Number(line.split(" ")[1]);

describe("lost agent lines", () => {
  it("are counted per type from the agent's count records and named with the analyses they touch", async () => {
    const lines = await session();
    const counts = lines.filter((l) => typeOf(l) === "count");
    expect(counts.length).toBeGreaterThanOrEqual(2);
    const lastCount = seqOf(counts.at(-1)!);
    // Drop 5 op lines, 2 task lines and 1 begin line before the last count record, and 3 lines after it.
    const drop = new Set<number>();
    const pick = (type: string, n: number) => {
      let k = 0;
      for (const l of lines)
        if (k < n && typeOf(l) === type && seqOf(l) < lastCount) (drop.add(seqOf(l)), k++);
    };
    pick("op", 5);
    pick("task", 2);
    pick("begin", 1);
    for (const l of lines.filter((x) => seqOf(x) > lastCount && typeOf(x) !== "count").slice(0, 3))
      drop.add(seqOf(l));
    const kept = lines.filter((l) => !drop.has(seqOf(l)));

    const r = new AgentLineReader();
    kept.forEach((m, i) => r.feed(m, 4242, `logcat line ${i + 1}`));
    const d = r.finish();
    expect(d.lostLines).toEqual({ op: 5, task: 2, begin: 1, unknown: 3 });
    const warning = d.warnings.find((w) => w.includes("lines lost"))!;
    expect(warning).toContain(`11 of ${seqOf(lines.at(-1)!) + 1} lines lost`);
    expect(warning).toContain("5 op lines: render_ops (DRAW: overdraw per frame");
    expect(warning).toContain("2 task lines: tasks (DiagDroid: queuing time");
    expect(warning).toContain("3 printed after the agent's last count record, of unknown type");
    expect(d.partial).toBe(true);

    // The same log imported and shown by `jankbook info`.
    const dir = await mkdtemp(join(tmpdir(), "jb-lost-"));
    try {
      const log = kept
        .map((m, i) => `  ${(3600 + i / 1000).toFixed(3)}  4242  4242 I ${AGENT_TAG}: ${m}`)
        .join("\n");
      await writeFile(join(dir, "logcat.txt"), log + "\n");
      const env = { ...process.env, JANKBOOK_FROM_SOURCES: "1" };
      // An incomplete import exits 2, the bundle written all the same.
      const imported = await run(
        process.execPath,
        ["cli/jankbook.js", "import", join(dir, "logcat.txt"), "--out", join(dir, "run")],
        { env },
      ).catch((e: { code?: number }) => e);
      expect((imported as { code?: number }).code).toBe(2);
      const bundle = join(dir, "run", "import-logcat");
      const info = await run(process.execPath, ["cli/jankbook.js", "info", bundle], { env });
      expect(info.stdout).toContain("[incomplete]");
      const manifest = JSON.parse(await readFile(join(bundle, "manifest.json"), "utf8"));
      expect(manifest.lost_lines).toEqual({ op: 5, task: 2, begin: 1, unknown: 3 });
      expect(info.stdout).toContain(
        "  lost agent lines: task 2 (tasks), begin 1 (tasks), op 5 (render_ops), unknown 3\n",
      );
      expect(info.stdout).toMatch(
        /warning: agent pid 4242: 11 of \d+ lines lost .*5 op lines: render_ops \(DRAW/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("a `same` line repeats each view's last draw row; a view whose row was lost is left out and said so", () => {
    const r = new AgentLineReader();
    const op = "jb2 0 op 1 5 - android.view.View draw 1000 200 UHB 10 20 30 40 visible - - 77 10 20 |";
    [op, "jb2 1 same 2 5000 5 6 |"].forEach((m, i) => r.feed(m, 1, `line ${i + 1}`));
    const d = r.finish();
    expect(
      d.renderOps.map((o) => [o.frame, o.view_id, o.start, o.dur, o.replayed, o.left, o.window_id]),
    ).toEqual([
      [1, 5, 1000n, 200n, false, 10, 77],
      [2, 5, 5000n, 0n, true, 10, 77],
    ]);
    expect(d.warnings).toEqual([
      "agent: 1 replayed views left out of render_ops: their last draw line was lost, so their rectangle is unknown",
    ]);
    expect(d.partial).toBe(true);
  });
});
