// Fresh names for cells inserted into a notebook (inserting "DUNE: IQR flags" into triage once broke 10
// cells with "outlierFactor is defined more than once"). Every name the new cells define that the notebook
// already uses becomes `name2` (or the next free number), in the defining cell and in every reference to it
// inside the new cells; references to names the new cells do not define are left alone.
//
//   freshenCells(cells, taken) -> {cells, renamed: Map<old, new>}
//
// ts cells are renamed on their own text when it is plain JavaScript (what sucrase gives back unchanged), else on
// the transpiled JavaScript (the type annotations are lost, the code stays valid TypeScript). sql cells rename
// their `id=` and the identifiers inside each `${...}` (sql-template.ts keeps the text between them verbatim).
import { parse, type Node } from "acorn";
import { transform } from "sucrase";
import type { CellKind } from "./format";
import { analyzeCell, freeIdentifiers } from "./references";
import { parseSqlTemplate } from "./sql-template";

export interface NewCell {
  kind: CellKind;
  name?: string;
  source: string;
}

type AnyNode = Node & Record<string, any>;
interface Edit {
  start: number;
  end: number;
  text: string;
}

export function freshenCells(
  list: readonly NewCell[],
  taken: ReadonlySet<string>,
): { cells: NewCell[]; renamed: Map<string, string> } {
  const defined = list.flatMap((c) => analyzeCell({ ...c, id: "" }, new Set()).defines);
  const used = new Set([...taken, ...defined]);
  const renamed = new Map<string, string>();
  for (const name of defined) {
    if (!taken.has(name) || renamed.has(name)) continue;
    let k = 2;
    while (used.has(`${name}${k}`)) k++;
    renamed.set(name, `${name}${k}`);
    used.add(`${name}${k}`);
  }
  if (renamed.size === 0) return { cells: list.slice(), renamed };
  const cells = list.map((c) =>
    c.kind === "sql"
      ? {
          ...c,
          name: c.name === undefined ? undefined : (renamed.get(c.name) ?? c.name),
          source: renameSql(c.source, renamed),
        }
      : { ...c, source: renameJs(c.source, renamed, true) },
  );
  return { cells, renamed };
}

function parseJs(js: string): AnyNode {
  return parse(js, {
    ecmaVersion: "latest",
    sourceType: "module",
    allowAwaitOutsideFunction: true,
  }) as AnyNode;
}

/** Renames in a ts cell (`topLevel`: its declarations too) or in one `${...}` expression of a sql cell. */
function renameJs(source: string, renamed: ReadonlyMap<string, string>, topLevel: boolean): string {
  let js = source;
  if (topLevel) {
    const out = transform(source, {
      transforms: ["typescript"],
      disableESTransforms: true,
      keepUnusedImports: true,
    }).code;
    // sucrase adds nothing to plain JavaScript but may drop a final newline: compare without it.
    if (out.replace(/\n$/, "") !== source.replace(/\n$/, "")) js = out;
  }
  const program = topLevel ? parseJs(js) : parseJs(`(${js}\n)`);
  const shift = topLevel ? 0 : 1;
  const edits: Edit[] = [];
  const rename = (node: AnyNode, shorthand: boolean) => {
    const to = renamed.get(node.name as string);
    if (to === undefined) return;
    const start = node.start - shift;
    const end = node.end - shift;
    edits.push({ start, end, text: shorthand ? `${node.name}: ${to}` : to });
  };
  for (const { node, parent } of freeIdentifiers(program, topLevel))
    rename(node, parent?.type === "Property" && parent.shorthand === true);
  if (topLevel)
    for (const stmt of program.body as AnyNode[]) {
      if (stmt.type === "VariableDeclaration")
        for (const d of stmt.declarations as AnyNode[]) bindings(d.id, rename);
      else if ((stmt.type === "FunctionDeclaration" || stmt.type === "ClassDeclaration") && stmt.id)
        rename(stmt.id, false);
    }
  return applyEdits(js, edits);
}

/** The identifiers a declaration pattern binds; `{a}` in a pattern is shorthand for `{a: a}`. */
function bindings(pattern: AnyNode | null, f: (node: AnyNode, shorthand: boolean) => void): void {
  if (!pattern) return;
  if (pattern.type === "Identifier") f(pattern, false);
  else if (pattern.type === "ObjectPattern")
    for (const p of pattern.properties as AnyNode[]) {
      if (p.type === "RestElement") bindings(p.argument, f);
      else if (p.shorthand && p.value.type === "Identifier") f(p.value, true);
      else if (p.shorthand && p.value.type === "AssignmentPattern") f(p.value.left, true);
      else bindings(p.value, f);
    }
  else if (pattern.type === "ArrayPattern") for (const e of pattern.elements as AnyNode[]) bindings(e, f);
  else if (pattern.type === "RestElement") bindings(pattern.argument, f);
  else if (pattern.type === "AssignmentPattern") bindings(pattern.left, f);
}

function renameSql(source: string, renamed: ReadonlyMap<string, string>): string {
  const t = parseSqlTemplate(source);
  let out = t.parts[0]!;
  t.expressions.forEach((e, k) => (out += "${" + renameJs(e, renamed, false) + "}" + t.parts[k + 1]!));
  return out;
}

/** Applies edits from the end; a site found twice (a binding is also walked as a read) is edited once, the
 * `key: name` form winning over the bare name. */
function applyEdits(text: string, edits: Edit[]): string {
  const bySite = new Map<number, Edit>();
  for (const e of edits) if ((bySite.get(e.start)?.text.length ?? -1) < e.text.length) bySite.set(e.start, e);
  let out = text;
  for (const e of [...bySite.values()].sort((a, b) => b.start - a.start))
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}
