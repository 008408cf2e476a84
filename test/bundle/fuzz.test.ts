// Fuzzing the bundle reader: mutants of a real sample run's manifest and table files. A manifest
// either parses into well-typed values or is refused with a BundleError naming the field; a changed table file
// never loads silently (its checksum, its row count or its framing says so), on both load paths.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BundleError, parseManifest, SAFE_FILE } from "../../bundle/manifest";
import { prepareBundle } from "../../bundle/prepare-bundle";
import { readBundle, type BundleSource } from "../../bundle/read-bundle";
import { SCHEMA_VERSION } from "../../bundle/schema";
import { mutantOf } from "../support/mutant-of";
import { MUTATION_KINDS, mutate, rng } from "../support/mutants";
import { crc32, crc32Hex } from "../../bundle/crc32";

const SAMPLE = "workspace/public/samples/k9-galaxy-s21-android12-r1";
const files = new Map(readdirSync(SAMPLE).map((f) => [f, new Uint8Array(readFileSync(join(SAMPLE, f)))]));
// The sample predates checksums: give its manifest theirs, as writeBundleFolder now writes them.
const manifest = JSON.parse(new TextDecoder().decode(files.get("manifest.json")!));
for (const entry of Object.values(manifest.tables) as { file: string; crc32?: string }[])
  entry.crc32 = crc32Hex(crc32(files.get(entry.file)!));
files.set("manifest.json", new TextEncoder().encode(JSON.stringify(manifest, null, 2)));
const TABLE_FILES = Object.values(manifest.tables).map((e) => (e as { file: string }).file);

function source(replace: Map<string, Uint8Array>): BundleSource {
  return {
    label: "fuzz",
    read: async (f) => {
      const b = replace.get(f) ?? files.get(f);
      if (!b) throw new Error("no such file");
      return b;
    },
  };
}

describe("fuzz: the bundle reader", () => {
  it("manifest mutants parse into well-typed values or are refused naming what is wrong", () => {
    const text = files.get("manifest.json")!;
    fc.assert(
      fc.property(fc.constantFrom(...MUTATION_KINDS), fc.integer(), (kind, seed) => {
        const m = mutate(text, kind, rng(seed));
        let parsed: ReturnType<typeof parseManifest>;
        try {
          parsed = parseManifest(new TextDecoder().decode(m.bytes), "manifest.json");
        } catch (e) {
          expect(e).toBeInstanceOf(BundleError);
          expect((e as Error).message).toMatch(/^manifest\.json: ./);
          return;
        }
        // Independent check of what came back: the types the rest of jankbook relies on.
        expect(typeof parsed.complete).toBe("boolean");
        expect(Number.isInteger(parsed.schema_version)).toBe(true);
        expect(parsed.schema_version).toBeGreaterThanOrEqual(1);
        expect(parsed.schema_version).toBeLessThanOrEqual(SCHEMA_VERSION);
        expect(typeof parsed.context.app).toBe("string");
        const api = parsed.context.api_level;
        expect(api === undefined || api === null || Number.isInteger(api)).toBe(true);
        expect(parsed.warnings.every((w) => typeof w === "string")).toBe(true);
        for (const e of Object.values(parsed.tables)) {
          expect(SAFE_FILE.test(e.file) && !e.file.includes("..")).toBe(true);
          expect(Number.isInteger(e.rows) && e.rows >= 0).toBe(true);
        }
      }),
      { numRuns: 400, seed: 15 },
    );
  });

  it("a changed table file is always reported, on the decoding and the streaming path, in time", async () => {
    await fc.assert(
      fc.asyncProperty(
        mutantOf(TABLE_FILES, (f) => files.get(f)!),
        async (m) => {
          const file = m.fixture;
          const original = files.get(file)!;
          const same = m.bytes.length === original.length && m.bytes.every((b, i) => b === original[i]);
          const replaced = new Map([[file, m.bytes]]);
          const t0 = performance.now();
          const decoded = await readBundle(source(replaced));
          const prepared = await prepareBundle(source(replaced));
          const done = await Promise.all(prepared.tables.map((t) => t.done));
          expect(performance.now() - t0).toBeLessThan(5_000);
          const streamedErrors = done.flatMap((d) => d.errors);
          if (same) {
            expect(decoded.errors).toEqual([]);
            return;
          }
          expect(decoded.errors.length, `${m.kind} at ${m.at}`).toBeGreaterThan(0);
          expect(streamedErrors.length, `${m.kind} at ${m.at}`).toBeGreaterThan(0);
          for (const e of [...decoded.errors, ...streamedErrors]) expect(e).toBeInstanceOf(BundleError);
        },
      ),
      { numRuns: 40, seed: 15 },
    );
  }, 120_000);
});
