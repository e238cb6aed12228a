/**
 * Seeded moving-block bootstrap (Künsch 1989) for a statistic of two independent series: GCs are
 * autocorrelated (a burst of allocation brings several long pauses together), so resampling single
 * GCs would make intervals too narrow; blocks of consecutive GCs keep that structure. Each
 * replicate resamples A, then B (blocks of length L placed end to end from uniformly chosen
 * starts, cut to the series' length), and the interval is the percentile interval of the
 * replicates' B/A ratio (and B − A difference), quantiles by type 7.
 *
 * The generator is mulberry32 (a 32-bit state, public domain), so a comparison is reproducible
 * from its seed and test/compare/reference/make-reference.py can replay the exact replicates.
 */
import { quantileSorted } from './quantile.js';

/** mulberry32: a uniform double in [0, 1) per call, from a 32-bit seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The default block length: n^{1/3} rounded, at least 1 (Hall, Horowitz & Jing 1995's order for variance and intervals). */
export function defaultBlockLength(n: number): number {
  return Math.max(1, Math.round(Math.cbrt(n)));
}

/** One moving-block resample of x (length n) into out. */
export function blockResample(x: ArrayLike<number>, blockLength: number, rand: () => number, out: Float64Array): Float64Array {
  const n = x.length;
  const L = Math.min(Math.max(1, blockLength), n);
  const starts = n - L + 1;
  for (let filled = 0; filled < n;) {
    const s = Math.floor(rand() * starts);
    for (let k = 0; k < L && filled < n; k++) out[filled++] = x[s + k]!;
  }
  return out;
}

export interface BootstrapOptions {
  resamples: number;
  seed: number;
  /** Confidence level, e.g. 0.95. */
  level: number;
  /** Block lengths for A and B (default n^{1/3} each). */
  blockLengthA?: number;
  blockLengthB?: number;
}

export interface BootstrapInterval {
  /** Percentile interval of stat(B*) / stat(A*); null when too many replicates had stat(A*) = 0. */
  ratio: [number, number] | null;
  /** Percentile interval of stat(B*) − stat(A*). */
  difference: [number, number];
}

/**
 * Percentile intervals of the ratio and difference of `stat` between B and A. `stat` receives
 * a scratch array it may reorder (sort in place): it is refilled before every call.
 */
export function bootstrapTwoSample(a: ArrayLike<number>, b: ArrayLike<number>, stat: (x: Float64Array) => number, o: BootstrapOptions): BootstrapInterval {
  if (a.length === 0 || b.length === 0) throw new RangeError('bootstrapTwoSample needs two non-empty samples');
  const rand = mulberry32(o.seed);
  const la = o.blockLengthA ?? defaultBlockLength(a.length);
  const lb = o.blockLengthB ?? defaultBlockLength(b.length);
  const sa = new Float64Array(a.length);
  const sb = new Float64Array(b.length);
  const ratios: number[] = [];
  const diffs = new Float64Array(o.resamples);
  for (let r = 0; r < o.resamples; r++) {
    const va = stat(blockResample(a, la, rand, sa));
    const vb = stat(blockResample(b, lb, rand, sb));
    diffs[r] = vb - va;
    if (va !== 0) ratios.push(vb / va);
  }
  const lo = (1 - o.level) / 2;
  diffs.sort();
  const ratioSorted = Float64Array.from(ratios).sort();
  // More than 1 % of replicates without a ratio: no interval rather than one from a biased subset.
  const ratio: [number, number] | null = ratios.length >= 0.99 * o.resamples ? [quantileSorted(ratioSorted, lo), quantileSorted(ratioSorted, 1 - lo)] : null;
  return { ratio, difference: [quantileSorted(diffs, lo), quantileSorted(diffs, 1 - lo)] };
}
