/**
 * The comparison's statistics against values computed independently: SciPy 1.10 and brute force
 * in NumPy (test/compare/reference/make-reference.py, which says how statistics.json was made),
 * plus two published examples: R's wilcox.test help-page data (W = 35, one-sided p = 0.1272, so
 * two-sided 0.2544) and Benjamini & Hochberg's 15 p-values (4 rejections at q = 0.05).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { blockResample, bootstrapTwoSample, mulberry32 } from '../../src-main/compare/bootstrap.js';
import { logGamma, normalCdf, normalQuantile, regularizedBeta } from '../../src-main/compare/distributions.js';
import { hodgesLehmann, kthDifference } from '../../src-main/compare/hodges-lehmann.js';
import { benjaminiHochberg } from '../../src-main/compare/multiple-testing.js';
import { quantileSelect, quantileSorted } from '../../src-main/compare/quantile.js';
import { mannWhitney } from '../../src-main/compare/rank-test.js';
import { rateRatio } from '../../src-main/compare/rate-test.js';

interface Reference {
  normalCdf: [number, number][];
  normalQuantile: [number, number][];
  logGamma: [number, number][];
  regularizedBeta: [number, number, number, number][];
  mannWhitney: { name: string; a: number[]; b: number[]; uB: number; p: number; method: 'exact' | 'normal' }[];
  hodgesLehmann: { name: string; shift: number; ci: [number, number] | null }[];
  rateRatio: { kA: number; eA: number; kB: number; eB: number; p: number; ratio: number; ci: [number, number] }[];
  mulberry32_seed42: number[];
  bootstrapReplay: {
    q: number;
    seed: number;
    resamples: number;
    blockLengthA: number;
    blockLengthB: number;
    ratio: [number, number];
    difference: [number, number];
  }[];
  scipyBootstrapP90Ratio: [number, number];
  benjaminiHochberg: { p: number[]; adjusted: number[]; rejectedAtQ05: number };
}

const ref = JSON.parse(readFileSync(new URL('./reference/statistics.json', import.meta.url), 'utf8')) as Reference;

const close = (actual: number, expected: number, rel: number, abs = 0): void => {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(Math.max(abs, rel * Math.abs(expected)));
};

describe('distributions behind the p-values match SciPy', () => {
  it('normal CDF (to 1e-12 relative, far tails included) and quantile', () => {
    for (const [z, p] of ref.normalCdf) close(normalCdf(z), p, 1e-12);
    for (const [p, z] of ref.normalQuantile) close(normalQuantile(p), z, 1e-9);
  });

  it('log-gamma and the regularized incomplete beta', () => {
    for (const [x, v] of ref.logGamma) close(logGamma(x), v, 1e-12, 1e-14);
    for (const [x, a, b, v] of ref.regularizedBeta) close(regularizedBeta(x, a, b), v, 1e-9);
  });
});

describe('Mann–Whitney U: the rank test that says whether pauses moved', () => {
  it.each(ref.mannWhitney.map((c) => [c.name, c] as const))('%s: U and the two-sided p-value equal SciPy’s', (_name, c) => {
    const t = mannWhitney(c.a, c.b);
    expect(t.method).toBe(c.method);
    expect(t.uB).toBe(c.uB);
    close(t.pValue, c.p, 1e-9);
  });

  it("R's help-page example: W = 35 for x (so U = 15 for y), one-sided p = 0.1272", () => {
    const c = ref.mannWhitney[1]!;
    const t = mannWhitney(c.a, c.b);
    expect(c.a.length * c.b.length - t.uB).toBe(35);
    expect(t.pValue / 2).toBeCloseTo(0.1272, 4);
  });

  it("Cliff's delta is +1 when every B value is larger, −1 when every one is smaller", () => {
    expect(mannWhitney([1, 2, 3], [4, 5]).cliffsDelta).toBe(1);
    expect(mannWhitney([4, 5], [1, 2, 3]).cliffsDelta).toBe(-1);
  });
});

describe('Hodges–Lehmann shift and its interval', () => {
  it.each(ref.hodgesLehmann.map((c, i) => [c.name, c, ref.mannWhitney[i]!] as const))(
    '%s: equals the brute-force median and order statistics of all n·m differences',
    (_name, c, data) => {
      const e = hodgesLehmann(data.a, data.b);
      close(e.shift, c.shift, 1e-12);
      if (c.ci === null) expect(e.ci).toBeNull();
      else {
        close(e.ci![0], c.ci[0], 1e-12);
        close(e.ci![1], c.ci[1], 1e-12);
      }
    },
  );

  it('selects every order statistic of the differences exactly (against sorting all of them)', () => {
    const rand = mulberry32(9);
    const a = Float64Array.from({ length: 37 }, () => Math.round(rand() * 50) / 10).sort();
    const b = Float64Array.from({ length: 23 }, () => Math.round(rand() * 70) / 10).sort();
    const all: number[] = [];
    for (const y of b) for (const x of a) all.push(y - x);
    all.sort((x, y) => x - y);
    for (let k = 0; k < all.length; k++) expect(kthDifference(a, b, k)).toBe(all[k]);
  });
});

describe('rate ratio of counts per exposure (GCs per GB allocated)', () => {
  it.each(ref.rateRatio.map((c) => [`${c.kA}/${c.eA} vs ${c.kB}/${c.eB}`, c] as const))('%s: p-value and exact interval equal SciPy’s binomtest', (_n, c) => {
    const r = rateRatio(c.kA, c.eA, c.kB, c.eB);
    close(r.pValue, c.p, 1e-8);
    close(r.ratio!, c.ratio, 1e-12);
    close(r.ci![0], c.ci[0], 1e-7);
    close(r.ci![1], c.ci[1], 1e-7);
  });
});

describe('seeded moving-block bootstrap', () => {
  it('mulberry32 gives the published sequence for seed 42 (replayed in Python)', () => {
    const g = mulberry32(42);
    for (const v of ref.mulberry32_seed42) expect(g()).toBe(v);
  });

  it.each(ref.bootstrapReplay.map((c) => [`q=${c.q} seed=${c.seed} blocks ${c.blockLengthA}/${c.blockLengthB}`, c] as const))(
    '%s: the interval equals an independent replay of the same resamples',
    (_n, c) => {
      const data = ref.mannWhitney[3]!;
      const r = bootstrapTwoSample(data.a, data.b, (x) => quantileSorted(x.sort(), c.q), {
        resamples: c.resamples,
        seed: c.seed,
        level: 0.95,
        blockLengthA: c.blockLengthA,
        blockLengthB: c.blockLengthB,
      });
      close(r.ratio![0], c.ratio[0], 1e-12);
      close(r.ratio![1], c.ratio[1], 1e-12);
      close(r.difference[0], c.difference[0], 1e-12);
      close(r.difference[1], c.difference[1], 1e-12);
    },
  );

  it('is reproducible: the same seed gives the same interval, another seed a different one', () => {
    const data = ref.mannWhitney[3]!;
    const run = (seed: number) => bootstrapTwoSample(data.a, data.b, (x) => quantileSorted(x.sort(), 0.9), { resamples: 300, seed, level: 0.95 });
    expect(run(5)).toEqual(run(5));
    expect(run(5)).not.toEqual(run(6));
  });

  it('with single-GC blocks, agrees with SciPy’s own percentile bootstrap of the p90 ratio (within Monte Carlo error)', () => {
    const data = ref.mannWhitney[3]!;
    const r = bootstrapTwoSample(data.a, data.b, (x) => quantileSorted(x.sort(), 0.9), {
      resamples: 20000,
      seed: 3,
      level: 0.95,
      blockLengthA: 1,
      blockLengthB: 1,
    });
    const [lo, hi] = ref.scipyBootstrapP90Ratio;
    const width = hi - lo;
    expect(Math.abs(r.ratio![0] - lo)).toBeLessThan(0.05 * width);
    expect(Math.abs(r.ratio![1] - hi)).toBeLessThan(0.05 * width);
  });

  it('blocks copy runs of consecutive values', () => {
    const x = Float64Array.from({ length: 10 }, (_, i) => i);
    const out = blockResample(x, 5, mulberry32(1), new Float64Array(10));
    for (const start of [0, 5]) for (let k = 1; k < 5; k++) expect(out[start + k]).toBe(out[start]! + k);
  });
});

describe('quantiles', () => {
  it('by selection equal those by sorting, ties and every q included', () => {
    const rand = mulberry32(11);
    for (const n of [1, 2, 3, 10, 101, 1000]) {
      const x = Float64Array.from({ length: n }, () => Math.round(rand() * 20) / 4);
      const sorted = Float64Array.from(x).sort();
      for (const q of [0, 0.01, 0.1, 0.25, 0.5, 0.9, 0.99, 1]) expect(quantileSelect(Float64Array.from(x), q)).toBe(quantileSorted(sorted, q));
    }
  });
});

describe('Benjamini–Hochberg adjustment', () => {
  it("rejects 4 of the paper's 15 hypotheses at q = 0.05, with the adjusted values of the step-up rule", () => {
    const adj = benjaminiHochberg(ref.benjaminiHochberg.p);
    expect(adj.filter((v) => v <= 0.05)).toHaveLength(4);
    expect(ref.benjaminiHochberg.rejectedAtQ05).toBe(4);
    adj.forEach((v, i) => close(v, ref.benjaminiHochberg.adjusted[i]!, 1e-12));
  });
});
