// The statistics ML insights are computed with: exponentially weighted baselines and normal tails.

/** EWMA mean and variance of a series (alpha weights the newest value). */
export function ewma(series: readonly number[], alpha = 0.3): { mean: number; variance: number } {
  let mean = series[0] ?? 0;
  let variance = 0;
  for (const x of series.slice(1)) {
    const diff = x - mean;
    const incr = alpha * diff;
    mean += incr;
    variance = (1 - alpha) * (variance + diff * incr);
  }
  return { mean, variance };
}

/** Standard normal CDF (Abramowitz–Stegun 7.1.26 through erf; error < 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) *
      t *
      Math.exp(-x * x);
  return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

export function mean(values: readonly number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}

export function sampleVariance(values: readonly number[]): number {
  if (values.length < 2) {
    return 0;
  }
  const m = mean(values);
  return values.reduce((a, b) => a + (b - m) ** 2, 0) / (values.length - 1);
}

/** Welch's z for the difference of two means (large-sample normal approximation). */
export function welchZ(a: readonly number[], b: readonly number[]): number {
  const se = Math.sqrt(sampleVariance(a) / a.length + sampleVariance(b) / b.length);
  return se === 0 ? 0 : (mean(a) - mean(b)) / se;
}

export const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
export const round3 = (x: number) => Math.round(x * 1000) / 1000;
