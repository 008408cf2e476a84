// Collection.run tells a failed command from a lost device: offline in adb's list is a disconnect; three
// timeouts in a row and a probe that also times out is a frozen device (adb still lists it); a slow device
// that answers the probe is kept. Once lost, later commands are skipped without touching the device.
import { describe, expect, it } from "vitest";
import { Collection } from "../../../collectors/adb/collection";
import { CommandTimeout, type DeviceShell } from "../../../collectors/adb/shell";

/** A shell whose commands answer, fail or time out as `answer` says; it records what it was asked. */
function fakeShell(answer: (cmd: string) => string | Error, online = () => true) {
  const asked: string[] = [];
  const shell = {
    serial: "emulator-5554",
    async run(cmd: string, ms = 1000) {
      asked.push(cmd);
      const a = answer(cmd);
      if (a === TIMEOUT) throw new CommandTimeout(cmd, ms);
      if (a instanceof Error) throw a;
      return a;
    },
    async online() {
      return online();
    },
  } as unknown as DeviceShell;
  return { shell, asked };
}
const TIMEOUT = new Error("timeout");

describe("Collection.run", () => {
  it("a command that fails on a device still there: a warning, the run goes on", async () => {
    const { shell } = fakeShell((cmd) => (cmd === "bad" ? new Error("closed") : "ok"));
    const c = new Collection(shell);
    expect(await c.run("bad", "the bad one")).toBeNull();
    expect(await c.run("good", "the good one")).toBe("ok");
    expect(c.lost).toBeNull();
    expect(c.warnings).toEqual(['the bad one: "bad" failed: closed']);
    expect(c.complete).toBe(false);
  });

  it("the device is no longer listed: disconnected, and every later command is skipped", async () => {
    let listed = true;
    const { shell, asked } = fakeShell(
      () => new Error("device offline"),
      () => listed,
    );
    const c = new Collection(shell);
    listed = false;
    expect(await c.run("dumpsys battery", "dumpsys battery")).toBeNull();
    expect(c.lost).toBe("disconnected");
    expect(c.warnings).toEqual([
      expect.stringMatching(
        /^device emulator-5554 disconnected at \d+\.\d s \(during dumpsys battery\); kept what was collected before$/,
      ),
    ]);
    expect(await c.run("getprop", "getprop")).toBeNull();
    expect(asked).toEqual(["dumpsys battery"]);
  });

  it("three timeouts in a row and a probe that times out: unresponsive; then nothing more is sent", async () => {
    const { shell, asked } = fakeShell(() => TIMEOUT);
    const c = new Collection(shell);
    for (let i = 1; i <= 3; i++) expect(await c.run(`poll ${i}`, `framestats poll ${i}`)).toBeNull();
    expect(c.lost).toBe("unresponsive");
    expect(asked).toEqual(["poll 1", "poll 2", "poll 3", "echo jankbook-probe"]);
    expect(c.warnings.slice(0, 2)).toEqual([
      'framestats poll 1: "poll 1" did not answer within 1.0 s; skipped',
      'framestats poll 2: "poll 2" did not answer within 1.0 s; skipped',
    ]);
    expect(c.warnings[2]).toMatch(
      /^device emulator-5554 stopped answering at \d+\.\d s \(3 commands in a row timed out, the last during framestats poll 3, and so did a probe; adb still lists it\); kept what was collected before$/,
    );
    expect(await c.run("poll 4", "framestats poll 4")).toBeNull();
    expect(asked.length).toBe(4);
  });

  it("a slow device that answers the probe is kept, and an answer resets the count", async () => {
    let slow = true;
    const { shell, asked } = fakeShell((cmd) =>
      cmd.startsWith("echo") ? "jankbook-probe" : slow ? TIMEOUT : "ok",
    );
    const c = new Collection(shell);
    for (let i = 1; i <= 3; i++) await c.run(`poll ${i}`, `poll ${i}`);
    expect(c.lost).toBeNull();
    expect(asked.at(-1)).toBe("echo jankbook-probe");
    slow = false;
    expect(await c.run("poll 4", "poll 4")).toBe("ok");
    slow = true;
    await c.run("poll 5", "poll 5");
    await c.run("poll 6", "poll 6");
    expect(asked.filter((x) => x.startsWith("echo")).length).toBe(1); // two in a row since the answer: no probe yet
    expect(c.lost).toBeNull();
  });
});
