// Shorthands for the fake framework models: one method, a value as an object, a method that does nothing.
import type { Body, ClassDef, FakeObj, JVal } from "./fake-java";

/** Integer.MAX_VALUE: an unbounded LinkedBlockingQueue's remaining capacity. */
export const INT_MAX = 2147483647;

export const m = (
  name: string,
  args: string[],
  body: Body,
  extra: { ret?: string; isStatic?: boolean } = {},
): NonNullable<ClassDef["methods"]>[number] => ({ name, args, body, ...extra });
export const obj = (v: JVal) => v as FakeObj;
export const noop: Body = () => undefined;
