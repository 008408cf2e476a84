// The cooperative budget of cells on a thread nothing can terminate (the browser tab; docs/architecture.md,
// "Decisions"). A stretch is the time since the thread last ran a macrotask: while cell code runs, the page
// can neither paint nor handle a click. A cell start begins a stretch; so does the first tick after a
// macrotask. The ticks budget-transform.ts puts into every loop and function throw once the stretch has
// lasted longer than its cell's budget, and keep throwing until the thread gets a macrotask, so a `catch`
// inside a runaway loop cannot keep it going. A generator yielding forever is fine: the runtime asks for its
// next value once per animation frame, and every frame begins a new stretch.
//
//   startStretch(cell, budgetMs)     a cell's code starts (cell-definitions.ts)
//   leaveCell()                      the runtime's call of a cell's code returned or threw
//   budgetTick(cell, budgetMs)       -> the tick function given to the cell's code as a parameter
//   BudgetExceeded                   the error, `cell NAME ran for more than N ms without yielding ...`

export class BudgetExceeded extends Error {
  constructor(
    readonly cell: string,
    readonly budgetMs: number,
    where: string,
  ) {
    super(`cell ${cell} ran for more than ${budgetMs} ms without yielding (its loops were stopped) ${where}`);
    this.name = "BudgetExceeded";
  }
}

interface Stretch {
  cell: string;
  budgetMs: number;
  start: number;
}

let stretch: Stretch | null = null;
let tripped: BudgetExceeded | null = null;
let resetScheduled = false;
// The clock is read every `stride` checks (the countdown is the cell's own, budget-transform.ts): doubled while ticks come fast (< 1 ms apart), back to 1 when a read
// finds a slow gap (iterations that call long uninstrumented code), so overshoot stays near one iteration.
let stride = 1;
let lastRead = 0;

const now = (): number => (typeof performance !== "undefined" ? performance.now() : Date.now());

// A macrotask, not a timer: timers in a hidden tab are throttled to once a second or less (Chromium's
// intensive throttling), message events are not. setImmediate in Node (a MessagePort there keeps the loop alive).
let channel: MessageChannel | null = null;
function afterMacrotask(f: () => void): void {
  if (typeof setImmediate === "function") setImmediate(f);
  else if (typeof MessageChannel === "function") {
    if (!channel) {
      channel = new MessageChannel();
      channel.port1.onmessage = () => f();
    }
    channel.port2.postMessage(null);
  } else setTimeout(f, 0);
}

function reset(): void {
  resetScheduled = false;
  stretch = null;
  tripped = null;
}

function begin(cell: string, budgetMs: number): void {
  const t = now();
  stretch = { cell, budgetMs, start: t };
  tripped = null;
  stride = 1;
  lastRead = t;
  if (!resetScheduled) {
    resetScheduled = true;
    afterMacrotask(reset);
  }
}

/** A cell's code starts: the stretch is now its own (an innocent cell that follows a tripped one runs anew). */
export function startStretch(cell: string, budgetMs: number): void {
  begin(cell, budgetMs);
}

/**
 * The runtime's call of a cell's code returned (its synchronous part ended): no cell code is on the stack, so a
 * tripped stretch is over; code scheduled next in the same task (another cell, a generator's first value) must
 * not inherit the error.
 */
export function leaveCell(): void {
  if (tripped) {
    stretch = null;
    tripped = null;
  }
}

/**
 * The tick for the code of `cell` (its name, as the error shows it), whose budget is `budgetMs`: called by the
 * instrumented code when its countdown runs out, it returns the next countdown.
 */
export function budgetTick(cell: string, budgetMs: number): (line: number) => number {
  return (line: number) => {
    if (stretch === null) {
      begin(cell, budgetMs);
      return 1;
    }
    if (tripped) throw tripped;
    const t = now();
    stride = t - lastRead < 1 ? Math.min(stride * 2, 1024) : 1;
    lastRead = t;
    if (t - stretch.start > stretch.budgetMs) {
      const where = stretch.cell === cell ? `at line ${line}` : `at line ${line} of cell ${cell}`;
      tripped = new BudgetExceeded(stretch.cell, stretch.budgetMs, where);
      throw tripped;
    }
    return stride;
  };
}
