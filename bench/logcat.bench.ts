// logcat: parse throughput on the loghub threadtime fixture repeated to 14 MB (100,000 lines), and a 1 MB
// log to its tables (logcat, log_events) in-process, the part of `jankbook import` this code owns.
import { readFileSync } from "node:fs";
import { importLogcat } from "../collectors/import/logcat";
import { parseLogcat } from "../collectors/sources/logcat";
import { timeMs, type Benchmark } from "./harness";

// the fixture ends without a newline: add one so that copies do not run into each other
const fixture = () =>
  readFileSync("test/fixtures/logcat/loghub_Android_2k_threadtime.log", "utf8").replace(/\r?\n?$/, "\r\n");
let big = "";
let mb = "";

export const benchmarks: Benchmark[] = [
  {
    name: "logcat/parse 100,000 threadtime lines (MB/s)",
    unit: "MB/s",
    higherIsBetter: true,
    runs: 5,
    setup() {
      big = fixture().repeat(50);
    },
    async measure() {
      let lines = 0;
      const ms = await timeMs(() => (lines = parseLogcat(big).lines.length));
      if (lines !== 100_000) throw new Error(`expected 100000 lines, got ${lines}`);
      return big.length / 1e6 / (ms / 1000);
    },
  },
  {
    name: "logcat/import 1 MB to logcat + log_events tables (ms)",
    unit: "ms",
    budget: 1000,
    runs: 5,
    setup() {
      const one = fixture();
      mb = one.repeat(Math.ceil(1e6 / one.length)).slice(0, 1e6);
      mb = mb.slice(0, mb.lastIndexOf("\n") + 1);
    },
    measure: () => timeMs(() => importLogcat(mb, "1mb.log", "bench")),
  },
];
