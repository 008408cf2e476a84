// Checks that apriori() finds exactly Weka 3.6's rules (antecedent, consequent, support count) on the
// benchmark's kind of data, in both modes. Needs Debian's `weka` package. Run:
//   npx tsx bench/weka/compare-apriori.ts [rows=3000] [seed=11] [missing=0]
// With missing = m > 0, every m-th row loses its network ("?") and every (m+1)-th its api (""), written to
// the ARFF as Weka's missing value.
// At 3,000 rows and minSupport 0.01 both thresholds are 30 rows (Weka rounds 0.01·n + 0.5 down, we take
// ceil(0.01·n)); with n where they differ the rule sets differ by design.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { apriori } from "../../cells/dune/context-rules";
import { contextRows, toArff, WEKA_APRIORI_OPTIONS } from "../dune.bench";

const rows = contextRows(Number(process.argv[2] ?? 3000), Number(process.argv[3] ?? 11));
const every = Number(process.argv[4] ?? 0);
if (every > 0)
  rows.forEach((r, i) => {
    if (i % every === 0) r.network = "?";
    if (i % (every + 1) === 0) r.api = "";
  });
const dir = mkdtempSync(join(tmpdir(), "dune-weka-"));
const arff = join(dir, "runs.arff");
writeFileSync(arff, toArff(rows));
const items = (side: string) =>
  side
    .split(/ (?=[a-z_]+=)/)
    .sort()
    .join(" ");
let failed = false;
try {
  for (const classRules of [false, true]) {
    const args = ["-cp", "/usr/share/java/weka.jar", "weka.associations.Apriori", "-t", arff];
    args.push(...WEKA_APRIORI_OPTIONS, ...(classRules ? ["-A", "-c", "last"] : []));
    const out = execFileSync("java", args, { encoding: "utf8", maxBuffer: 1 << 28 });
    const weka = new Set<string>();
    for (const line of out.split("\n")) {
      // " 12. sdk=5.0.0 api=21 375 ==> label=Outlier- 368    conf:(0.98)"
      const m = /^\s*\d+\.\s+(.*?)\s+\d+\s+==>\s+(.*?)\s+(\d+)\s+(?:<\s*)?conf:/.exec(line);
      if (m) weka.add(`${items(m[1]!)} => ${items(m[2]!)} #${m[3]}`);
    }
    const ours = new Set(
      apriori(rows, {
        minSupport: 0.01,
        minConfidence: 0.9,
        ...(classRules ? { consequentAttribute: "label" } : {}),
      }).map(
        (r) =>
          `${items(r.antecedent.map(([a, v]) => `${a}=${v}`).join(" "))} => ${items(r.consequent.map(([a, v]) => `${a}=${v}`).join(" "))} #${r.supportCount}`,
      ),
    );
    const onlyWeka = [...weka].filter((x) => !ours.has(x));
    const onlyOurs = [...ours].filter((x) => !weka.has(x));
    failed ||= onlyWeka.length + onlyOurs.length > 0;
    console.log(
      `${classRules ? "class rules" : "all rules"}: weka ${weka.size}, ours ${ours.size}, only weka ${onlyWeka.length}, only ours ${onlyOurs.length}`,
      onlyWeka.slice(0, 3),
      onlyOurs.slice(0, 3),
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
