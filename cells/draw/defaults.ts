// DRAW's parameters, each default written once, with the paper section it comes from. Results carry the values
// that made them (LearntGraph.bins and .maxParents, RootCauseResult.metric).
export const DRAW = {
  /** Equal-frequency bins per variable before structure learning (§V-B: features are discretised). */
  bins: 3,
  /** Most parents per node in the hill-climbing search (§V-B; bounds the BIC tables). */
  maxParents: 3,
  /** Most hill-climbing moves: a safety stop, never reached in practice. */
  maxMoves: 10_000,
  /** The performance metric diagnosed: p1, rendering time (§V-A); p2 is the average frame rate. */
  metric: "rendering_time",
  /** Views shown in the RES and RCS rankings: the paper reports culprits within its top 15 (§VI). */
  top: 15,
} as const;
