// Instruments a cell's compiled JavaScript for the cooperative budget (docs/architecture.md, "Decisions": a
// browser tab runs cells on its main thread, so nothing can terminate them; they must stop themselves). Every
// loop body (while, do-while, for, for-in, for-of) and every function, method, arrow and generator entry
// starts with a call `tick(line)`, where `line` is the line of the loop or function in the cell;
// cell-budget.ts decides when a tick throws. Nothing else changes: text is only inserted, never on a new
// line, so line numbers stay as they were.
//
//   instrumentBudget(body, {tick, lineOffset}) -> the function body with ticks, or the body unchanged when it
//                                                does not parse (the AsyncFunction constructor then reports it)
import { parse, type Node } from "acorn";
import { full } from "acorn-walk";

export interface BudgetTransformOptions {
  /** the name of the tick function in the body's scope (a parameter of the cell's function) */
  tick: string;
  /** added to a line of `body` to give the line in the cell's source */
  lineOffset?: number;
}

type AnyNode = Node & Record<string, any>;

// The body is what `new AsyncFunction(params, body)` compiles: parsed inside an async function, as V8 does
// (ECMA-262 CreateDynamicFunction), so top-level await and return are allowed.
const PREFIX = "(async function () {\n";
const SUFFIX = "\n})";

const LOOPS = new Set([
  "WhileStatement",
  "DoWhileStatement",
  "ForStatement",
  "ForInStatement",
  "ForOfStatement",
]);
const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);

/** A name not occurring anywhere in `text`, starting from `base` (so no cell variable can shadow it). */
export function freshName(base: string, text: string): string {
  let name = base;
  while (text.includes(name)) name += "_";
  return name;
}

export function instrumentBudget(body: string, options: BudgetTransformOptions): string {
  const source = PREFIX + body + SUFFIX;
  let program: AnyNode;
  try {
    program = parse(source, { ecmaVersion: "latest", sourceType: "script", locations: true }) as AnyNode;
  } catch {
    return body;
  }
  const outer = (program.body[0] as AnyNode).expression as AnyNode;
  const offset = (options.lineOffset ?? 0) - 1; // PREFIX takes one line
  // The walk is post-order (inner nodes first): at one offset, closers go inner first and openers outer first.
  const inserts: { at: number; text: string; rank: number }[] = [];
  let order = 0;
  const open = (at: number, text: string) => inserts.push({ at, text, rank: 2 ** 30 - order++ });
  const close = (at: number, text: string) => inserts.push({ at, text, rank: order++ });
  // A countdown local to the cell decides when to call the tick (which returns the next countdown), so a check
  // is a decrement and a compare inline: a call per iteration made tight loops 6 to 10 times slower.
  const n = freshName(`${options.tick}n`, body);
  const check = (node: AnyNode) =>
    `--${n} <= 0 && (${n} = ${options.tick}(${node.loc!.start.line + offset}))`;
  const call = (node: AnyNode) => `if (${check(node)}) ;`;

  full(program, (node: Node) => {
    const m = node as AnyNode;
    if (LOOPS.has(m.type)) {
      const b = m.body as AnyNode;
      if (b.type === "BlockStatement") open(b.start + 1, call(m));
      else {
        // A single-statement body becomes a block: `while (x) y;` -> `while (x) {if (check) ;y;}`.
        open(b.start, "{" + call(m));
        close(b.end, "}");
      }
    } else if (FUNCTIONS.has(m.type)) {
      const b = m.body as AnyNode;
      if (b.type === "BlockStatement") {
        // After the directive prologue ("use strict" stays a directive only before any other statement).
        const stmts = b.body as AnyNode[];
        let at = b.start + 1;
        for (const s of stmts) {
          if (s.type !== "ExpressionStatement" || typeof s.directive !== "string") break;
          at = s.end;
        }
        // the cell's own function declares the countdown (its start is reported by startStretch)
        if (m === outer) at = Math.max(at, PREFIX.length); // inside the body, not in our PREFIX
        const lead = at === b.start + 1 ? "" : ";"; // a directive may lack its semicolon
        open(at, lead + (m === outer ? `let ${n} = 0;` : call(m)));
      } else {
        // A concise arrow body: `x => x + 1` -> `x => (check, x + 1)` (acorn's ranges exclude the
        // parentheses of `() => ({})`, so the object literal stays inside ours).
        open(b.start, `(${check(m)}, `);
        close(b.end, ")");
      }
    }
  });
  // Applied from the end of the text; at one offset, the text with the higher rank is applied first, so it ends
  // up last.
  inserts.sort((a, b) => b.at - a.at || b.rank - a.rank);
  let out = source;
  for (const { at, text } of inserts) out = out.slice(0, at) + text + out.slice(at);
  return out.slice(PREFIX.length, out.length - SUFFIX.length);
}
