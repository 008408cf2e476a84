// AndroScope (method traces, TraceBridge): every cell, as notebooks see them (`jb.androscope`).
export * from "./method-profile";
export * from "./call-tree";
export * from "./counter-attribution";
export * from "./segments";
export * from "./call-timeline";
export * from "./call-timeline-summary";
export * from "./counter-series";
export * from "./trace-names";
export * from "./call-timeline-source";
