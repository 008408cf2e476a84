// A fake of the slice of frida-java-bridge the agent uses (Java.perform, use, cast, ClassFactory.get, class
// and instance wrappers, method dispatchers with `overloads`, `overload(...)`, `implementation`, fields'
// `.value`, `$ownMembers`, `$new`), over a small in-memory VM of classes and objects. It keeps Frida's call
// semantics (frida-java-bridge lib/class-factory.js): JavaScript calls, including `overload.call(this, ...)`
// inside a replacement, run the original method; calls made by the fake framework ("Java side") dispatch
// virtually and go through the replacement when one is installed.

export type JVal = FakeObj | string | number | boolean | null | undefined | JVal[];
export type Body = (vm: FakeVm, self: FakeObj | null, args: JVal[]) => JVal | void;

export interface Overload {
  name: string;
  args: string[];
  ret: string;
  isStatic: boolean;
  body: Body;
  impl: ((...args: unknown[]) => unknown) | null;
  owner: FakeClass;
}

export class FakeClass {
  readonly methods = new Map<string, Overload[]>();
  readonly statics = new Map<string, { value: JVal }>();
  readonly fieldNames = new Set<string>();
  classObject: FakeObj | null = null;
  constructor(
    readonly name: string,
    readonly superclass: FakeClass | null,
    readonly interfaces: string[],
    /** null: the boot class loader (framework classes) */
    readonly loader: FakeObj | null,
  ) {}
  isSubclassOf(name: string): boolean {
    for (let c: FakeClass | null = this; c; c = c.superclass)
      if (c.name === name || c.interfaces.includes(name)) return true;
    return false;
  }
}

export class FakeObj {
  readonly fields: Record<string, JVal> = {};
  constructor(
    readonly cls: FakeClass,
    readonly hash: number,
  ) {}
}

const sig = (o: Overload) => `${o.name}(${o.args.join(",")})`;
const WRAPPED = Symbol("fake-java-object");

/** The value kept for `key`, made on its first use: one wrapper per object, with its member cache. */
function madeOnce<K extends object, V>(cache: WeakMap<K, V>, key: K, make: () => V): V {
  const kept = cache.get(key);
  if (kept !== undefined) return kept;
  const made = make();
  cache.set(key, made);
  return made;
}

export interface ClassDef {
  name: string;
  extends?: string;
  implements?: string[];
  app?: boolean;
  fields?: string[];
  statics?: Record<string, JVal>;
  methods?: {
    name: string;
    args?: string[];
    ret?: string;
    isStatic?: boolean;
    body: Body;
  }[];
}

export class FakeVm {
  readonly classes = new Map<string, FakeClass>();
  /** CLOCK_MONOTONIC, ns: System.nanoTime() */
  clock = 3_600_000_000_000;
  readonly appLoader: FakeObj;
  current!: FakeObj;
  readonly log: { tid: number; tag: string; message: string }[] = [];
  /** the stack trace the next getStackTrace() returns, innermost first */
  stack: string[] = [];
  private nextHash = 0x1000;

  constructor(
    readonly api: number,
    readonly pid = 4242,
  ) {
    this.define({ name: "java.lang.Object" });
    this.define({ name: "java.lang.ClassLoader", extends: "java.lang.Object" });
    this.appLoader = this.newObj("java.lang.ClassLoader");
  }

  hashFor(): number {
    return (this.nextHash += 0x11);
  }

  define(d: ClassDef): FakeClass {
    const sup = d.extends ? this.cls(d.extends) : null;
    const c = new FakeClass(d.name, sup, d.implements ?? [], d.app ? this.appLoader : null);
    for (const f of d.fields ?? []) c.fieldNames.add(f);
    for (const [k, v] of Object.entries(d.statics ?? {})) c.statics.set(k, { value: v });
    for (const m of d.methods ?? []) this.addMethod(c, m);
    this.classes.set(d.name, c);
    return c;
  }

  addMethod(c: FakeClass, m: NonNullable<ClassDef["methods"]>[number]) {
    const o: Overload = {
      name: m.name,
      args: m.args ?? [],
      ret: m.ret ?? "void",
      isStatic: m.isStatic ?? false,
      body: m.body,
      impl: null,
      owner: c,
    };
    const list = c.methods.get(m.name) ?? [];
    list.push(o);
    c.methods.set(m.name, list);
  }

  /** Removes one overload, as an OEM build or another API level might lack it. */
  removeMethod(cls: string, name: string, args: string[]) {
    const c = this.cls(cls);
    const list = (c.methods.get(name) ?? []).filter((o) => o.args.join(",") !== args.join(","));
    if (list.length) c.methods.set(name, list);
    else c.methods.delete(name);
  }

  cls(name: string): FakeClass {
    const c = this.classes.get(name);
    if (!c) throw new Error(`java.lang.ClassNotFoundException: Didn't find class "${name}"`);
    return c;
  }

