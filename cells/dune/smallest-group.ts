// The smallest comparison group that can flag anything (DUNE §5.3.3). The new run's value is among the values
// the quartiles are taken from (the paper's worked example: {448, 453, 450, 457, 430, 270}), so with few history
// runs the new value pulls Q3 (or Q1) towards itself and can never pass its own fence: with the Hyndman-Fan
// type 6 quartiles and OF = 1.5, four history runs or fewer never flag, whatever the values (even 10^9 against
// 1). The most favourable history for a flag is one whose values are all equal (it adds nothing to the IQR), so
// the smallest group is the smallest h whose h equal values plus one other are flagged.
import { DUNE } from "./defaults";
import { iqrFlags, type QuartileMethod } from "./iqr";

/** Largest history searched; a group needing more would be a parameter error (OF in the hundreds). */
const MAX_HISTORY = 10_000;

/** The fewest history runs in a comparison group for which a new run can be labelled Outlier+ or Outlier−. */
export function smallestFlaggingGroup(
  options: { outlierFactor?: number; method?: QuartileMethod } = {},
): number {
  const outlierFactor = options.outlierFactor ?? DUNE.outlierFactor;
  const method = options.method ?? DUNE.quartileMethod;
  for (let h = 1; h <= MAX_HISTORY; h++) {
    const values = new Float64Array(h + 1);
    values[h] = 1;
    if (iqrFlags(values, { outlierFactor, method }).flags[h] !== 0) return h;
  }
  throw new Error(`no comparison group of up to ${MAX_HISTORY} runs can flag at OF = ${outlierFactor}`);
}
