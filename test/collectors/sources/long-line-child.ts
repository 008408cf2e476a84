// Run in a child process by parse-linear-time.test.ts, so that a parser gone quadratic is killed by a hard
// timeout instead of blocking the test worker: reads every long-line case at each length given and prints
// what each read, as JSON.
import { longLineCases } from "../../support/long-lines";

const lengths = process.argv.slice(2).map(Number);
const out: Record<string, unknown[]> = {};
for (const c of longLineCases()) out[c.name] = lengths.map((n) => c.run(n));
process.stdout.write(JSON.stringify(out) + "\n");
