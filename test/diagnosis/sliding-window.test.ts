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
