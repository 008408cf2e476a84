// Importer for Android method trace files (.trace from Debug.startMethodTracing, `am profile`, Android
// Studio): methods and threads from the key, method_events as recorded and the calls built from them
// (AndroScope TraceBridge, §V).
import type { TextImport } from "./framestats";
import { methodTraceTables } from "../method-trace-tables";
import { readMethodTrace } from "../sources/method-trace";
import { traceHeapSamples } from "../sources/method-trace-samples";

const MAGIC = [0x53, 0x4c, 0x4f, 0x57]; // "SLOW": ART streaming traces begin with the data header

/** True for the dmtrace layout (key text first) and ART's streaming layout (data header first). */
export function detectMethodTrace(bytes: Uint8Array): boolean {
  const starts = (s: number[]) => s.every((b, i) => bytes[i] === b);
  return starts([..."*version\n"].map((c) => c.charCodeAt(0))) || starts(MAGIC);
}

export function importMethodTrace(bytes: Uint8Array, file: string, runId: string): TextImport {
  const t = readMethodTrace(bytes, { runId });
  const { tables, note } = methodTraceTables(t, runId);
  const warnings = t.warnings.map((w) => `${file}: ${w}`);
  // The repairs are expected in real traces (tracing starts and stops inside calls): say how many, once.
  if (note) warnings.push(`${file}: ${note}`);
  const vm = t.properties.vm ? `${t.properties.vm} ` : "";
  const heap = traceHeapSamples(t); // AndroScope extended records with heap values
  return {
    context: { app: "unknown", scenario: `import ${file} (${vm}method trace, clock ${t.clock})` },
    tables: { ...tables, ...(heap ? { heap_samples: heap } : {}) },
    warnings,
    complete: !t.partial,
    source: { kind: "method-trace", origin: file },
  };
}
