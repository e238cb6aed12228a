/**
 * The Mann–Whitney U test (Wilcoxon rank-sum) of two independent samples, two-sided, with Cliff's δ
 * as its effect size. U is counted for B: the number of (a, b) pairs with b > a, ties counting ½,
 * so U_B > n·m/2 means B tends to be larger. The p-value is exact (the permutation distribution of
 * U) when there are no ties and both samples are small, else the normal approximation with the
 * tie correction of the variance and a continuity correction — SciPy's `mannwhitneyu(…,
 * method='exact' | 'asymptotic', use_continuity=True)`, which test/compare checks against.
 */
import { normalSf } from './distributions.js';

export interface RankTest {
  /** U of B (pairs with b > a, ties ½). */
  uB: number;
  /** Two-sided p-value. */
  pValue: number;
  method: 'exact' | 'normal';
  /** Cliff's δ = 2·U_B/(n·m) − 1 in [−1, 1]: positive when B tends to be larger. */
  cliffsDelta: number;
  /** z of the normal approximation (null when exact). */
  z: number | null;
}

/** Samples up to this size (each) without ties get the exact distribution. */
export const EXACT_MAX = 20;

/** Average ranks (1-based) of the pooled sample, and Σ(t³ − t) over tie groups. */
function rankPooled(a: ArrayLike<number>, b: ArrayLike<number>): { rankSumB: number; tieTerm: number } {
  const n = a.length;
  const m = b.length;
  const v = new Float64Array(n + m);
  for (let i = 0; i < n; i++) v[i] = a[i]!;
  for (let j = 0; j < m; j++) v[n + j] = b[j]!;
  const order = Array.from({ length: n + m }, (_, i) => i).sort((x, y) => v[x]! - v[y]!);
  let rankSumB = 0;
  let tieTerm = 0;
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && v[order[j + 1]!] === v[order[i]!]) j++;
    const t = j - i + 1;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (order[k]! >= n) rankSumB += rank;
    if (t > 1) tieTerm += t * t * t - t;
    i = j + 1;
  }
  return { rankSumB, tieTerm };
}

/**
 * Counts of each U value for sample sizes n and m with no ties (the number of arrangements of the
 * pooled ranks that give U = u), by the recurrence f(n, m, u) = f(n − 1, m, u − m) + f(n, m − 1, u).
 */
function exactCounts(n: number, m: number): Float64Array {
  // f[i][j] over u: build up from (0, j) and (i, 0), where the only arrangement gives U = 0.
  let prev: Float64Array[] = [];
  for (let i = 0; i <= n; i++) {
    const row: Float64Array[] = [];
    for (let j = 0; j <= m; j++) {
      const f = new Float64Array(i * j + 1);
      if (i === 0 || j === 0) f[0] = 1;
      else {
        const up = prev[j]!; // sizes (i − 1, j)
        const left = row[j - 1]!; // sizes (i, j − 1)
        // Largest pooled value belongs to B: it beats all i values of A → U += i.
        for (let u = 0; u < left.length; u++) f[u + i] = f[u + i]! + left[u]!;
        // Largest belongs to A: it adds nothing to U_B.
        for (let u = 0; u < up.length; u++) f[u] = f[u]! + up[u]!;
      }
      row.push(f);
    }
    prev = row;
  }
  return prev[m]!;
}

export function mannWhitney(a: ArrayLike<number>, b: ArrayLike<number>): RankTest {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) throw new RangeError('mannWhitney needs two non-empty samples');
  const { rankSumB, tieTerm } = rankPooled(a, b);
  const uB = rankSumB - (m * (m + 1)) / 2;
  const nm = n * m;
  const cliffsDelta = (2 * uB) / nm - 1;
  const uMax = Math.max(uB, nm - uB);
  if (tieTerm === 0 && n <= EXACT_MAX && m <= EXACT_MAX) {
    const f = exactCounts(n, m);
    let total = 0;
    let tail = 0;
    for (let u = 0; u < f.length; u++) {
      total += f[u]!;
      if (u >= uMax) tail += f[u]!;
    }
    return { uB, pValue: Math.min(1, (2 * tail) / total), method: 'exact', cliffsDelta, z: null };
  }
  const N = n + m;
  const sigma = Math.sqrt((nm / 12) * (N + 1 - tieTerm / (N * (N - 1))));
  if (sigma === 0) return { uB, pValue: 1, method: 'normal', cliffsDelta, z: 0 };
  const z = (uMax - nm / 2 - 0.5) / sigma;
  return { uB, pValue: Math.min(1, 2 * normalSf(z)), method: 'normal', cliffsDelta, z };
}
