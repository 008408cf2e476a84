// What each cell defines and references, found by parsing (never declared by hand), and the notebook-level
// diagnostics that follow from it: duplicate definitions, undefined references and cycles, per cell.
//
//   analyzeTs(source)   -> {js, defines, references, expression?, last?, views, error?}
//   analyzeSql(source)  -> {defines, references, template, error?}   (see sql-template.ts)
//   analyzeNotebook(cells, {builtins, locals, isGlobal}) -> Map<cellId, CellAnalysis>
//
// ts cells: TypeScript -> JavaScript with sucrase's typescript transform, then acorn (module, top-level await).
// A cell defines its top-level const/let/var/function/class names (destructuring included); it references
// every free identifier (not declared in any enclosing scope of the cell). Static `import` is refused: cells
// reach analyses through the `jb` builtin.
import { parse, type Node } from "acorn";
import { fullAncestor } from "acorn-walk";
import { transform } from "sucrase";
import { parseSqlTemplate, type SqlTemplate } from "./sql-template";
import type { Cell } from "./format";

export interface TsAnalysis {
  /** the transpiled JavaScript (TypeScript types removed) */
  js: string;
  defines: string[];
  references: string[];
  /** when the cell is one expression statement: its JS text (the value it displays) */
  expression?: string;
  /** when statements come before a final expression statement: that statement's and its expression's [start, end)
   * in js (the cell's value, as in Observable) */
  last?: { start: number; end: number; exprStart: number; exprEnd: number };
  /** top-level `const NAME = view(...)` declarations: NAME and the [start, end) of the `view` callee in js */
  views: { name: string; start: number; end: number }[];
  error?: string;
}

export interface SqlAnalysis {
  defines: string[];
  references: string[];
  template?: SqlTemplate;
  error?: string;
}

export interface CellAnalysis {
  id: string;
  kind: Cell["kind"];
  defines: string[];
  references: string[];
  ts?: TsAnalysis;
  sql?: SqlAnalysis;
  /** problems that stop the cell from running: parse error, duplicate definition, cycle */
  errors: string[];
  /** references no cell, builtin or global defines (the runtime rejects these with "x is not defined") */
  undefinedReferences: string[];
}

type AnyNode = Node & Record<string, any>;

export function analyzeTs(source: string): TsAnalysis {
  let js: string;
  try {
    js = transform(source, {
      transforms: ["typescript"],
      disableESTransforms: true,
      keepUnusedImports: true,
    }).code;
  } catch (e) {
    return { js: "", defines: [], references: [], views: [], error: `TypeScript: ${(e as Error).message}` };
  }
  let program: AnyNode;
  try {
    program = parse(js, {
      ecmaVersion: "latest",
      sourceType: "module",
      allowAwaitOutsideFunction: true,
    }) as AnyNode;
  } catch (e) {
    return { js, defines: [], references: [], views: [], error: `syntax error: ${(e as Error).message}` };
  }
  for (const stmt of program.body as AnyNode[]) {
    if (stmt.type === "ImportDeclaration")
      return {
        js,
        defines: [],
        references: [],
        views: [],
        error: "import is not supported in a cell: analyses are in the jb builtin",
      };
    if (
      stmt.type === "ExportNamedDeclaration" ||
      stmt.type === "ExportDefaultDeclaration" ||
      stmt.type === "ExportAllDeclaration"
    )
      return {
        js,
        defines: [],
        references: [],
        views: [],
        error: "export is not supported in a cell: top-level declarations are already visible to every cell",
      };
  }
  const defines: string[] = [];
  const views: TsAnalysis["views"] = [];
  for (const stmt of program.body as AnyNode[]) {
    if (stmt.type === "VariableDeclaration") {
      for (const d of stmt.declarations as AnyNode[]) {
        declaredNames(d.id, defines);
        const init = d.init as AnyNode | null;
        if (
          d.id.type === "Identifier" &&
          init?.type === "CallExpression" &&
          init.callee.type === "Identifier" &&
          init.callee.name === "view"
        )
          views.push({ name: d.id.name, start: init.callee.start, end: init.callee.end });
      }
    } else if ((stmt.type === "FunctionDeclaration" || stmt.type === "ClassDeclaration") && stmt.id)
      defines.push(stmt.id.name);
  }
  const single = program.body.length === 1 && (program.body[0] as AnyNode).type === "ExpressionStatement";
  const expression = single
    ? js.slice((program.body[0] as AnyNode).expression.start, (program.body[0] as AnyNode).expression.end)
    : undefined;
  const final = (program.body as AnyNode[]).at(-1);
  const last =
    !single && final?.type === "ExpressionStatement"
      ? {
          start: final.start,
          end: final.end,
          exprStart: final.expression.start,
          exprEnd: final.expression.end,
        }
      : undefined;
  return { js, defines, references: freeVariables(program), expression, last, views };
}

