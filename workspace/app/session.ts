// The workspace session: the browser's name for the one run loader (workspace/db/run-loader.ts), which the
// headless runner uses too, so a set of runs loads the same way in both.
export { RunLoader as Session, type LoadedRun } from "../db/run-loader";
