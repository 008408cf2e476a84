// A runner that ends without a stop (timeout, memory, crash) has every cell settled; a cell still "pending" then
// means its result was lost, and a lost check cell must fail the run, not pass it by saying nothing.
interface SettleableCell {
  status: "pending" | "fulfilled" | "rejected";
  error?: string;
}

/** Marks every cell still pending as failed, with `why` as its error; returns how many it marked. */
export function failUnsettledCells(cells: SettleableCell[], why: string): number {
  let marked = 0;
  for (const cell of cells) {
    if (cell.status !== "pending") continue;
    cell.status = "rejected";
    cell.error = why;
    marked++;
  }
  return marked;
}
