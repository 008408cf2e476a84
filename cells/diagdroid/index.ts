// DiagDroid (asynchronous-task queuing, context groups, dependency-aware report): every cell, as notebooks see
// them (`jb.diagdroid`).
export * from "./edit-distance";
export * from "./context-groups";
export * from "./queue-metrics";
export * from "./waited-behind";
export * from "./anomalous-groups";
export * from "./anomaly-report";
export * from "./queue-timeline";
export * from "./delay-distribution";
export { readTaskColumns, type TaskColumns } from "./task-columns";
