// `jankbook info` on every real trace in the fixtures (test/notebooks/real-traces-support.ts lists them): the
// device a Perfetto trace's SystemInfo names, read here straight from the build fingerprint in the file's bytes
// (brand/product/device:release/...), and the app where the trace names one; where it does not, the line says so
// and what would have named it, instead of "unknown on ? (API ?)".
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Manifest } from "../../bundle/manifest";
import { importFiles } from "../../cli/commands/import";
import { runHeadline } from "../../cli/commands/info";
import { ROOT } from "../support/cli";
import { REAL_TRACES } from "../notebooks/real-traces-support";

const readManifest = (dir: string) =>
  JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest;

describe("jankbook info on the real traces", () => {
  it.each(Object.keys(REAL_TRACES))("%s: device and app named, or said to be missing", async (f) => {
    const bytes = readFileSync(join(ROOT, "test/fixtures", f));
    const fingerprint = /([a-z]+)\/([\w-]+)\/([\w-]+):(\w+)\/[^"]*?:(user|userdebug|eng)\//.exec(
      bytes.toString("latin1"),
    );
    const [run] = await importFiles(
      [join(ROOT, "test/fixtures", f)],
      mkdtempSync(join(tmpdir(), "jb-info-")),
    );
    const line = runHeadline(readManifest(run!.dir));
    expect(line).not.toMatch(/unknown|\?/);
    if (fingerprint) {
      const [, brand, , device, release] = fingerprint;
      expect(line).toMatch(new RegExp(` on ${device} \\(API \\d+\\), ${brand}, Android ${release}$`));
    } else
      expect(line).toMatch(
        / on a device the trace does not name \((no SystemInfo packet|systrace text records none)\)$/,
      );
    // none of these traces names an app: no FrameTimeline, no packages_list, no named process with slices
    expect(line).toMatch(/ app not named \(/);
  });

  it("names the app and its version where the trace does (Perfetto's jank-CUJ trace: FrameTimeline, packages_list)", async () => {
    const m = readManifest(join(ROOT, "notebooks/examples/runs/perfetto-jank-cuj"));
    expect(runHeadline(m)).toBe(
      "perfetto-jank-cuj  com.android.systemui 1 on a device the trace does not name (no SystemInfo packet)",
    );
  });
});
