/**
 * The comparison model's own rules on small constructed inputs, where the right answer is known by
 * construction: findings in one side and not the other, a warm-up that never settles, pause
 * strata, and the --fail-if conditions.
 */
import { describe, expect, it } from 'vitest';
import { compareSessions, MAX_WINDOWS, type CompareInput } from '../../src-main/compare/comparison.js';
import { evaluateFailIf, FailIfError, parseFailIf } from '../../src-main/compare/fail-if.js';
import { stratumOf } from '../../src-main/compare/strata.js';
import { findWarmupEnd } from '../../src-main/compare/warmup.js';
import { mulberry32 } from '../../src-main/compare/bootstrap.js';
import type { CompareColumns } from '../../src-main/compare/comparison.js';
import { changeCell, noChangeHeadline, VERDICT_LABELS } from '../../src-main/shared/comparison.js';
import { describeInterval } from '../../src-main/compare/verdict.js';
import { describeWarmup, renderCompareText } from '../../src-main/report/compare-text.js';
import { renderCompareHtml } from '../../src-main/report/compare-html.js';

/** n gen0 GCs every 50 ms, pauses lognormal around `pauseMs`, 10 MB allocated each, steady live data. */
function columns(n: number, pauseMs: number, seed: number, lds: (k: number) => number = () => 5): CompareColumns {
  const rand = mulberry32(seed);
  const f = (g: (k: number) => number) => Float64Array.from({ length: n }, (_, k) => g(k));
  const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  return {
    complete: f(() => 1),
    time: f((k) => 1000 + k * 50),
    number: f((k) => k + 1),
    generation: f(() => 0),
    type: f(() => 0),
    reason: f(() => 0),
    pause: f(() => pauseMs * Math.exp(0.3 * normal())),
    allocated: f(() => 10),
    heapAfter: f(() => 20),
    heapPeak: f(() => 30),
    gen2: f((k) => lds(k)),
    loh: f(() => 0),
    heapCount: f(() => 1),
  };
}

const side = (label: string, c: CompareColumns, findings?: CompareInput['findings']): CompareInput => ({
  label,
  columns: c,
  ...(findings !== undefined ? { findings } : {}),
});

