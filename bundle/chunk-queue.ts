// A queue between a table's download (producer) and its inserts into DuckDB (consumer), with a byte
// high-water mark so a download far ahead of DuckDB does not hold a whole multi-GB table in memory.

export class ChunkQueue<T extends { bytes: Uint8Array }> {
  private items: T[] = [];
  private queuedBytes = 0;
  private closed = false;
  private wakeConsumer?: () => void;
  private wakeProducer?: () => void;

  constructor(private readonly highWaterBytes: number) {}

  push(item: T): void {
    if (this.closed) return;
    this.items.push(item);
    this.queuedBytes += item.bytes.length;
    this.wakeConsumer?.();
  }

  /** Resolves once the queue holds less than its high-water mark (or was closed). */
  async room(): Promise<void> {
    while (!this.closed && this.queuedBytes >= this.highWaterBytes)
      await new Promise<void>((r) => (this.wakeProducer = r));
  }

  /** No more items will come; with `discard`, the ones queued are dropped too. */
  close(discard = false): void {
    this.closed = true;
    if (discard) {
      this.items = [];
      this.queuedBytes = 0;
    }
    this.wakeConsumer?.();
    this.wakeProducer?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for (;;) {
      const item = this.items.shift();
      if (item) {
        this.queuedBytes -= item.bytes.length;
        this.wakeProducer?.();
        yield item;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((r) => (this.wakeConsumer = r));
    }
  }
}