  newObj(cls: string, fields: Record<string, JVal> = {}): FakeObj {
    const o = new FakeObj(this.cls(cls), this.hashFor());
    Object.assign(o.fields, fields);
    return o;
  }

  /** Overloads visible under `name` from class c: its own, then inherited ones it does not override. */
  overloadsOf(c: FakeClass, name: string): Overload[] {
    const out: Overload[] = [];
    const seen = new Set<string>();
    for (let k: FakeClass | null = c; k; k = k.superclass)
      for (const o of k.methods.get(name) ?? [])
        if (!seen.has(sig(o))) {
          seen.add(sig(o));
          out.push(o);
        }
    return out;
  }

  private pick(list: Overload[], args: JVal[], what: string, types?: string[]): Overload {
    const fits = list.filter((o) =>
      types ? o.args.join(",") === types.join(",") : o.args.length === args.length,
    );
    if (fits.length !== 1)
      throw new Error(`${what}: ${fits.length} overloads fit (${list.map(sig).join(", ") || "none"})`);
    return fits[0]!;
  }

  /** A call made by framework or app code: virtual dispatch, through an installed replacement. */
  invoke(self: FakeObj, name: string, args: JVal[] = [], types?: string[]): JVal {
    const o = this.pick(this.overloadsOf(self.cls, name), args, `${self.cls.name}.${name}`, types);
    return this.run(o, self, args, true);
  }
  invokeStatic(cls: string, name: string, args: JVal[] = [], types?: string[]): JVal {
    const o = this.pick(this.overloadsOf(this.cls(cls), name), args, `${cls}.${name}`, types);
    return this.run(o, null, args, true);
  }

  run(o: Overload, self: FakeObj | null, args: JVal[], hooked: boolean): JVal {
    if (hooked && o.impl) {
      const r = o.impl.apply(
        self ? this.wrap(self) : this.classWrapper(o.owner),
        args.map((a) => this.wrap(a)),
      );
      return this.unwrap(r as JVal);
    }
    return o.body(this, self, args) as JVal;
  }

  /** Runs fn as thread t (Thread.currentThread(), Process.myTid()). */
  onThread<T>(t: FakeObj, fn: () => T): T {
    const was = this.current;
    this.current = t;
    try {
      return fn();
    } finally {
      this.current = was;
    }
  }

  advance(ns: number) {
    this.clock += ns;
  }

  // ---- wrappers: what the agent's JavaScript sees ----

  wrap(v: unknown): any {
    if (v instanceof FakeObj) return this.instanceWrapper(v);
    if (Array.isArray(v)) return v.map((x) => this.wrap(x));
    return v;
  }
  unwrap(v: unknown): JVal {
    if (v !== null && typeof v === "object" && WRAPPED in v) return (v as { [WRAPPED]: FakeObj })[WRAPPED];
    if (Array.isArray(v)) return v.map((x) => this.unwrap(x));
    return v as JVal;
  }

  private methodObjects = new WeakMap<Overload, any>();
  private instanceWrappers = new WeakMap<FakeObj, any>();
  private classWrappers = new WeakMap<FakeClass, any>();

  private methodObject(o: Overload): any {
    return madeOnce(this.methodObjects, o, () => {
      const vm = this;
      const m = function (this: unknown, ...args: unknown[]) {
        const self = o.isStatic ? null : (vm.unwrap(this) as FakeObj);
        return vm.wrap(
          vm.run(
            o,
            self,
            args.map((a) => vm.unwrap(a)),
            false,
          ),
        );
      };
      Object.defineProperties(m, {
        methodName: { value: o.name },
        argumentTypes: { value: o.args.map((a) => ({ className: a, name: a })) },
        returnType: { value: { className: o.ret, name: o.ret } },
        holder: { get: () => vm.classWrapper(o.owner) },
        implementation: {
          get: () => o.impl,
          set: (fn: Overload["impl"]) => {
            o.impl = fn;
          },
        },
      });
      return m;
    });
  }

  private dispatcher(list: Overload[], receiver: FakeObj | null): any {
    const vm = this;
    const methods = list.map((o) => this.methodObject(o));
    const ambiguous = () => {
      if (list.length > 1)
        throw new Error(
          `${list[0]!.name}(): has more than one overload, use .overload(<signature>) to choose from:\n\t${list.map(sig).join("\n\t")}`,
        );
    };
    const d = function (this: unknown, ...args: unknown[]) {
      const raw = args.map((a) => vm.unwrap(a));
      const self = receiver;
      const base = self ? vm.overloadsOf(self.cls, list[0]!.name) : list;
      const o = vm.pick(base, raw, list[0]!.name);
      return vm.wrap(vm.run(o, o.isStatic ? null : self, raw, false));
    };
    Object.defineProperties(d, {
      overloads: { get: () => methods },
      methodName: { value: list[0]!.name },
      overload: {
        value: (...types: string[]) => {
          const i = list.findIndex((o) => o.args.join(",") === types.join(","));
          if (i < 0)
            throw new Error(
              `${list[0]!.name}(): specified argument types do not match any of:\n\t${list.map(sig).join("\n\t")}`,
            );
          return methods[i];
        },
      },
      implementation: {
        get: () => (ambiguous(), list[0]!.impl),
        set: (fn: Overload["impl"]) => {
          ambiguous();
          list[0]!.impl = fn;
        },
      },
      argumentTypes: { get: () => (ambiguous(), methods[0].argumentTypes) },
    });
    return d;
  }