/** The free variables of a JavaScript expression (for `${expr}` in SQL). */
export function expressionReferences(expr: string): string[] {
  const program = parse(`(${expr}\n)`, {
    ecmaVersion: "latest",
    sourceType: "module",
    allowAwaitOutsideFunction: true,
  }) as AnyNode;
  return freeVariables(program);
}

export function analyzeSql(source: string, name: string | undefined): SqlAnalysis {
  const defines = name ? [name] : [];
  let template: SqlTemplate;
  try {
    template = parseSqlTemplate(source);
  } catch (e) {
    return { defines, references: [], error: (e as Error).message };
  }
  const refs = new Set<string>();
  for (const expr of template.expressions) {
    try {
      for (const r of expressionReferences(expr)) refs.add(r);
    } catch (e) {
      return { defines, references: [], template, error: `\${${expr}}: ${(e as Error).message}` };
    }
  }
  if (name !== undefined && !/^[A-Za-z_$][\w$]*$/.test(name))
    return { defines: [], references: [...refs], template, error: `id=${name} is not a valid name` };
  return { defines, references: [...refs], template };
}

function declaredNames(pattern: AnyNode | null, out: string[]) {
  if (!pattern) return;
  switch (pattern.type) {
    case "Identifier":
      out.push(pattern.name);
      break;
    case "ObjectPattern":
      for (const p of pattern.properties as AnyNode[])
        declaredNames(p.type === "RestElement" ? p.argument : p.value, out);
      break;
    case "ArrayPattern":
      for (const e of pattern.elements as (AnyNode | null)[]) declaredNames(e, out);
      break;
    case "RestElement":
      declaredNames(pattern.argument, out);
      break;
    case "AssignmentPattern":
      declaredNames(pattern.left, out);
      break;
  }
}

const FUNCTION_TYPES = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);

/** Names declared directly in each scope node (Program, functions, blocks, loops, catch clauses, classes). */
function scopeDeclarations(program: AnyNode): Map<AnyNode, Set<string>> {
  const scopes = new Map<AnyNode, Set<string>>();
  const add = (node: AnyNode, names: string[]) => {
    let s = scopes.get(node);
    if (!s) scopes.set(node, (s = new Set()));
    for (const n of names) s.add(n);
  };
  fullAncestor(program, (node: AnyNode, _state: unknown, ancestors: AnyNode[]) => {
    const parents = ancestors.slice(0, -1);
    const nearest = (pred: (n: AnyNode) => boolean) => {
      for (let k = parents.length - 1; k >= 0; k--) if (pred(parents[k]!)) return parents[k]!;
      return program;
    };
    const functionScope = () => nearest((n) => FUNCTION_TYPES.has(n.type));
    const blockScope = () =>
      nearest(
        (n) =>
          FUNCTION_TYPES.has(n.type) ||
          n.type === "BlockStatement" ||
          n.type === "ForStatement" ||
          n.type === "ForInStatement" ||
          n.type === "ForOfStatement" ||
          n.type === "SwitchStatement" ||
          n.type === "StaticBlock",
      );
    switch (node.type) {
      case "VariableDeclaration": {
        const names: string[] = [];
        for (const d of node.declarations as AnyNode[]) declaredNames(d.id, names);
        add(node.kind === "var" ? functionScope() : blockScope(), names);
        break;
      }
      case "FunctionDeclaration":
        if (node.id) add(blockScope(), [node.id.name]);
        add(node, paramNames(node));
        break;
      case "FunctionExpression":
        add(node, [...(node.id ? [node.id.name] : []), ...paramNames(node)]);
        break;
      case "ArrowFunctionExpression":
        add(node, paramNames(node));
        break;
      case "ClassDeclaration":
        if (node.id) add(blockScope(), [node.id.name]);
        break;
      case "ClassExpression":
        if (node.id) add(node, [node.id.name]);
        break;
      case "CatchClause": {
        const names: string[] = [];
        declaredNames(node.param, names);
        add(node, names);
        break;
      }
    }
  });
  return scopes;
}

function paramNames(fn: AnyNode): string[] {
  const out: string[] = [];
  for (const p of fn.params as AnyNode[]) declaredNames(p, out);
  return out;
}

