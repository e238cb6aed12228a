/**
 * Warm-up detection: the first time the live-data proxy reaches 90 % of its median over the
 * recording's second half. If this is wrong, a process filling its caches at startup is
 * reported as a leak, or a real leak is hidden inside "warm-up".
 */
import { describe, expect, it } from 'vitest';
import { detectWarmUp, warmUpOfGcs } from '../../src-main/diagnosis/warm-up.js';
import { liveDataSeries, oldLiveMB } from '../../src-main/diagnosis/gc-set.js';
import { columnsFromRecords } from '../../src-main/shared/gc-column-registry.js';
import { seq } from './gc-sequences.js';

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
    const w = detectWarmUp(
      times(10),
      times(10).map(() => 50),
    );
    expect(w.endIndex).toBe(0);
    expect(w.steady).toBe(true);
  });

  it('says "no steady state" when the live set is still moving at the end of the recording', () => {
    // Growing steadily: the last quarter's median is 17 % above the second half's.
    expect(
      detectWarmUp(
        times(100),
        times(100).map((_, i) => i + 1),
      ).steady,
    ).toBe(false);
    // A step up in the last fifth.
    expect(
      detectWarmUp(
        times(100),
        times(100).map((_, i) => (i < 80 ? 1 : 100)),
      ).steady,
    ).toBe(false);
    // Noise of ±5 % around a level is steady.
    expect(
      detectWarmUp(
        times(100),
        times(100).map((_, i) => 100 + (i % 2 === 0 ? 5 : -5)),
      ).steady,
    ).toBe(true);
  });

  it('skips unknown values and honours another fraction', () => {
    const v = [Number.NaN, 10, 50, 100, 100, 100];
    expect(detectWarmUp(times(6), v).endIndex).toBe(3);
    expect(detectWarmUp(times(6), v, 0.5).endIndex).toBe(2);
    expect(detectWarmUp(times(3), [Number.NaN, Number.NaN, Number.NaN]).endMSec).toBeNull();
  });
});

describe('the live data behind the warm-up (LOH and POH measured by gen2 GCs only)', () => {
  // A cache filled over the first 10 GCs (gen2 live 4 → 40 MB), then steady; a gen2 GC every 10th
  // GC. Between gen2 GCs the program churns large buffers: the LOH grows by 20 MB per GC, all
  // dead, until the next gen2 GC sweeps it (its free space then says so).
  const churn = seq(60, (i) => {
    const gen2 = i % 10 === 9;
    const g2 = Math.min(40, 4 * (i + 1));
    const loh = gen2 ? 100 : 20 * ((i % 10) + 1);
    return { generation: gen2 ? 2 : 0, type: gen2 ? 1 : 0, genSizeAfterMB: [1, 1, g2, loh, 0], fragmentationMB: [0, 0, 0, gen2 ? 99 : 0, 0] };
  });
  const rows = churn.map((_, i) => i);

  it('counts LOH as the last gen2 GC left it: the dead large buffers after an ephemeral GC are not live data', () => {
    const c = columnsFromRecords(churn);
    const live = liveDataSeries(c, rows);
    expect(live[8]).toBe(36); // before any gen2 GC: gen2 only (the LOH's live part is not known yet)
    expect(live[9]).toBe(41); // gen2 GC #10: 40 MB gen2 + 1 MB of LOH still live
    expect(live[12]).toBe(41); // 60 MB of LOH after GC #13, all dead: still 41
    expect(oldLiveMB(c, 12)).toBe(100); // what gen2 + LOH − free space said before
  });

  it('ends the warm-up when the cache is full (GC #10), not at the first GC whose LOH garbage looks like live data', () => {
    const c = columnsFromRecords(churn);
    const w = warmUpOfGcs(c, rows);
    expect(w.endIndex).toBe(9); // 41 MB, the steady level (GC #9's 36 MB is under 90 % of it)
    // The old proxy (gen2 + LOH after each GC, minus free space) read the LOH churn as live data
    // and ended the warm-up at the fifth GC, with the cache half full.
    expect(
      detectWarmUp(
        c.time,
        rows.map((i) => oldLiveMB(c, i)),
      ).endIndex,
    ).toBe(4);
  });
});
