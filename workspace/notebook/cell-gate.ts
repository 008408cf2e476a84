// Lets cells start one macrotask at a time, in notebook order, for the headless worker
// (docs/architecture.md): the runtime computes independent cells last-defined first (Observable's queue is a
// stack), so a cell that never returns could start before cells above it and keep them from ever running.
// Through the gate, every cell above it has started (and a synchronous one finished and been reported) before
// it does.

const nextTask = (f: () => void) => (typeof setImmediate === "function" ? setImmediate(f) : setTimeout(f, 0));

export class CellGate {
  private waiting: { position: number; go: () => void }[] = [];
  private scheduled = false;

  /** `ready`: awaited before each release (the worker waits for its queries in flight to be answered, so a
   * cell that then blocks the thread does not strand a finished query's result in the message queue) */
  constructor(private readonly ready?: () => Promise<void>) {}

  /** Resolves when it is this cell's turn: the lowest notebook position waiting, one per macrotask. */
  wait(position: number): Promise<void> {
    return new Promise((go) => {
      this.waiting.push({ position, go });
      this.schedule();
    });
  }

  private schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    nextTask(async () => {
      // After the queries are answered, one more macrotask: their cells settle in the microtasks before it.
      if (this.ready) await this.ready().then(() => new Promise<void>((r) => nextTask(r)));
      this.scheduled = false;
      let first = 0;
      for (let i = 1; i < this.waiting.length; i++)
        if (this.waiting[i]!.position < this.waiting[first]!.position) first = i;
      const [next] = this.waiting.splice(first, 1);
      if (this.waiting.length) this.schedule();
      next?.go();
    });
  }
}
