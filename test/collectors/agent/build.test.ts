import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { agentBuildOptions } from "../../../collectors/agent/build";
import { agentBundle } from "./load-agent";

describe("build:agent", () => {
  it("bundles frida-java-bridge (Frida 17 scripts have no global Java) and the test variant differs only in it", async () => {
    const shipped = (await build({ ...agentBuildOptions(), write: false })).outputFiles![0]!.text;
    expect(shipped).toMatch(/\/\/ \S*node_modules\/frida-java-bridge\/index\.js\n/);
    expect(shipped).not.toContain("__jankbookFakeJava");
    expect(shipped.length).toBeGreaterThan(300_000);
    const tested = await agentBundle();
    expect(tested).not.toMatch(/node_modules\/frida-java-bridge\//);
    // The agent's own code is the same text in both.
    const agentPart = (s: string) => {
      const from = s.indexOf("// collectors/agent/protocol.ts");
      const to = s.indexOf("/*! Bundled license information:");
      return s.slice(from, to < 0 ? undefined : to);
    };
    expect(agentPart(tested)).toBe(agentPart(shipped));
  });
});
