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
