/**
 * Comparing two counts of events over different exposures (GCs per GB allocated): the conditional
 * binomial test of a Poisson rate ratio. Under H0 (equal rates), given k = k_A + k_B events,
 * k_B ~ Binomial(k, E_B/(E_A + E_B)). The p-value is the exact two-sided binomial test (the sum of
 * the probabilities no larger than the observed one, as SciPy's `binomtest`), and the interval of
 * the rate ratio comes from the exact Clopper–Pearson interval [π_lo, π_hi] of the binomial
 * proportion: RR = π/(1 − π) · E_A/E_B (Ederer & Mantel 1974).
 */
import { betaQuantile, binomialPmf } from './distributions.js';

export interface RateRatio {
  /** (k_B/E_B) / (k_A/E_A); null when A has no events. */
  ratio: number | null;
  ci: [number, number] | null;
  pValue: number;
}

/** Two-sided exact binomial test of k successes in n trials against p. */
export function binomialTest(k: number, n: number, p: number): number {
  if (n === 0) return 1;
  const observed = binomialPmf(k, n, p);
  // SciPy's relative tolerance, so values equal to the observed one up to rounding are counted.
  const limit = observed * (1 + 1e-7);
  let sum = 0;
  for (let i = 0; i <= n; i++) {
    const q = binomialPmf(i, n, p);
    if (q <= limit) sum += q;
  }
  return Math.min(1, sum);
}

/** Clopper–Pearson interval of a binomial proportion. */
export function clopperPearson(k: number, n: number, level: number): [number, number] {
  const alpha = 1 - level;
  const lo = k === 0 ? 0 : betaQuantile(alpha / 2, k, n - k + 1);
  const hi = k === n ? 1 : betaQuantile(1 - alpha / 2, k + 1, n - k);
  return [lo, hi];
}

export function rateRatio(kA: number, exposureA: number, kB: number, exposureB: number, level = 0.95): RateRatio {
  if (!(exposureA > 0 && exposureB > 0)) throw new RangeError('rateRatio needs positive exposures');
  const n = kA + kB;
  const p0 = exposureB / (exposureA + exposureB);
  const pValue = binomialTest(kB, n, p0);
  const ratio = kA === 0 ? null : kB / exposureB / (kA / exposureA);
  if (n === 0) return { ratio, ci: null, pValue };
  const [pl, ph] = clopperPearson(kB, n, level);
  const toRatio = (pi: number): number => (pi >= 1 ? Infinity : (pi / (1 - pi)) * (exposureA / exposureB));
  return { ratio, ci: [toRatio(pl), toRatio(ph)], pValue };
}
