// Every event an element in workspace/components dispatches is declared in HTMLElementEventMap with its detail
// type, so `addEventListener("remove-run", (e) => e.detail)` type-checks without a cast. The scan finds a name
// dispatched but not declared; the listeners below fail `npm run typecheck` when a detail type drifts.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { PlotFields } from "../../../charts/plot-edit";
import type { Side } from "../../../workspace/app/url-state";
import type { InsertKind } from "../../../workspace/components/jb-insert-bar";
import type { TimelineBox } from "../../../cells/common/timeline-lod";
import type { TocHeading } from "../../../workspace/components/jb-toc";

const DIR = "workspace/components";
/** The DOM's own events, typed by lib.dom already: an element may dispatch them as plain Events. */
const DOM_EVENTS = new Set(["close", "input", "change"]);

/** Event names dispatched with a literal name: `new CustomEvent("x"`, `new CustomEvent<T>("x"`, `new Event("x"`. */
export function dispatchedNames(text: string): string[] {
  return [...text.matchAll(/new (?:Custom)?Event(?:<[^>]*>)?\(\s*"([^"]+)"/g)].map((m) => m[1]!);
}

/** Names declared in `interface HTMLElementEventMap { ... }`, and in the interfaces it extends in that file. */
export function declaredNames(text: string): string[] {
  const body = (name: string) => {
    const m = new RegExp(`interface ${name}(?: extends ([\\w, ]+))? \\{`).exec(text);
    if (!m) return undefined;
    // the body up to its matching brace (a detail type may hold braces of its own)
    let depth = 1;
    let end = m.index + m[0].length;
    for (; end < text.length && depth > 0; end++) depth += text[end] === "{" ? 1 : text[end] === "}" ? -1 : 0;
    const inner = text.slice(m.index + m[0].length, end - 1);
    return { extends: m[1]?.split(",").map((s) => s.trim()) ?? [], body: inner };
  };
  const out: string[] = [];
  const visit = (name: string) => {
    const found = body(name);
    if (!found) return;
    // keys at the body's top level only: a line's indentation is one level in
    for (const k of found.body.matchAll(/^ {2,4}"?([\w-]+)"?\s*:/gm)) out.push(k[1]!);
    found.extends.forEach(visit);
  };
  visit("HTMLElementEventMap");
  return out;
}

describe("typed events", () => {
  it("finds dispatched and declared names (the scan itself, on a known text)", () => {
    const text = `this.dispatchEvent(new CustomEvent<InsertKind>(\n"insert", {});\nnew Event("close");
      interface Extra {\n  "run-cell": CustomEvent<{ a: 1 }>;\n}\ndeclare global {\n  interface HTMLElementEventMap extends Extra {\n    mark: CustomEvent<{ run: string }>;\n    insert: CustomEvent<InsertKind>;\n  }\n}`;
    expect(dispatchedNames(text)).toEqual(["insert", "close"]);
    expect(declaredNames(text)).toEqual(["mark", "insert", "run-cell"]);
  });

  it("every event an element dispatches is declared in HTMLElementEventMap", () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith(".ts"));
    const texts = files.map((f) => readFileSync(join(DIR, f), "utf8"));
    const declared = new Set(texts.flatMap(declaredNames));
    const undeclared = files.flatMap((f, i) =>
      dispatchedNames(texts[i]!)
        .filter((n) => !declared.has(n) && !DOM_EVENTS.has(n))
        .map((n) => `${f}: "${n}"`),
    );
    expect(undeclared).toEqual([]);
    // the ones the app and the notebook listen for are there (the scan is not vacuous)
    for (const name of [
      "remove-run",
      "mark-run",
      "open-compare",
      "headings",
      "insert",
      "plot-edit",
      "box-select",
    ])
      expect(declared).toContain(name);
  });

  it("listeners read each detail typed, without a cast", () => {
    const el = {} as HTMLElement;
    const on = <K extends keyof HTMLElementEventMap>(type: K, f: (e: HTMLElementEventMap[K]) => void) =>
      void [el, type, f];
    on("remove-run", (e) => expectTypeOf(e.detail).toEqualTypeOf<string>());
    on("mark-run", (e) => expectTypeOf(e.detail).toEqualTypeOf<{ run: string; side: Side | null }>());
    on("open-compare", (e) => expectTypeOf(e.detail).toEqualTypeOf<undefined>());
    on("headings", (e) => expectTypeOf(e.detail).toEqualTypeOf<TocHeading[]>());
    on("insert", (e) => expectTypeOf(e.detail).toEqualTypeOf<InsertKind>());
    on("plot-edit", (e) => expectTypeOf(e.detail).toEqualTypeOf<PlotFields>());
    on("box-select", (e) => expectTypeOf(e.detail).toEqualTypeOf<TimelineBox | null>());
    on("code-change", (e) => expectTypeOf(e.detail).toEqualTypeOf<string>());
    on("run-cell", (e) => expectTypeOf(e.detail).toEqualTypeOf<string>());
    on("editor-blur", (e) => expectTypeOf(e.detail).toEqualTypeOf<string>());
    on("editor-escape", (e) => expectTypeOf(e.detail).toEqualTypeOf<undefined>());
  });
});
