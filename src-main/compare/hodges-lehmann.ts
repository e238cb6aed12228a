/**
 * The Hodges–Lehmann estimate of the shift between two samples — the median of all n·m pairwise
 * differences b_j − a_i — and its distribution-free confidence interval (Lehmann 1963; Hollander &
 * Wolfe, "Nonparametric Statistical Methods", §4.3): the interval between the (k+1)-th smallest and
 * the (k+1)-th largest difference, with k the lower critical value of the Mann–Whitney U
 * (normal approximation: k = ⌊n·m/2 − z_{1−α/2}·√(n·m·(n+m+1)/12)⌋).
 *
 * n·m differences are never materialised (100 000 GCs a side would be 10^10): the k-th smallest
 * difference is found by bisection on its value, counting the pairs at or below a candidate in
 * O(n + m) with two pointers over the sorted samples, then snapping to the largest difference at
 * or below the bracket (floating-point subtraction is monotone, so the count is exact).
 */
import { normalQuantile } from './distributions.js';

export interface ShiftEstimate {
  /** Median of b − a (B minus A: positive when B is larger). */
  shift: number;
  /** Confidence interval of the shift; null when the samples are too small for the level. */
  ci: [number, number] | null;
}

function sorted(x: ArrayLike<number>): Float64Array {
  return Float64Array.from(x).sort();
}

/** How many pairs have b_j − a_i ≤ t (a, b sorted ascending). */
function countAtOrBelow(a: Float64Array, b: Float64Array, t: number): number {
  // For each b_j, the A values with b_j − a_i ≤ t are a suffix of A; its start moves right as b_j grows.
  let i = 0;
  let count = 0;
  for (let j = 0; j < b.length; j++) {
    while (i < a.length && b[j]! - a[i]! > t) i++;
    count += a.length - i;
  }
  return count;
}

/** The largest difference b_j − a_i that is ≤ t (−Infinity when none is). */
function largestAtOrBelow(a: Float64Array, b: Float64Array, t: number): number {
  let i = 0;
  let best = -Infinity;
  for (let j = 0; j < b.length; j++) {
    while (i < a.length && b[j]! - a[i]! > t) i++;
    // a_i is the smallest A value with b_j − a_i ≤ t, so b_j − a_i is the largest such difference for this j.
    if (i < a.length) best = Math.max(best, b[j]! - a[i]!);
  }
  return best;
}

/** The k-th smallest (0-based) of the n·m differences b_j − a_i, for sorted a and b. */
export function kthDifference(a: Float64Array, b: Float64Array, k: number): number {
  const total = a.length * b.length;
  if (!(k >= 0 && k < total)) throw new RangeError(`k = ${k} is outside 0…${total - 1}`);
  let hi = b[b.length - 1]! - a[0]!; // the largest difference: count(hi) = total ≥ k + 1
  let lo = b[0]! - a[a.length - 1]!; // the smallest
  if (countAtOrBelow(a, b, lo) >= k + 1) return lo;
  // Invariant: count(lo) < k + 1 ≤ count(hi).
  for (let iter = 0; iter < 2200; iter++) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    if (countAtOrBelow(a, b, mid) >= k + 1) hi = mid;
    else lo = mid;
  }
  return largestAtOrBelow(a, b, hi);
}

export function hodgesLehmann(aIn: ArrayLike<number>, bIn: ArrayLike<number>, level = 0.95): ShiftEstimate {
  const a = sorted(aIn);
  const b = sorted(bIn);
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) throw new RangeError('hodgesLehmann needs two non-empty samples');
  const total = n * m;
  const shift = total % 2 === 1 ? kthDifference(a, b, (total - 1) / 2) : (kthDifference(a, b, total / 2 - 1) + kthDifference(a, b, total / 2)) / 2;
  const z = normalQuantile(1 - (1 - level) / 2);
  const k = Math.floor(total / 2 - z * Math.sqrt((total * (n + m + 1)) / 12));
  const ci: [number, number] | null = k < 0 ? null : [kthDifference(a, b, k), kthDifference(a, b, total - 1 - k)];
  return { shift, ci };
}
