// The slice of Frida's JavaScript API the agent uses (https://frida.re/docs/javascript-api/), declared here
// so the agent type-checks with the project's tsc without Frida's own typings. Java objects stay loosely
// typed: they are proxies whose members are the Java class's.
/* eslint-disable @typescript-eslint/no-explicit-any */
export type JavaObject = any;

export interface JavaMethod {
  implementation: ((this: JavaObject, ...args: any[]) => any) | null;
  overload(...argTypes: string[]): JavaMethod;
  call(self: JavaObject, ...args: any[]): any;
}

export interface JavaClass {
  [member: string]: JavaMethod | any;
  $new(...args: any[]): JavaObject;
}

export interface FridaJava {
  available: boolean;
  perform(fn: () => void): void;
  use(className: string): JavaClass;
  cast(obj: JavaObject, cls: JavaClass): JavaObject;
}

declare global {
  const Java: FridaJava;
  const Process: { id: number };
}
