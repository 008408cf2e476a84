// The names of a method trace (its key section: the methods and threads tables) in the shapes the
// AndroScope cells take, and as choices for a notebook input.
import type { Table } from "apache-arrow";
import { int32, int64, readColumns, utf8 } from "../../bundle/read-columns";
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

const PRIMITIVES: Record<string, string> = {
  B: "byte",
  C: "char",
  D: "double",
  F: "float",
  I: "int",
  J: "long",
  S: "short",
  Z: "boolean",
  V: "void",
};

/** A JVM parameter descriptor list ("ILjava/lang/String;[J", JVMS §4.3.3) as simple type names. */
function descriptorTypes(params: string): string[] | null {
  const out: string[] = [];
  let i = 0;
  while (i < params.length) {
    let dims = 0;
    while (params[i] === "[") [dims, i] = [dims + 1, i + 1];
    const c = params[i];
    let type: string;
    if (c === "L") {
      const end = params.indexOf(";", i);
      if (end < 0) return null;
      type = params
        .slice(i + 1, end)
        .split("/")
        .pop()!;
      i = end + 1;
    } else if (c && PRIMITIVES[c]) [type, i] = [PRIMITIVES[c], i + 1];
    else return null;
    out.push(type + "[]".repeat(dims));
  }
  return out;
}

/**
 * "android.view.Choreographer.doFrame (JI)V" → "Choreographer.doFrame(long, int)": the class without its package
 * and the parameters as simple types, so a chart's label keeps the method's name; text that is not a
 * "Class.method descriptor" comes back as it is.
 */
export function shortMethodName(name: string): string {
  const m = /^(.*?)\.([^.\s]+) \(([^)]*)\)\S*$/.exec(name);
  if (!m) return name;
  const types = descriptorTypes(m[3]!);
  if (!types) return name;
  return `${m[1]!.split(".").pop()}.${m[2]}(${types.join(", ")})`;
}
