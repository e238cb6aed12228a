/**
 * The worst pause window (JMC's sliding window as GcPauseRatio uses it): windows of W every W/2
 * from the first pause, pauses clipped to each window, the ratio over the window's length. If
 * this is wrong, "worst 60 s window" points the user at the wrong part of the recording.
 */
import { describe, expect, it } from 'vitest';
import { worstPauseWindow } from '../../src-main/diagnosis/sliding-window.js';

describe('worstPauseWindow', () => {
  it('slides by half a window from the first pause and keeps the window with the most pause', () => {
    // Pauses at 0 s and 100–105 s: windows start at 0, 30, 60, 90 s; the 60–120 s and 90–150 s
    // windows both hold the 5 s pause, the earlier one wins.
    const w = worstPauseWindow(
      [
        { startMSec: 0, durationMSec: 1 },
        { startMSec: 100_000, durationMSec: 5000 },
        { startMSec: 200_000, durationMSec: 1 },
      ],
      60_000,
    )!;
    expect(w.startMSec).toBe(60_000);
    expect(w.endMSec).toBe(120_000);
    expect(w.pauseMSec).toBe(5000);
    expect(w.ratio).toBeCloseTo(5000 / 60_000, 12);
  });

  it('counts only the part of a pause inside the window', () => {
    // A 20 s pause from 50 s: the 30–90 s window holds all of it, the 0–60 s window 10 s.
    const w = worstPauseWindow(
      [
        { startMSec: 0, durationMSec: 0 },
        { startMSec: 50_000, durationMSec: 20_000 },
        { startMSec: 300_000, durationMSec: 0 },
      ],
      60_000,
    )!;
    expect(w.startMSec).toBe(30_000);
    expect(w.pauseMSec).toBe(20_000);
    const clipped = worstPauseWindow(
      [
        { startMSec: 0, durationMSec: 0 },
        { startMSec: 50_000, durationMSec: 20_000 },
      ],
      60_000,
      70_000,
    )!;
    // Span 70 s ≥ 60 s: windows 0–60 (10 s of it) and 30–90 (20 s).
    expect(clipped.pauseMSec).toBe(20_000);
  });

  it('ends the last window with the recording (or the selected range), never over time nothing was recorded in', () => {
    // 101 s recording, one 6 s pause at 95 s: JMC's next window would be 60–120 s; ours is moved
    // back to 41–101 s, and holds the whole pause over its 60 s.
    const w = worstPauseWindow(
      [
        { startMSec: 0, durationMSec: 0 },
        { startMSec: 95_000, durationMSec: 6000 },
      ],
      60_000,
      101_000,
    )!;
    expect(w.startMSec).toBe(41_000);
    expect(w.endMSec).toBe(101_000);
    expect(w.pauseMSec).toBe(6000);
    expect(w.ratio).toBeCloseTo(0.1, 12);
  });

  it('judges a recording shorter than the window over its own span', () => {
    const w = worstPauseWindow(
      [
        { startMSec: 1000, durationMSec: 100 },
        { startMSec: 2000, durationMSec: 100 },
      ],
      60_000,
      3000,
    )!;
    expect(w.startMSec).toBe(1000);
    expect(w.endMSec).toBe(3000);
    expect(w.ratio).toBeCloseTo(0.1, 12);
  });

  it('has no window without pauses', () => {
    expect(worstPauseWindow([], 60_000)).toBeUndefined();
  });
});

describe('worstPauseWindow on very short recordings', () => {
  it('never judges over less than the minimum window: ten GCs in 35 ms are pauses per second, not 83 %', () => {
    const pauses = Array.from({ length: 10 }, (_, i) => ({ startMSec: 8 + i * 2.3, durationMSec: 2.2 }));
    expect(worstPauseWindow(pauses, 60_000, 35)!.ratio).toBeGreaterThan(0.6);
    const w = worstPauseWindow(pauses, 60_000, 35, 1000)!;
    expect(w.endMSec - w.startMSec).toBe(1000);
    expect(w.ratio).toBeCloseTo(0.022, 6);
  });
});

describe('worstPauseWindow on any input ends promptly (issue 40: a range from -1e308 spun the analysis worker)', () => {
  const pauses = [
    { startMSec: 1000, durationMSec: 50 },
    { startMSec: 40_000, durationMSec: 200 },
    { startMSec: 41_000, durationMSec: 300 },
    { startMSec: 300_000, durationMSec: 10 },
  ];
  const timed = <T>(f: () => T): T => {
    const t0 = performance.now();
    const r = f();
    expect(performance.now() - t0).toBeLessThan(5000);
    return r;
  };

  it('a span from -1e308 to 1e308 still finds the worst window among the pauses', () => {
    const w = timed(() => worstPauseWindow(pauses, 60_000, 1e308, 1000, -1e308))!;
    // The 60 s window from just before the first pause holds the first three.
    expect(w.pauseMSec).toBe(550);
    expect(w.endMSec - w.startMSec).toBe(60_000);
    expect(w.startMSec).toBeLessThanOrEqual(1000);
    expect(w.endMSec).toBeGreaterThanOrEqual(41_300);
  });

  it('pause times far apart (a damaged trace’s GC at 10^15 ms) skip the empty windows and find both ends', () => {
    const far = [...pauses, { startMSec: 1e15, durationMSec: 5000 }];
    const w = timed(() => worstPauseWindow(far, 60_000))!;
    expect(w.pauseMSec).toBe(5000);
    expect(w.startMSec).toBeLessThanOrEqual(1e15);
    expect(w.endMSec).toBeGreaterThanOrEqual(1e15 + 5000);
  });

  it('a window of a nanosecond, or of the smallest number, ends', () => {
    expect(timed(() => worstPauseWindow(pauses, 1e-6))!.ratio).toBeCloseTo(1, 6);
    expect(timed(() => worstPauseWindow(pauses, Number.MIN_VALUE))).toBeDefined();
  });

  it('times beyond the numbers’ precision, NaN and huge pauses end', () => {
    const at = (t: number, d: number) => [
      { startMSec: t, durationMSec: d },
      { startMSec: t * 1.0000001, durationMSec: d },
    ];
    for (const p of [at(1e20, 10), at(1e300, 1), at(1, 1e300), at(Number.NaN, 1), at(1, Number.NaN), at(-1e308, 1e308)])
      for (const span of [undefined, 1e308, -1e308, Number.NaN]) timed(() => worstPauseWindow(p, 60_000, span, 1000, span));
    // 100,000 pauses under one enormous one: bounded work, not windows × pauses.
    const many = Array.from({ length: 100_000 }, (_, i) => ({ startMSec: i * 10, durationMSec: i === 0 ? 1e300 : 1 }));
    timed(() => worstPauseWindow(many, 60_000));
  });
});
