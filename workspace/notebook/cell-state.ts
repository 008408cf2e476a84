// What the runtime reports about each cell (status, value, displays, checks), for the UI, publish, the headless
// runner and the snapshots of the parity test.
import type { Cell } from "./format";
import type { CellAnalysis } from "./references";

export type CellStatus = "pending" | "fulfilled" | "rejected";

export interface CheckResult {
  name: string;
  ok: boolean;
  detail?: string;
  cellId: string;
}

export interface CellState {
  id: string;
  kind: Cell["kind"];
  /** sql: the id= name */
  name?: string;
  /** the names this cell defines */
  defines: string[];
  /** the names it references (its inputs) */
  references: string[];
  status: CellStatus;
  /** sql: the Table; ts expression cell: the expression's value; ts declarations: {name: value} */
  value?: unknown;
  /** the error message when rejected (parse error, cycle, duplicate, SQL error, thrown exception, failed input) */
  error?: string;
  /**
   * Rejected because the runs lack a table it reads (or a cell it depends on does): what a run would need. Such a
   * cell does not apply to these runs; it is listed, never counted as failed (load-failures.ts).
   */
  notApplicable?: string;
  displays: unknown[];
  checks: CheckResult[];
  /** references nothing defines (the cell rejects with "x is not defined") */
  undefinedReferences: string[];
  /** how many times the cell's code has started running */
  runs: number;
  /** duration of the last completed run, ms */
  ms?: number;
}

export function newCellState(cell: Cell, analysis: CellAnalysis): CellState {
  return {
    id: cell.id,
    kind: cell.kind,
    name: cell.name,
    defines: analysis.defines,
    references: analysis.references,
    status: "pending",
    displays: [],
    checks: [],
    undefinedReferences: analysis.undefinedReferences,
    runs: 0,
  };
}

/** A cell rejected only because its runs lack a table it reads (or one its inputs read). */
export function cellNotApplicable(s: { status: string; notApplicable?: string }): boolean {
  return s.status === "rejected" && s.notApplicable !== undefined;
}

/** A cell that really failed: rejected for a reason other than its runs lacking a table. */
export function cellFailed(s: { status: string; notApplicable?: string }): boolean {
  return s.status === "rejected" && s.notApplicable === undefined;
}

/** A cell's status as a reader sees it: "not-applicable" for a rejection that only says its runs lack a table. */
export function cellStatusName(
  s: { status: CellStatus; notApplicable?: string } | undefined,
): CellStatus | "not-applicable" {
  if (!s) return "pending";
  return cellNotApplicable(s) ? "not-applicable" : s.status;
}

/** How progress lines and reports name a cell: `sql <name>` or `ts <what it defines>`. */
export function cellLabel(c: { kind: string; name?: string; defines: string[]; id: string }): string {
  return c.kind === "sql" ? `sql ${c.name ?? c.id}` : `ts ${c.defines.length ? c.defines.join(", ") : c.id}`;
}
