// @observablehq/inputs ships no types; the workspace passes the module through as the `Inputs` builtin.
declare module "@observablehq/inputs";
