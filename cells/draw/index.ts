// DRAW (fine-grained UI rendering analysis): every cell, as notebooks see them (`jb.draw`).
export * from "./render-trace";
export * from "./overdraw-depth";
export * from "./frame-coverage";
export * from "./rendering-efficiency";
export * from "./user-interactions";
export * from "./interaction-features";
export * from "./correlation-graph";
export * from "./significance";
export * from "./root-cause";
