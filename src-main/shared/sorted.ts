/**
 * Binary search over ascending arrays: series times and GC numbers, lane x values, picked series
 * indexes, the live summary's sorted pauses. One pair of functions for every such question, so
 * "at or after" and "after" mean the same everywhere.
 */

/** The first index below `n` whose value is at least `v` (`n` when none is). */
export function lowerBound(a: ArrayLike<number>, v: number, n = a.length): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index below `n` whose value is above `v` (`n` when none is). */
export function upperBound(a: ArrayLike<number>, v: number, n = a.length): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
