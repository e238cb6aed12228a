/**
 * How a comparison row reads: its Change cell, its interval and its sentence say the same number in
 * the same notation (× for an increase of 1.5× or more, a % change otherwise), and a side with
 * none of something says "none", never "n/a×".
 */
import { describe, expect, it } from 'vitest';
import { describeChange, describeInterval, verdictText, type Threshold } from '../../src-main/compare/verdict.js';
import type { ComparisonMetric } from '../../src-main/shared/comparison.js';

const T: Threshold = { relative: 0.05, absolute: 0 };
type Row = Pick<ComparisonMetric, 'label' | 'interval' | 'unit' | 'a' | 'b' | 'verdict'> & { pAdjusted?: number | null };
const ratio = (label: string, a: number, b: number, est: number, ci: [number, number], verdict: ComparisonMetric['verdict']): Row => ({
  label,
  unit: '/GB',
  a,
  b,
  verdict,
  interval: { kind: 'ratio', estimate: est, ci },
});
const read = (m: Row): { change: string; ci: string; text: string } => ({ change: describeChange(m), ci: describeInterval(m), text: verdictText(m, T, 95) });

describe('comparison wording', () => {
  it('B with none of a count reads "down to none in B", not "n/a× lower"', () => {
    const r = read(ratio('gen2 GCs per GB allocated', 2.1, 0, 0, [0, 0.29], 'lower'));
    expect(r.text).toBe('gen2 GCs per GB allocated down to none in B, from 2.1 /GB in A (95 % CI −100 % to −71 %)');
    expect(r.text).not.toMatch(/n\/a/);
    expect(r.change).toBe('−100 %');
    expect(r.ci).toBe('−100 % to −71 %');
  });

  it('A with none and B with some reads "up from none in A", with its test\'s p, and a Change cell in words', () => {
    const m: Row = { label: 'gen2 GCs per GB allocated', unit: '/GB', a: 0, b: 11.5, verdict: 'higher', interval: null, pAdjusted: 0.0236 };
    expect(verdictText(m, T, 95)).toBe('gen2 GCs per GB allocated up from none in A to 11.5 /GB in B (adjusted p 0.0236; no ratio to zero)');
    expect(describeChange(m)).toBe('from none');
  });

  it('a decrease reads in % in the cell, the interval and the sentence ("−60 %", not "2.5× lower")', () => {
    const r = read(ratio('GCs per GB allocated', 17.5, 7.1, 0.4, [0.22, 0.68], 'lower'));
    expect(r).toEqual({ change: '−60 %', ci: '−78 % to −32 %', text: 'GCs per GB allocated 60 % lower in B (95 % CI −78 % to −32 %)' });
    // A large decrease keeps its size: 22× less is "95 % lower", and 250× less is not "100 %".
    expect(read(ratio('allocation rate', 2201, 101, 0.0459, [0.02, 0.08], 'lower')).text).toBe('allocation rate 95 % lower in B (95 % CI −98 % to −92 %)');
    expect(describeChange(ratio('x', 1000, 4, 0.004, [0.002, 0.006], 'lower'))).toBe('−99.6 %');
  });

  it('an increase of 1.5× or more reads in × in the cell, the interval and the sentence, even when the interval crosses 1', () => {
    const up = read(ratio('peak heap', 185, 413, 2.23, [1.29, 2.33], 'higher'));
    expect(up).toEqual({ change: '2.2×', ci: '1.29–2.33×', text: 'peak heap 2.2× higher in B (95 % CI 1.29–2.33×)' });
    const wide = read(ratio('median heap after GC', 9.07, 19.4, 2.14, [0.65, 4.98], 'inconclusive'));
    expect(wide.change).toBe('2.1×');
    expect(wide.ci).toBe('0.65–4.98×');
    expect(wide.text).toContain('95 % CI 0.65–4.98×');
    expect(describeInterval(ratio('x', 1, 3, 3, [1.6, Infinity], 'higher'))).toBe('1.60× or more');
  });

  it('a change that rounds to nothing has no sign', () => {
    expect(describeChange(ratio('allocation rate', 97.0, 96.99, 0.9999, [0.94, 1.08], 'same'))).toBe('0.0 %');
    expect(describeInterval(ratio('x', 1, 1, 1, [0.9999, 1.0001], 'same'))).toBe('0.0 %');
  });

  it('a small increase reads in % everywhere', () => {
    expect(read(ratio('% time paused', 10, 11.2, 1.12, [1.05, 1.2], 'higher'))).toEqual({
      change: '+12 %',
      ci: '+5.0 % to +20 %',
      text: '% time paused 12 % higher in B (95 % CI +5.0 % to +20 %)',
    });
  });

  it('an untested ratio row (no interval) follows the same notation', () => {
    const m: Row = { label: 'gen0 p90 pause', unit: 'ms', a: 18.7, b: 337, verdict: 'insufficient', interval: null };
    expect(describeChange(m)).toBe('18×');
    expect(describeChange({ ...m, b: 9.35 })).toBe('−50 %');
  });
});
