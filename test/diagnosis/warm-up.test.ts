/**
 * Warm-up detection: the first time the live-data proxy reaches 90 % of its median over the
 * recording's second half. If this is wrong, a process filling its caches at startup is
 * reported as a leak, or a real leak is hidden inside "warm-up".
 */
import { describe, expect, it } from 'vitest';
import { detectWarmUp } from '../../src-main/diagnosis/warm-up.js';

const times = (n: number) => Array.from({ length: n }, (_, i) => i * 1000);

describe('detectWarmUp', () => {
  it('ends warm-up where the live set first reaches 90 % of its late median', () => {
    // Ramps 10, 20, … 100 MB over 10 s, then flat at 100 MB for 30 s: level 90 MB, reached at 8 s.
    const v = times(40).map((_, i) => (i < 10 ? 10 * (i + 1) : 100));
    const w = detectWarmUp(times(40), v);
    expect(w.levelMB).toBe(90);
    expect(w.endIndex).toBe(8);
    expect(w.endMSec).toBe(8000);
    expect(w.steady).toBe(true);
  });

  it('a flat series is steady from its first sample', () => {
    const w = detectWarmUp(times(10), times(10).map(() => 50));
    expect(w.endIndex).toBe(0);
    expect(w.steady).toBe(true);
  });

  it('says "no steady state" when the live set is still moving at the end of the recording', () => {
    // Growing steadily: the last quarter's median is 17 % above the second half's.
    expect(detectWarmUp(times(100), times(100).map((_, i) => i + 1)).steady).toBe(false);
    // A step up in the last fifth.
    expect(detectWarmUp(times(100), times(100).map((_, i) => (i < 80 ? 1 : 100))).steady).toBe(false);
    // Noise of ±5 % around a level is steady.
    expect(detectWarmUp(times(100), times(100).map((_, i) => 100 + (i % 2 === 0 ? 5 : -5))).steady).toBe(true);
  });

  it('skips unknown values and honours another fraction', () => {
    const v = [Number.NaN, 10, 50, 100, 100, 100];
    expect(detectWarmUp(times(6), v).endIndex).toBe(3);
    expect(detectWarmUp(times(6), v, 0.5).endIndex).toBe(2);
    expect(detectWarmUp(times(3), [Number.NaN, Number.NaN, Number.NaN]).endMSec).toBeNull();
  });
});
