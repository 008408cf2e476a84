export { requireColumns } from "./require-columns";
export { suspectRows, PLAUSIBLE_FRAMES_SQL } from "./suspect-rows";
