// DUNE (UI performance regressions across contexts): every cell, as notebooks see them (`jb.dune`).
export * from "./frame-metrics";
export * from "./similarity";
export * from "./iqr";
export * from "./deviation-labels";
export * from "./context-rules";
export * from "./event-precision-recall";
