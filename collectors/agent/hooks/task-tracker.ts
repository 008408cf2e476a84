// DiagDroid §5.2's task life cycle, shared by every task hook: scheduled (with its execution context, the
// queue it waits on and that queue's capacity), begun and ended exactly once per task.
import type { TaskCategory } from "../protocol";
import { Java, use, type Agent, type JavaObject } from "./hook-kit";

export interface TaskOptions {
  /** frames kept of a scheduling stack (DiagDroid §4.2's execution context); 0 records no stacks */
  readonly maxStack: number;
}

const INT_MAX = 2147483647;

export class TaskTracker {
  private contexts = new Map<string, number>();
  private nextTask = 1;
  /** key (kind + identity hash of the thread, message, future or runnable) -> task ids waiting under it, oldest
   * first: a Runnable submitted twice before it runs is two tasks, begun in submission order */
  private pending = new Map<string, number[]>();
  /** running tasks with their nesting depth: an overriding run() may call super.run(), which is hooked too */
  private running = new Map<string, { task: number; depth: number }>();

  constructor(
    readonly a: Agent,
    private readonly o: TaskOptions,
  ) {}

  /** Execution context (DiagDroid §4.2): the scheduling stack, innermost first, the agent's own frames dropped. */
  contextId(): number {
    const frames: string[] = [];
    if (this.o.maxStack > 0) {
      const st = use("java.lang.Thread").currentThread().getStackTrace();
      for (let i = 0; i < st.length && frames.length < this.o.maxStack; i++) {
        const f = String(st[i].toString());
        if (f.startsWith("dalvik.system.VMStack") || f.startsWith("java.lang.Thread.getStackTrace")) continue;
        frames.push(f);
      }
    }
    const key = frames.join("\n");
    let c = this.contexts.get(key);
    if (c === undefined) {
      this.contexts.set(key, (c = this.contexts.size));
      this.a.emit({ type: "ctx", context_id: c, frames });
    }
    return c;
  }

  /** `at`: when and where it was really scheduled, if earlier than now (IntentService's startService). */
  schedule(
    key: string,
    category: TaskCategory,
    executor: string,
    capacity: number | null,
    cls: string,
    at: { ts: bigint; ctx: number } | null = null,
    due: bigint | null = null,
  ) {
    const task_id = this.nextTask++;
    const queued = this.pending.get(key);
    if (queued) queued.push(task_id);
    else this.pending.set(key, [task_id]);
    this.a.emit({
      type: "task",
      task_id,
      category,
      executor_id: executor,
      pool_capacity: capacity,
      task_class: cls,
      scheduled: at?.ts ?? this.a.now(),
      context_id: at?.ctx ?? this.contextId(),
      due,
    });
  }

  begin(key: string) {
    const r = this.running.get(key);
    if (r) return void r.depth++;
    const task = this.take(key);
    if (task === undefined) return;
    this.running.set(key, { task, depth: 1 });
    this.a.emit({
      type: "begin",
      task_id: task,
      ts: this.a.now(),
      tid: Number(use("android.os.Process").myTid()),
      thread_name: String(use("java.lang.Thread").currentThread().getName()),
    });
  }

  end(key: string) {
    const r = this.running.get(key);
    if (!r || --r.depth > 0) return;
    this.running.delete(key);
    this.a.emit({ type: "end", task_id: r.task, ts: this.a.now() });
  }

  /** The task under `key` was taken back before it ran (its message was removed from the queue). */
  drop(key: string) {
    const task = this.take(key);
    if (task === undefined) return;
    this.a.emit({ type: "drop", task_id: task, ts: this.a.now() });
  }

  /** Whether a task waits under `key` (scheduled, not begun). */
  isPending(key: string): boolean {
    return this.pending.has(key);
  }

  /** The oldest task waiting under `key`, taken off its list. */
  private take(key: string): number | undefined {
    const queued = this.pending.get(key);
    const task = queued?.shift();
    if (queued && !queued.length) this.pending.delete(key);
    return task;
  }

  /** Runs `body` between begin and end of the task under `key` (nothing when no such task is pending). */
  around<T>(hook: string, key: string, body: () => T): T {
    this.a.guard(hook, () => this.begin(key));
    try {
      return body();
    } finally {
      this.a.guard(hook, () => this.end(key));
    }
  }

  /** DiagDroid §5.2: "the hash code of the execution unit as the queue identifier". */
  unit(o: JavaObject): string {
    return `${o.getClass().getName()}@${this.a.id(o).toString(16)}`;
  }
  className(o: JavaObject): string {
    return String(o.getClass().getName());
  }

  /**
   * Pool capacity (DiagDroid Definition 4): threads that run at once. An unbounded queue never grows the
   * pool past its core size; a bounded one lets it reach the maximum.
   */
  capacityOf(executor: JavaObject): number | null {
    try {
      const tpe = Java.cast(executor, use("java.util.concurrent.ThreadPoolExecutor"));
      return Number(tpe.getQueue().remainingCapacity()) === INT_MAX
        ? Number(tpe.getCorePoolSize())
        : Number(tpe.getMaximumPoolSize());
    } catch {
      return null;
    }
  }
}
