/** Small statistics the rules share (pure). */
import { lowerBound } from '../shared/sorted.js';

export { lowerBound };

/** Median of the finite values; NaN when there are none. */
export function median(values: ArrayLike<number>): number {
  // A typed array sorts numerically without a comparator call per comparison: a 100,000-GC
  // session's diagnosis spent ~300 ms in this sort as a number[] with (x, y) => x - y.
  const all = new Float64Array(values.length);
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (Number.isFinite(v)) all[n++] = v;
  }
  if (n === 0) return Number.NaN;
  const a = all.subarray(0, n).sort();
  const m = n >> 1;
  const r = n % 2 === 1 ? a[m]! : (a[m - 1]! + a[m]!) / 2;
  // The typed sort puts -0 before 0, where the comparator kept their order: the same median, signless.
  return r === 0 ? 0 : r;
}

export interface LinearFit {
  slope: number;
  intercept: number;
  /** Coefficient of determination (1 for a perfect line; 0 when x or y does not vary). */
  r2: number;
  n: number;
}

/** Ordinary least squares y = intercept + slope·x. */
export function leastSquares(x: readonly number[], y: readonly number[]): LinearFit {
  const n = x.length;
  if (n < 2) return { slope: 0, intercept: n === 1 ? y[0]! : 0, r2: 0, n };
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i++) {
    sx += x[i]!;
    sy += y[i]!;
  }
  const mx = sx / n;
  const my = sy / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - mx;
    const dy = y[i]! - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (sxx === 0) return { slope: 0, intercept: my, r2: 0, n };
  const slope = sxy / sxx;
  const r2 = syy === 0 ? 0 : (sxy * sxy) / (sxx * syy);
  return { slope, intercept: my - slope * mx, r2, n };
}

/**
 * `v ≥ limit`, forgiving the last bits of floating-point error: a share computed as 1.0 / 10 of
 * sums that should be exactly at a threshold counts as at it (thresholds are user-set decimals).
 */
export function atLeast(v: number, limit: number): boolean {
  return v >= limit - 1e-9 * Math.max(1, Math.abs(limit));
}

/** The median of the last `window` values pushed, kept sorted as values come and go (O(window) a push). */
export class RollingMedian {
  private readonly fifo: number[] = [];
  private readonly sorted: number[] = [];

  constructor(private readonly window: number) {}

  get size(): number {
    return this.fifo.length;
  }

  push(v: number): void {
    this.fifo.push(v);
    this.sorted.splice(lowerBound(this.sorted, v), 0, v);
    if (this.fifo.length > Math.max(1, this.window)) {
      const old = this.fifo.shift()!;
      this.sorted.splice(lowerBound(this.sorted, old), 1);
    }
  }

  median(): number {
    const a = this.sorted;
    if (a.length === 0) return Number.NaN;
    const m = a.length >> 1;
    return a.length % 2 === 1 ? a[m]! : (a[m - 1]! + a[m]!) / 2;
  }
}
