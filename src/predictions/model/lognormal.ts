/**
 * Log-normal durations: the defaults' shape, and the history generator's. A duration is
 * log-normal when its logarithm is normal: right-skewed, never negative, with a long tail of
 * late parcels, the shape transit times are commonly modelled with.
 */
export interface LogNormal {
  /** Mean of ln(duration in ms). */
  readonly mu: number;
  /** Standard deviation of ln(duration). */
  readonly sigma: number;
}

/** z of the standard normal's 90 % quantile. */
export const Z90 = 1.2815515655446004;

/** The log-normal with this median and 90 % quantile (both in ms, p90 > median). */
export function logNormalFromMedianP90(median: number, p90: number): LogNormal {
  return { mu: Math.log(median), sigma: Math.log(p90 / median) / Z90 };
}

export function logNormalQuantile(d: LogNormal, p: number): number {
  return Math.exp(d.mu + d.sigma * normalQuantile(p));
}

export function logNormalCdf(d: LogNormal, x: number): number {
  if (!(x > 0)) return 0;
  return normalCdf((Math.log(x) - d.mu) / d.sigma);
}

/** Standard normal CDF (erfc by the Numerical Recipes Chebyshev fit, error < 1.2e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const erfc =
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
                            t *
                              (-1.13520398 +
                                t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return z >= 0 ? 1 - erfc / 2 : erfc / 2;
}

/** Standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9). */
export function normalQuantile(p: number): number {
  if (p <= 0) return -Infinity;
  if (p >= 1) return Infinity;
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972,
    -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734,
    4.374664141464968, 2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
      ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    );
  }
  if (p > 1 - low) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    return (
      -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
      ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    );
  }
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
  );
}
