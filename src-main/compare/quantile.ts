/**
 * Sample quantiles by linear interpolation between order statistics (Hyndman & Fan type 7: R's
 * default, NumPy's 'linear', and what GC.Analysis.API's Statistics.cs uses), on sorted data.
 */

/** The q-quantile (0 ≤ q ≤ 1) of ascending `sorted`; NaN when empty. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

export function quantile(values: ArrayLike<number>, q: number): number {
  return quantileSorted(Float64Array.from(values).sort(), q);
}

export function mean(values: ArrayLike<number>): number {
  if (values.length === 0) return Number.NaN;
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i]!;
  return s / values.length;
}

export function max(values: ArrayLike<number>): number {
  let m = -Infinity;
  for (let i = 0; i < values.length; i++) if (values[i]! > m) m = values[i]!;
  return values.length === 0 ? Number.NaN : m;
}

/**
 * The same type-7 quantile without sorting: quickselect (Hoare partition, median-of-three pivot)
 * puts the ⌊h⌋-th order statistic in place, and the next one is the smallest value to its right.
 * O(n) on average instead of O(n log n) — the bootstrap computes a quantile 4,000 times per
 * interval. Reorders `x` (the bootstrap's scratch array).
 */
export function quantileSelect(x: Float64Array, q: number): number {
  const n = x.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * q;
  const k = Math.floor(h);
  let lo = 0;
  let hi = n - 1;
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    // Median of three as the pivot value.
    const a = x[lo]!;
    const b = x[mid]!;
    const c = x[hi]!;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (x[i]! < pivot) i++;
      while (x[j]! > pivot) j--;
      if (i <= j) {
        const t = x[i]!;
        x[i] = x[j]!;
        x[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  const v = x[k]!;
  if (h === k || k + 1 >= n) return v;
  let next = Infinity;
  for (let m = k + 1; m < n; m++) if (x[m]! < next) next = x[m]!;
  return v + (h - k) * (next - v);
}
