// heap_samples rows from an AndroScope extended method trace (§IV-5: heap size, allocated heap, number of
// objects at every record). Heap values are process-wide, so they form one step series per kind: a row at
// the first record and at every record where the value changed. Counter values are per-thread running
// counts and stay in method_events (cycles, instructions) and MethodTrace.records.counters: hpc_samples
// rows are interval counts of a core or the process (simpleperf), which per-thread reads do not give.
import type { Table } from "apache-arrow";
import { makeBundleTable } from "../../bundle/table-builder";
import type { MethodTrace, TraceRecords } from "./method-trace";

/** heap_samples kinds, in the order of the record's heap fields. */
export const HEAP_KINDS = ["heap_size", "heap_allocated", "heap_objects"] as const;

/** The heap_samples table of a trace with heap values (ts on the wall clock, else thread CPU), or null. */
export function traceHeapSamples(trace: MethodTrace): Table | null {
  if (!trace.records.heap) return null;
  const steps = new HeapSteps();
  steps.add(trace.records);
  return steps.table(trace.runId ?? "trace");
}

/** The heap steps of records that come in batches, in order: a row where a value differs from the last one. */
export class HeapSteps {
  private readonly ts: number[] = [];
  private readonly kind: number[] = [];
  private readonly value: number[] = [];
  private readonly last: number[] = [];

  add(records: TraceRecords): void {
    const heap = records.heap;
    if (!heap) return;
    const time = records.wall ?? records.threadCpu!;
    const series = [heap.size, heap.allocated, heap.objects];
    const n = time.length;
    for (let i = 0; i < n; i++)
      for (let k = 0; k < 3; k++) {
        const v = series[k]![i]!;
        if (v === this.last[k]) continue;
        this.last[k] = v;
        this.ts.push(time[i]!);
        this.kind.push(k);
        this.value.push(v);
      }
  }

  table(runId: string): Table {
    const int64 = (xs: number[]) => {
      const out = new BigInt64Array(xs.length);
      for (let i = 0; i < xs.length; i++) out[i] = BigInt(xs[i]!);
      return out;
    };
    const { ts, kind, value } = this;
    return makeBundleTable(
      "heap_samples",
      runId,
      {
        ts: int64(ts),
        kind: { dictionary: HEAP_KINDS, indices: Int32Array.from(kind) },
        value: int64(value),
      },
      ts.length,
    );
  }
}