// acorn-walk's fullAncestor reports an Identifier only where it is read as a variable: binding sites
// (declaration patterns, params, function and class names, catch params), assignment targets, property
// keys, member names and labels are walked under an override type and never reach the callback.
function freeVariables(program: AnyNode): string[] {
  return [...new Set(freeIdentifiers(program).map((r) => r.node.name as string))];
}

/**
 * Every read of a free variable, with the node that holds it (a shorthand `{x}` needs rewriting as `x: y`).
 * With `topLevelToo`, reads of the program's own top-level names count as free (a rename of a cell's definitions).
 */
export function freeIdentifiers(program: Node, topLevelToo = false): { node: AnyNode; parent?: AnyNode }[] {
  const scopes = scopeDeclarations(program as AnyNode);
  if (topLevelToo) scopes.delete(program as AnyNode);
  const free: { node: AnyNode; parent?: AnyNode }[] = [];
  fullAncestor(program, (node: AnyNode, _state: unknown, ancestors: AnyNode[]) => {
    if (node.type !== "Identifier") return;
    for (let k = ancestors.length - 2; k >= 0; k--) if (scopes.get(ancestors[k]!)?.has(node.name)) return;
    free.push({ node, parent: ancestors[ancestors.length - 2] });
  });
  return free;
}

export interface AnalyzeOptions {
  /** names provided by the runtime (jb, Plot, plot, Inputs, md, ...) */
  builtins: Iterable<string>;
  /** names every cell gets as a local (display, view, check, invalidation) */
  locals?: Iterable<string>;
  /** is a name a host global (Math, Date, ...)? default: `name in globalThis` */
  isGlobal?: (name: string) => boolean;
}

export function analyzeCell(
  cell: Pick<Cell, "id" | "kind" | "source" | "name">,
  locals: Set<string>,
): CellAnalysis {
  if (cell.kind === "ts") {
    const ts = analyzeTs(cell.source);
    return { ...ownAnalysis(cell.id, "ts", ts, locals), ts };
  }
  const sql = analyzeSql(cell.source, cell.name);
  return { ...ownAnalysis(cell.id, "sql", sql, locals), sql };
}

/** What a cell's own source says, of either kind; analyzeNotebook adds the diagnostics across cells. */
function ownAnalysis(
  id: string,
  kind: Cell["kind"],
  a: TsAnalysis | SqlAnalysis,
  locals: Set<string>,
): CellAnalysis {
  return {
    id,
    kind,
    defines: a.defines,
    references: a.references.filter((r) => !locals.has(r)),
    errors: a.error ? [a.error] : [],
    undefinedReferences: [],
  };
}

/** Analyses every cell and adds the cross-cell diagnostics: duplicates, cycles, undefined references. */
export function analyzeNotebook(
  list: Pick<Cell, "id" | "kind" | "source" | "name">[],
  options: AnalyzeOptions,
): Map<string, CellAnalysis> {
  const locals = new Set(options.locals ?? []);
  const builtins = new Set(options.builtins);
  const isGlobal = options.isGlobal ?? ((n: string) => n in globalThis);
  const out = new Map<string, CellAnalysis>();
  for (const c of list) out.set(c.id, analyzeCell(c, locals));
  const definers = new Map<string, string[]>();
  for (const a of out.values())
    for (const d of a.defines) definers.set(d, [...(definers.get(d) ?? []), a.id]);
  for (const a of out.values()) {
    for (const d of a.defines) {
      const n = definers.get(d)!.length;
      if (n > 1) a.errors.push(`${d} is defined more than once (${n} cells)`);
      if (builtins.has(d) || locals.has(d)) a.errors.push(`${d} is a builtin and cannot be redefined`);
    }
    a.undefinedReferences = a.references.filter((r) => !definers.has(r) && !builtins.has(r) && !isGlobal(r));
  }
  // Cycles: strongly connected components of the cell graph (Tarjan); a self-reference counts.
  const edges = new Map<string, string[]>();
  for (const a of out.values())
    edges.set(
      a.id,
      a.references.flatMap((r) =>
        definers.get(r)?.length === 1 && !a.defines.includes(r) ? definers.get(r)! : [],
      ),
    );
  for (const component of stronglyConnected([...out.keys()], edges)) {
    if (component.length < 2) continue;
    const names = component.flatMap((id) => out.get(id)!.defines);
    for (const id of component) out.get(id)!.errors.push(`circular definition: ${names.join(" ↔ ")}`);
  }
  return out;
}

function stronglyConnected(nodes: string[], edges: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      out.push(comp);
    }
  };
  for (const v of nodes) if (!idx.has(v)) visit(v);
  return out;
}
