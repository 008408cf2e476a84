// DUNE's parameters, each default written once, with the paper section it comes from. Results carry the values
// that made them (IqrFlagsResult, DeviationLabelsResult, AprioriReport) so charts and reports read them there.
export const DUNE = {
  /** OF, the IQR outlier factor: fences at Q1 − OF·IQR and Q3 + OF·IQR (§5.3.3). */
  outlierFactor: 1.5,
  /** Quartile method: Hyndman–Fan type 6 reproduces the paper's worked example (§5.3.3; iqr.ts). */
  quartileMethod: "hf6",
  /** The similarity cluster a run is compared against: 0, the most similar (§5.3.2). */
  cluster: 0,
  /** Apriori minimum support, a fraction of all rows (§8.2). */
  minSupport: 0.01,
  /** Apriori minimum confidence (§5.4; Weka's default too). */
  minConfidence: 0.9,
  /** Last-resort jank deadline, ms: one 60 Hz period (the paper uses 16 ms, §5.2.2). */
  fixedDeadlineMs: 16.67,
} as const;