  classObjectOf(c: FakeClass): FakeObj {
    c.classObject ??= this.newObj("java.lang.Class", { ref: c.name });
    return c.classObject;
  }

  classWrapper(c: FakeClass): any {
    return madeOnce(this.classWrappers, c, () => {
      const vm = this;
      const members = new Map<string, unknown>();
      return new Proxy(
        {},
        {
          get(_t, p) {
            if (typeof p !== "string") return undefined;
            if (p === "$className") return c.name;
            if (p === "$ownMembers") return [...c.methods.keys(), ...c.fieldNames, ...c.statics.keys()];
            if (p === "class") return vm.wrap(vm.classObjectOf(c));
            // `$new()`: a fresh instance, fields unset (what a no-argument constructor leaves).
            if (p === "$new") return () => vm.wrap(vm.newObj(c.name));
            for (let k: FakeClass | null = c; k; k = k.superclass) {
              const f = k.statics.get(p);
              if (f) return f;
            }
            if (!members.has(p)) {
              const list = vm.overloadsOf(c, p);
              members.set(p, list.length ? vm.dispatcher(list, null) : undefined);
            }
            return members.get(p);
          },
        },
      );
    });
  }

  instanceWrapper(o: FakeObj): any {
    return madeOnce(this.instanceWrappers, o, () => {
      const vm = this;
      const members = new Map<string, unknown>();
      return new Proxy(
        { [WRAPPED]: o },
        {
          has: (_t, p) => p === WRAPPED,
          get(t, p) {
            if (p === WRAPPED) return t[WRAPPED];
            if (typeof p !== "string") return undefined;
            if (p === "$h") return o;
            if (p === "$className") return o.cls.name;
            // A Java array (Java.array): its elements by index, as Java last wrote them.
            if (o.cls.name.startsWith("[") && (/^\d+$/.test(p) || p === "length")) {
              const items = o.fields.items as JVal[];
              return p === "length" ? items.length : vm.wrap(items[Number(p)]);
            }
            const known = members.get(p);
            if (known) return known;
            const list = vm.overloadsOf(o.cls, p);
            if (list.length) {
              const d = vm.dispatcher(list, o);
              members.set(p, d);
              return d;
            }
            for (let k: FakeClass | null = o.cls; k; k = k.superclass)
              if (k.fieldNames.has(p))
                return {
                  get value() {
                    return vm.wrap(o.fields[p]);
                  },
                  set value(v: unknown) {
                    o.fields[p] = vm.unwrap(v);
                  },
                };
            return undefined;
          },
        },
      );
    });
  }

  /** The `Java` object the agent imports from frida-java-bridge. */
  bridge(): unknown {
    const vm = this;
    const use = (name: string, loader: FakeObj | null) => {
      const c = vm.cls(name);
      // Inside Java.perform, Java.use searches the app's class loader (frida-java-bridge sets classFactory.loader
      // to it once the app is bound); another loader's classes need ClassFactory.get(loader).
      if (c.loader !== null && loader !== null && c.loader !== loader)
        throw new Error(
          `java.lang.ClassNotFoundException: Didn't find class "${name}" on path: DexPathList[]`,
        );
      return vm.classWrapper(c);
    };
    return {
      available: true,
      androidVersion: String(this.api),
      perform: (fn: () => void) => fn(),
      use: (name: string) => use(name, null),
      // Java.array(type, values): a Java array the framework can write into (e.g. View.getLocationOnScreen).
      array: (type: string, values: JVal[]) => {
        const name = `[${type === "int" ? "I" : `L${type};`}`;
        if (!vm.classes.has(name)) vm.define({ name, extends: "java.lang.Object" });
        return vm.wrap(vm.newObj(name, { items: [...values] }));
      },
      // Java.retain(wrapper): the same object, kept beyond the hooked call.
      retain: (w: unknown) => w,
      cast: (obj: unknown, cls: { $className: string }) => {
        const o = vm.unwrap(obj);
        if (!(o instanceof FakeObj) || !o.cls.isSubclassOf(cls.$className))
          throw new Error(
            `Cast from ${o instanceof FakeObj ? o.cls.name : typeof o} to ${cls.$className} isn't possible`,
          );
        return vm.wrap(o);
      },
      ClassFactory: {
        get: (loader: unknown) => ({ use: (name: string) => use(name, vm.unwrap(loader) as FakeObj | null) }),
      },
    };
  }
}
