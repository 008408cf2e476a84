// `npm run build:agent` (also run by `npm ci`/`npm install` through `prepare`): bundles the Frida agent and
// frida-java-bridge into one script, collectors/agent/dist/agent.js. Frida 17 has no global `Java` for scripts
// loaded through its API, so the bridge must be inside the script (frida.re/docs/bridges).
import { build, type BuildOptions, type Plugin } from "esbuild";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
export const AGENT_ENTRY = join(here, "agent.ts");
export const AGENT_OUT = join(here, "dist", "agent.js");

/** The options of the shipped bundle; tests build the same with only the bridge module swapped. */
export function agentBuildOptions(): BuildOptions {
  return {
    entryPoints: [AGENT_ENTRY],
    bundle: true,
    format: "iife",
    // Frida 17's GumJS runs QuickJS or V8; ES2020 is within both.
    target: "es2020",
    platform: "neutral",
    mainFields: ["module", "main"],
    logLevel: "warning",
  };
}

/** Resolves `frida-java-bridge` to `globalThis[name]`: the test variant that runs in Node with a fake bridge. */
export function bridgeFromGlobal(name: string): Plugin {
  return {
    name: "bridge-from-global",
    setup(b) {
      b.onResolve({ filter: /^frida-java-bridge$/ }, () => ({
        path: "frida-java-bridge",
        namespace: "fake-bridge",
      }));
      b.onLoad({ filter: /.*/, namespace: "fake-bridge" }, () => ({
        contents: `export default globalThis[${JSON.stringify(name)}];`,
        loader: "js",
      }));
    },
  };
}

export async function buildAgent(outfile = AGENT_OUT): Promise<void> {
  await build({ ...agentBuildOptions(), outfile });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildAgent().then(
    () => process.stderr.write(`built ${AGENT_OUT}\n`),
    (e: Error) => {
      process.stderr.write(`build:agent failed: ${e.message}\n`);
      process.exit(1);
    },
  );
}
