// @observablehq/runtime 6.0.1 ships no types: the part of its API the notebook runtime uses.
declare module "@observablehq/runtime" {
  export interface Observer {
    pending?(): void;
    fulfilled?(value: unknown, name?: string | null): void;
    rejected?(error: unknown, name?: string | null): void;
  }
  export class Variable {
    define(name: string | null, inputs: readonly string[], definition: (...args: any[]) => unknown): this;
    define(inputs: readonly string[], definition: (...args: any[]) => unknown): this;
    delete(): this;
  }
  export class Module {
    variable(observer?: Observer | boolean): Variable;
    define(name: string, inputs: readonly string[], definition: (...args: any[]) => unknown): Variable;
    redefine(name: string, inputs: readonly string[], definition: (...args: any[]) => unknown): Variable;
    value(name: string): Promise<unknown>;
    builtin(name: string, value: unknown): void;
  }
  export class Runtime {
    constructor(builtins?: Record<string, unknown>, global?: (name: string) => unknown);
    module(): Module;
    dispose(): void;
  }
  export class RuntimeError extends Error {
    constructor(message: string, input?: string);
    input?: string;
  }
}
