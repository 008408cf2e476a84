// Node side of publish: DOMPurify on a jsdom window, Plot on linkedom's document (5x faster than jsdom for
// Plot, measured), and Arrow encoding that accepts tables from either apache-arrow instance (ESM, or the CJS
// one DuckDB-WASM's results come from: the dual-package hazard, docs/architecture.md).
import { createRequire } from "node:module";
import createDOMPurify from "dompurify";
import { parseHTML } from "linkedom";
import { Table, tableToIPC } from "apache-arrow";
import type { PublishContext, PublishProvenance } from "../publish/publish";
import { createSanitize, type Sanitize } from "../../charts/sanitize";

const require = createRequire(import.meta.url);

let sanitizer: Sanitize | undefined;

export const nodeSanitize: Sanitize = (html, kind) => {
  // jsdom is loaded on first use: it costs more start-up than anything else a `jankbook run` loads, and a run that
  // writes no HTML and renders no prose never needs it
  if (!sanitizer) {
    const { JSDOM } = require("jsdom") as typeof import("jsdom");
    const window = new JSDOM("").window as unknown as Window & typeof globalThis;
    sanitizer = createSanitize(() => createDOMPurify(window));
  }
  return sanitizer(html, kind);
};

function encodeArrow(table: unknown): Uint8Array {
  if (table instanceof Table) return tableToIPC(table, "file");
  const cjs = require("apache-arrow") as {
    Table: new () => unknown;
    tableToIPC(t: unknown, type: "file"): Uint8Array;
  };
  if (table instanceof cjs.Table) return cjs.tableToIPC(table, "file");
  throw new Error("cannot encode this table as Arrow: it comes from neither apache-arrow instance");
}

export function createNodePublishContext(
  provenance: PublishProvenance,
  options: { embedData?: boolean; headRows?: number } = {},
): PublishContext {
  const { document } = parseHTML("<!doctype html><html><head></head><body></body></html>");
  return {
    document: document as unknown as Document,
    sanitize: nodeSanitize,
    provenance,
    embedData: options.embedData,
    headRows: options.headRows,
    encodeArrow,
  };
}
