// DiagDroid's parameters, each default written once, with the paper section it comes from. Results carry the
// values that made them (GroupReport.tauMs, .maxDistance) and every report and chart reads them from there.
export const DIAGDROID = {
  /** τ, ms: a group is anomalous when its max queuing or execution time exceeds it (§4.2: users notice 500 ms). */
  tauMs: 500,
  /**
   * Context clustering distance, frames. The paper gives no number; Figure 10's three UpdateLawList contexts, which
   * it says form one group, differ by two substituted frames (executeOnExecutor(Native Method) vs
   * executeOnExecutor(<Xposed>), AsyncTask.java:534 vs :539): 2 is the smallest bound that links them directly.
   */
  maxDistance: 2,
} as const;
