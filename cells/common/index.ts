export * from "../../bundle/read-columns";
export { suspectRows, PLAUSIBLE_FRAMES_SQL } from "./suspect-rows";
export * from "./time-window";
export * from "./timeline-lod";