describe('the comparison model', () => {
  it('detects a doubled gen0 pause as "higher" with a shift interval excluding zero, and an equal one as no change', () => {
    const c = compareSessions(side('A', columns(400, 2, 1)), side('B', columns(400, 4, 2)));
    const m = c.metrics.find((x) => x.id === 'p50-pause-gen0')!;
    expect(m.verdict).toBe('higher');
    expect(m.interval!.ci![0]).toBeGreaterThan(0);
    expect(m.text).toMatch(/^gen0 median pause [\d.]+ ms longer in B \(95 % CI \+[\d.]+ ms to \+[\d.]+ ms\)$/);
    const same = compareSessions(side('A', columns(400, 2, 1)), side('B', columns(400, 2, 3)));
    expect(same.metrics.filter((x) => x.verdict === 'higher' || x.verdict === 'lower')).toEqual([]);
  });

  it('calls a significant gen0 pause change below the 0.1 ms threshold a "small change", never "no change"', () => {
    // 209 µs against 168 µs over 2,000 GCs a side: p far below 0.05 and an interval excluding zero,
    // but a shift of ~40 µs, under the 0.1 ms that counts.
    const c = compareSessions(side('A', columns(2000, 0.209, 1)), side('B', columns(2000, 0.168, 2)));
    const m = c.metrics.find((x) => x.id === 'p50-pause-gen0')!;
    expect(m.pAdjusted!).toBeLessThan(0.05);
    expect(m.interval!.ci![1]).toBeLessThan(0);
    expect(m.verdict).toBe('small');
    expect(VERDICT_LABELS[m.verdict]).toBe('small change');
    expect(m.text).toMatch(/^gen0 median pause \d+ µs shorter in B: a small change, below the ±5 % or 100 µs that counts \(95 % CI −\d+ µs to −\d+ µs\)$/);
    expect(m.direction).toBeNull();
    expect(noChangeHeadline(c.metrics)).toBe('No change above the practical threshold on any metric');
  });

  it('says "no change" in both the verdict cell and the sentence of a row within the threshold', () => {
    const c = compareSessions(side('A', columns(400, 2, 1)), side('B', columns(400, 2, 3)));
    const same = c.metrics.filter((x) => x.verdict === 'same');
    expect(same.length).toBeGreaterThan(0);
    for (const m of same) {
      expect(VERDICT_LABELS[m.verdict]).toBe('no change');
      expect(m.text).toMatch(/^no change \(/);
    }
  });

  it('states a warm-up of one GC a few ms long in ms, not as "first 0.00 s"', () => {
    const c = compareSessions(side('A', columns(400, 2, 1)), side('B', columns(400, 2, 3)));
    const a = { ...c.a, warmup: { ...c.a.warmup, endSec: 0.0032, excludedGCs: 1, excluded: true } };
    expect(describeWarmup(a)).toMatch(/^A: excluded \(first 3\.20 ms, 1 GC; /);
  });

  it('reads a near-total decrease with at most one decimal, not "−100.000 %"', () => {
    const row = { unit: '/GB' as const, interval: { kind: 'ratio' as const, estimate: 0.1, ci: [1e-9, 0.25] as [number, number] } };
    expect(describeInterval(row)).toBe('−99.9 % to −75 %');
  });

  it('shows a zero-width interval as its one value, not "x to x", and marks the Hodges–Lehmann shift in the Change cell', () => {
    // Every A pause 2 ms and every B pause 3 ms: all pairwise differences are +1 ms, so the
    // shift's interval is [1, 1]; the heap after every GC is 20 MB on both sides, so its ratio's is [1, 1].
    const flat = (pause: number, seed: number): CompareColumns => ({ ...columns(400, 2, seed), pause: new Float64Array(400).fill(pause) });
    const c = compareSessions(side('A', flat(2, 1)), side('B', flat(3, 2)));
    const m = c.metrics.find((x) => x.id === 'p50-pause-gen0')!;
    expect(m.interval).toMatchObject({ kind: 'shift', estimate: 1, ci: [1, 1] });
    expect(m.intervalText).toBe('+1.00 ms');
    expect(m.text).toBe('gen0 median pause 1.00 ms longer in B (95 % CI +1.00 ms)');
    expect(changeCell(m)).toBe('+1.00 ms (HL)');
    const heap = c.metrics.find((x) => x.id === 'after-gc-heap')!;
    expect(heap.interval!.ci).toEqual([1, 1]);
    expect(heap.intervalText).toBe('0.0 %');
    // A ratio is not marked: only the shift is a Hodges–Lehmann estimate.
    expect(changeCell(heap)).toBe('0.0 %');
    // An interval with width still reads "lo to hi".
    const spread = compareSessions(side('A', columns(400, 2, 1)), side('B', columns(400, 4, 2))).metrics.find((x) => x.id === 'p50-pause-gen0')!;
    expect(spread.intervalText).toMatch(/^\+[\d.]+ ms to \+[\d.]+ ms$/);
  });

  it("lists findings present in one side and not the other, and those in both with each side's words", () => {
    const c = compareSessions(
      side('A', columns(50, 2, 1), [
        { id: 'induced-gcs', title: '5 induced GCs', severity: 'warning' },
        { id: 'high-pause-time', title: 'paused 9 %', severity: 'warning' },
      ]),
      side('B', columns(50, 2, 2), [
        { id: 'high-pause-time', title: 'paused 12 %', severity: 'warning' },
        { id: 'loh-triggered-gen2', title: 'LOH gen2s', severity: 'info' },
      ]),
    );
    expect(c.findings).toEqual({
      available: true,
      onlyA: [{ id: 'induced-gcs', title: '5 induced GCs', severity: 'warning' }],
      onlyB: [{ id: 'loh-triggered-gen2', title: 'LOH gen2s', severity: 'info' }],
      both: [{ id: 'high-pause-time', title: 'paused 9 %', severity: 'warning', titleB: 'paused 12 %' }],
    });
    expect(compareSessions(side('A', columns(50, 2, 1)), side('B', columns(50, 2, 2))).findings.available).toBe(false);
  });

  it('excludes nothing when the live data keeps growing into the second half (no steady state), and says so', () => {
    const c = columns(100, 2, 1, (k) => k);
    const rows = Int32Array.from({ length: 100 }, (_, k) => k);
    const w = findWarmupEnd(c, rows);
    expect(w.firstKept).toBe(0);
    expect(w.note).toMatch(/^no steady state/);
    // Growth that settles early: the first GCs are the warm-up.
    const settled = findWarmupEnd(
      columns(100, 2, 1, (k) => Math.min(k, 20)),
      rows,
    );
    expect(settled.firstKept).toBe(18);
  });

  it('puts each GC in exactly one pause stratum, induced ones apart', () => {
    expect(stratumOf(0, 0, 0)).toBe('gen0');
    expect(stratumOf(1, 0, 4)).toBe('gen1');
    expect(stratumOf(2, 0, 0)).toBe('gen2');
    expect(stratumOf(2, 1, 0)).toBe('bgc');
    expect(stratumOf(0, 2, 0)).toBe('foreground');
    expect(stratumOf(2, 0, 1)).toBe('induced');
    expect(stratumOf(0, 0, 7)).toBe('induced');
  });
});

describe('--fail-if conditions', () => {
  const ids = ['p50-pause-gen0', 'gcs-per-gb'];
  it('parse percentages, ratios and shifts, and refuse what they cannot read', () => {
    expect(parseFailIf('p50-pause-gen0 > +10%', ids)).toMatchObject({ metric: 'p50-pause-gen0', op: '>', value: 10, unit: '%' });
    expect(parseFailIf('gcs-per-gb > 2x', ids)).toMatchObject({ value: 100, unit: '%' });
    expect(parseFailIf('p50-pause-gen0 > 0.5ms', ids)).toMatchObject({ value: 0.5, unit: 'abs' });
    expect(() => parseFailIf('p50-pause-gen0 >> 1', ids)).toThrow(FailIfError);
    expect(() => parseFailIf('p99 > 1%', ids)).toThrow(/no metric "p99"/);
  });

  it('fail only on a significant change beyond the limit', () => {
    const c = compareSessions(side('A', columns(400, 2, 1)), side('B', columns(400, 4, 2)));
    const all = c.metrics.map((m) => m.id);
    expect(evaluateFailIf(c, parseFailIf('p50-pause-gen0 > +10%', all)).failed).toBe(true);
    expect(evaluateFailIf(c, parseFailIf('p50-pause-gen0 > +500%', all)).failed).toBe(false);
    expect(evaluateFailIf(c, parseFailIf('p50-pause-gen0 < -10%', all)).failed).toBe(false);
    const same = compareSessions(side('A', columns(400, 2, 1)), side('B', columns(400, 2, 3)));
    expect(evaluateFailIf(same, parseFailIf('p50-pause-gen0 > +0%', all)).failed).toBe(false);
  });
});

describe('the verdict a user reads first (issue 39)', () => {
  /** n gen0 GCs 100 ms apart pausing `pauseMs` (±5 %), the GC at index `outlierAt` pausing 12 ms instead. */
  function healthyHalf(n: number, pauseMs: number, seed: number, outlierAt: number | null): CompareColumns {
    const c = columns(n, pauseMs, seed);
    const rand = mulberry32(seed);
    for (let k = 0; k < n; k++) {
      c.time[k] = 1000 + k * 100;
      c.pause[k] = k === outlierAt ? 12 : pauseMs * (0.95 + 0.1 * rand());
    }
    return c;
  }

  it('one 12 ms GC in one half of a healthy run does not make "% time paused" lower in the other half', () => {
    // The halves differ by 5 % besides the outlier: the bootstrap alone called it "52 % lower".
    const c = compareSessions(side('A', healthyHalf(60, 0.21, 1, 7)), side('B', healthyHalf(60, 0.2, 2, null)));
    const m = c.metrics.find((x) => x.id === 'pause-time-percent')!;
    expect(m.verdict).toBe('inconclusive');
    expect(m.direction).toBeNull();
    expect(m.text).toMatch(
      /^% time paused: 0\.41 % in A, 0\.20 % in B, but only because of one time window in A \(2\.21 %\); without it −4\.3 %, not a change$/,
    );
    expect(c.verdict).toEqual({ kind: 'no-change', text: 'No change above the practical threshold on any metric' });
  });

  it('a trace whose clock says it spans months (a damaged QPC frequency) gets at most MAX_WINDOWS wider windows, not millions of 1 s ones', () => {
    // 40 GCs a day apart: 1 s windows would be 3.4 M; the comparison used to resample them all and hang.
    const months = columns(40, 2, 1);
    months.time = Float64Array.from({ length: 40 }, (_, k) => 1000 + k * 86_400_000);
    const c = compareSessions(side('A', months), side('B', columns(400, 2, 2)));
    const m = c.metrics.find((x) => x.id === 'pause-time-percent')!;
    expect(m.nA).toBeLessThanOrEqual(MAX_WINDOWS);
    expect(m.method).toMatch(/mean over 33\.70 s \/ 1\.00 s windows/);
  });

  it('a change that holds without its largest value stays a change', () => {
    const c = compareSessions(side('A', healthyHalf(60, 0.3, 1, 7)), side('B', healthyHalf(60, 0.2, 2, null)));
    expect(c.metrics.find((x) => x.id === 'pause-time-percent')!.verdict).toBe('lower');
  });

  it('leads with one line: worse, better, or no change, naming the metrics', () => {
    const worse = compareSessions(side('A', columns(400, 2, 1)), side('B', columns(400, 4, 2)));
    expect(worse.verdict.kind).toBe('worse');
    expect(worse.verdict.text).toMatch(/^B is worse: gen0 median pause \+[\d.]+ ms/);
    const better = compareSessions(side('A', columns(400, 4, 2)), side('B', columns(400, 2, 1)));
    expect(better.verdict.kind).toBe('better');
    expect(better.verdict.text).toMatch(/^B is better: gen0 median pause −[\d.]+ ms/);
    const same = compareSessions(side('A', columns(400, 2, 1)), side('B', columns(400, 2, 3)));
    expect(same.verdict.kind).toBe('no-change');
    // The text and HTML reports say it first.
    expect(renderCompareText(worse).split('\n')[1]).toBe(`Verdict: ${worse.verdict.text}`);
    const html = renderCompareHtml(worse);
    expect(html.indexOf('data-testid="compare-verdict"')).toBeGreaterThan(0);
    expect(html.indexOf('data-testid="compare-verdict"')).toBeLessThan(html.indexOf('<table'));
  });
});
