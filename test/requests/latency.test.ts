/**
 * The overlap arithmetic of requests/latency.ts against a brute-force computation on generated
 * spans and pauses (a seeded generator: every run checks the same 200 cases), and the summary's
 * percentiles and tail shares against their definitions.
 */
import { describe, expect, it } from 'vitest';
import { attributePauses, percentile, slowest, slowestK, summarizeLatency } from '../../src-main/requests/latency.js';
import type { PauseInterval, RequestSpan } from '../../src-main/shared/requests.js';

/** mulberry32: a small seeded PRNG, so a failure names a case that reproduces. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generate(seed: number): { spans: RequestSpan[]; pauses: PauseInterval[] } {
  const r = rng(seed);
  const pauses: PauseInterval[] = [];
  let t = r() * 5;
  const nPauses = Math.floor(r() * 40);
  for (let i = 0; i < nPauses; i++) {
    t += r() * 30; // gaps, sometimes none (back-to-back pauses)
    const len = r() < 0.1 ? 0.001 : r() * 20;
    // A background GC's pauses share its number; sometimes a GC has two pauses.
    const gcNumber = i > 0 && r() < 0.2 ? pauses[i - 1]!.gcNumber : i + 1;
    pauses.push({ startMSec: t, endMSec: t + len, gcNumber, generation: Math.floor(r() * 3), type: r() < 0.2 ? 1 : 0 });
    t += len;
  }
  const spans: RequestSpan[] = [];
  const nSpans = Math.floor(r() * 200);
  for (let i = 0; i < nSpans; i++) {
    const start = r() * (t + 20) - 10;
    const dur = r() < 0.05 ? 0 : r() < 0.1 ? r() * 300 : r() * 15;
    spans.push({ startMSec: start, durationMSec: dur, group: 'g', name: `r${i}` });
  }
  return { spans, pauses };
}

function bruteForce(spans: RequestSpan[], pauses: PauseInterval[]): { perRequest: number[]; perGc: Map<number, { requests: number; delay: number }> } {
  const perGc = new Map<number, { requests: number; delay: number }>();
  const perRequest = spans.map((s) => {
    let sum = 0;
    const gcs = new Set<number>();
    for (const p of pauses) {
      const o = Math.max(0, Math.min(s.startMSec + s.durationMSec, p.endMSec) - Math.max(s.startMSec, p.startMSec));
      if (o > 0) {
        sum += o;
        gcs.add(p.gcNumber);
        const g = perGc.get(p.gcNumber) ?? { requests: 0, delay: 0 };
        g.delay += o;
        perGc.set(p.gcNumber, g);
      }
    }
    for (const n of gcs) perGc.get(n)!.requests++;
    return sum;
  });
  return { perRequest, perGc };
}

describe('GC pause time attributed to requests', () => {
  it('equals a brute-force sum of every span × pause overlap, per request and per GC (200 generated cases)', () => {
    let checked = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const { spans, pauses } = generate(seed);
      const a = attributePauses(spans, pauses);
      const b = bruteForce(spans, pauses);
      expect(a.requests.length, `seed ${seed}`).toBe(spans.length);
      a.requests.forEach((q, i) => {
        expect(q.gcPauseMSec, `seed ${seed} request ${i}`).toBeCloseTo(b.perRequest[i]!, 9);
        // Never more GC time than the request lasted.
        expect(q.gcPauseMSec).toBeLessThanOrEqual(q.durationMSec + 1e-9);
      });
      for (const g of a.gcs) {
        const want = b.perGc.get(g.gcNumber) ?? { requests: 0, delay: 0 };
        expect(g.requests, `seed ${seed} GC ${g.gcNumber}`).toBe(want.requests);
        expect(g.requestDelayMSec, `seed ${seed} GC ${g.gcNumber}`).toBeCloseTo(want.delay, 9);
        const pauseSum = pauses.filter((p) => p.gcNumber === g.gcNumber).reduce((s, p) => s + p.endMSec - p.startMSec, 0);
        expect(g.pauseMSec).toBeCloseTo(pauseSum, 9);
      }
      expect(new Set(a.gcs.map((g) => g.gcNumber))).toEqual(new Set(pauses.map((p) => p.gcNumber)));
      checked += spans.length;
    }
    expect(checked).toBeGreaterThan(15_000);
  });

  it('a request wholly inside a pause is all GC; one between pauses has none; one spanning two pauses gets both', () => {
    const pauses: PauseInterval[] = [
      { startMSec: 10, endMSec: 20, gcNumber: 1, generation: 0, type: 0 },
      { startMSec: 30, endMSec: 35, gcNumber: 2, generation: 2, type: 0 },
    ];
    const spans: RequestSpan[] = [
      { startMSec: 12, durationMSec: 3, group: 'g', name: 'inside' },
      { startMSec: 21, durationMSec: 8, group: 'g', name: 'between' },
      { startMSec: 15, durationMSec: 25, group: 'g', name: 'both' },
    ];
    const a = attributePauses(spans, pauses);
    expect(a.requests.map((r) => [r.name, r.gcPauseMSec, r.gcNumbers])).toEqual([
      ['inside', 3, [1]],
      ['between', 0, []],
      ['both', 10, [1, 2]],
    ]);
    expect(a.gcs.map((g) => [g.gcNumber, g.requests, g.requestDelayMSec])).toEqual([
      [1, 2, 8],
      [2, 1, 5],
    ]);
  });
});

describe('latency percentiles and the GC share of the tail', () => {
  it('percentiles are nearest-rank: an actual latency with at least p·n requests at or below it', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const r = rng(seed);
      const v = Array.from({ length: 1 + Math.floor(r() * 500) }, () => Math.round(r() * 1000) / 10).sort((a, b) => a - b);
      for (const p of [0.5, 0.9, 0.99, 0.999, 1]) {
        const x = percentile(v, p)!;
        expect(v).toContain(x);
        expect(v.filter((y) => y <= x).length).toBeGreaterThanOrEqual(Math.ceil(p * v.length));
        expect(v.filter((y) => y < x).length).toBeLessThan(Math.ceil(p * v.length));
      }
    }
    expect(percentile([], 0.99)).toBeNull();
  });

  it('the slowest 1 % and 5 % are the ceil(n/100) and ceil(n/20) longest requests, and their GC share is their pause time over their latency', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const { spans, pauses } = generate(seed);
      const a = attributePauses(spans, pauses).requests;
      const s = summarizeLatency(a);
      expect(s.count).toBe(spans.length);
      if (a.length === 0) {
        expect(s.slowest1Percent.share).toBeNull();
        continue;
      }
      const byLatency = [...a].sort((x, y) => y.durationMSec - x.durationMSec);
      for (const [frac, got] of [
        [0.01, s.slowest1Percent],
        [0.05, s.slowest5Percent],
        [1, s.all],
      ] as const) {
        const k = Math.max(1, Math.ceil(a.length * frac));
        const tail = byLatency.slice(0, k);
        expect(got.count).toBe(k);
        const lat = tail.reduce((x, q) => x + q.durationMSec, 0);
        const gc = tail.reduce((x, q) => x + q.gcPauseMSec, 0);
        expect(got.latencyMSec).toBeCloseTo(lat, 9);
        expect(got.share ?? 0).toBeCloseTo(lat > 0 ? gc / lat : 0, 9);
      }
      expect(slowest(a, 0.01).map((q) => q.durationMSec)).toEqual(byLatency.slice(0, Math.max(1, Math.ceil(a.length / 100))).map((q) => q.durationMSec));
      // Without GC time no request is slower than it was.
      expect(s.latencyWithoutGc.max!).toBeLessThanOrEqual(s.latency.max! + 1e-9);
    }
  });

  it('the k slowest are the same requests in the same order as sorting them all, ties broken by start, for every k', () => {
    // Three latencies only: the cut falls inside a run of equal ones for almost every k.
    const rs = Array.from({ length: 2000 }, (_, i) => ({ startMSec: (i * 7919) % 2000, durationMSec: 1 + ((i * 31) % 3) }));
    const all = [...rs].sort((a, b) => b.durationMSec - a.durationMSec || a.startMSec - b.startMSec);
    for (const k of [0, 1, 2, 19, 20, 100, 499, 500, 501, 666, 667, 1999, 2000, 2500]) expect(slowestK(rs, k)).toEqual(all.slice(0, k));
  });
});
