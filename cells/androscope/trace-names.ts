// The names of a method trace (its key section: the methods and threads tables) in the shapes the
// AndroScope cells take, and as choices for a notebook input.
import type { Table } from "apache-arrow";
import { int32, int64, readColumns, utf8 } from "../common/read-columns";
import type { ProfileMethod } from "./method-profile";

/** Rows of the methods table (one run's) as the cells' method list. */
export function methodList(methods: Table): ProfileMethod[] {
  const m = readColumns(methods, "methods", {
    method_id: int64(0),
    class_name: utf8(),
    method_name: utf8(),
    signature: utf8(),
  });
  return Array.from(m.method_id, (id, i) => ({
    id,
    className: String(m.class_name.get(i)),
    methodName: String(m.method_name.get(i)),
    signature: String(m.signature.get(i)),
  }));
}

/** Rows of the threads table as {id, name}. */
export function threadList(threads: Table): { id: number; name: string }[] {
  const t = readColumns(threads, "threads", { thread_id: int32(), name: utf8() });
  return Array.from(t.thread_id, (id, i) => ({ id, name: String(t.name.get(i)) }));
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
