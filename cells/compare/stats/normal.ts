// The standard normal distribution's tail, for rank-test and bootstrap p-values.

/** erfc(x) for x ≥ 0, Numerical Recipes' Chebyshev fit (fractional error < 1.2e-7 everywhere). */
function erfcPositive(x: number): number {
  const t = 1 / (1 + 0.5 * x);
  const y =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return y;
}

/** P(Z ≥ z) for a standard normal Z. */
export function normalUpperTail(z: number): number {
  if (Number.isNaN(z)) return NaN;
  const x = z / Math.SQRT2;
  return x >= 0 ? 0.5 * erfcPositive(x) : 1 - 0.5 * erfcPositive(-x);
}

/** Two-sided p-value of a z statistic, 2 P(Z ≥ |z|), at most 1. */
export const twoSidedP = (z: number) => Math.min(1, 2 * normalUpperTail(Math.abs(z)));
