// The names of a method trace (its key section: the methods and threads tables) in the shapes the
// AndroScope cells take, and as choices for a notebook input.
import type { Table } from "apache-arrow";
import { requireColumns } from "../common/require-columns";
import { int32Values, int64Values } from "./call-columns";
import type { ProfileMethod } from "./method-profile";

/** Rows of the methods table (one run's) as the cells' method list. */
export function methodList(methods: Table): ProfileMethod[] {
  requireColumns(
    methods,
    { method_id: "int64", class_name: "utf8", method_name: "utf8", signature: "utf8" },
    "methods",
  );
  const ids = int64Values(methods.getChild("method_id")!);
  const [cls, name, sig] = ["class_name", "method_name", "signature"].map((c) => methods.getChild(c)!);
  return Array.from(ids, (id, i) => ({
    id,
    className: String(cls!.get(i)),
    methodName: String(name!.get(i)),
    signature: String(sig!.get(i)),
  }));
}

/** Rows of the threads table as {id, name}. */
export function threadList(threads: Table): { id: number; name: string }[] {
  requireColumns(threads, { thread_id: "int32", name: "utf8" }, "threads");
  const ids = int32Values(threads.getChild("thread_id")!);
  const names = threads.getChild("name")!;
  return Array.from(ids, (id, i) => ({ id, name: String(names.get(i)) }));
}

/** "Class.method" -> method id, sorted by name; an overloaded method's entries carry their signatures. */
export function methodChoices(methods: readonly ProfileMethod[]): Map<string, number> {
  const count = new Map<string, number>();
  for (const m of methods)
    count.set(`${m.className}.${m.methodName}`, (count.get(`${m.className}.${m.methodName}`) ?? 0) + 1);
  const entries = methods.map((m) => {
    const short = `${m.className}.${m.methodName}`;
    return [count.get(short)! > 1 ? `${short} ${m.signature}` : short, m.id] as [string, number];
  });
  return new Map(entries.sort(([a], [b]) => a.localeCompare(b)));
}
