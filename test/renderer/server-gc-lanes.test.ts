/**
 * The Server GC and headroom lanes' columns (charts/server-gc-lanes.ts) from a session's series and
 * its DATAS data: a heap-count change pause gets its own row at its own time and is drawn at the
 * count it changed to; decisions sit on the GC that fired them; the throughput cost splits into
 * the pause part and the total; the hard limit is the configured bytes in MB.
 */
import { describe, expect, it } from 'vitest';
import { seriesFromRecords } from '../../src-main/shared/gc-series.js';
import type { ServerGcData } from '../../src-main/shared/server-gc.js';
import { budgetLane, changePauseLabel, headroomLimits, heapCountLane, tcpLane } from '../../src-renderer/charts/server-gc-lanes.js';
import { ConstantColumn, SessionLanes } from '../../src-renderer/charts/lane-data.js';
import { rec } from './records.js';

const T0 = 1000;
/** Five GCs 100 ms apart; the count goes 1 → 2 at the fourth (GC #4), the third has no history. */
const series = seriesFromRecords([
  rec(0, { heapCount: 1 }),
  rec(1, { heapCount: 1 }),
  rec(2, { heapCount: null }),
  rec(3, { heapCount: 2 }),
  rec(4, { heapCount: 2, committedInUseAfterMB: 40 }),
]);

const data: ServerGcData = {
  serverGc: true,
  gcMode: 'server (DATAS)',
  targetTcpPercent: 2,
  rawDynamicEvents: {},
  missingDynamicEvents: false,
  settings: { hardLimitBytes: 209_715_200, highMemPercentConfig: 0, gen0MaxBudgetConfig: 0 },
  samples: [{ gcNumber: 2, timeMSec: 1100.5, elapsedUs: 10_000, pauseUs: 500, mslWaitUs: 1000, heapCount: 1, gen0BudgetPerHeap: 2e6, sohStableSize: 1e8 }],
  tunings: [
    { kind: 'tuning', gcNumber: 2, timeMSec: 1100.5, heapCount: 1, newHeapCount: 2, medianTcpPercent: 7.5, fields: {} },
    { kind: 'full-gc-tuning', gcNumber: 5, timeMSec: 1400.5, heapCount: 2, newHeapCount: 2, medianTcpPercent: 3, fields: {} },
  ],
  changePauses: [{ startMSec: 1150, durationMSec: 4, afterGCNumber: 2 }],
};

describe('Server GC lanes', () => {
  it('heap count: a change pause is a row of its own at its time, drawn at the count the next GC with a history ran with', () => {
    const lane = heapCountLane(series, data, T0, 2);
    expect(lane.rows).toEqual([
      { kind: 'gc', index: 0 },
      { kind: 'gc', index: 1 },
      { kind: 'pause', index: 0 },
      { kind: 'gc', index: 2 },
      { kind: 'gc', index: 3 },
      { kind: 'gc', index: 4 },
    ]);
    const [x, count, decision, gen2, change, cores] = lane.columns;
    expect(Array.from(x)).toEqual([0, 0.1, 0.15, 0.2, 0.3, 0.4]);
    // The GC without a history carries the count on; the step changes at GC #4.
    expect(count).toEqual([1, 1, 1, 1, 2, 2]);
    expect(decision).toEqual([null, 2, null, null, null, null]);
    expect(gen2).toEqual([null, null, null, null, null, 2]);
    expect(change).toEqual([null, null, 2, null, null, null]);
    expect(cores).toEqual([2, 2, 2, 2, 2, 2]);
    expect(lane.tuningAt[1]?.newHeapCount).toBe(2);
    expect(changePauseLabel(data, lane, 2, series)).toBe('heap-count change, 4.00 ms');
    expect(changePauseLabel(data, lane, 1, series)).toBe('–');
    // The runtime makes the GC after a change a background GC (free-list rethread): said so.
    const bgcAfter = seriesFromRecords([rec(0), rec(1), rec(2, { type: 1, generation: 2 })]);
    const l2 = heapCountLane(bgcAfter, data, T0);
    expect(changePauseLabel(data, l2, 2, bgcAfter)).toBe('heap-count change, 4.00 ms; the background GC #3 after it is expected (free-list rethread)');
  });

  it("throughput cost: the pause part and the total (waits ÷ heaps + pause) per sample, the decision's median, the target", () => {
    const [, pause, total, median, target] = tcpLane(series, data, T0);
    expect(pause![1]).toBeCloseTo(5, 9);
    expect(total![1]).toBeCloseTo(15, 9);
    expect(median).toEqual([null, 7.5, null, null, null]);
    expect(target).toEqual([2, 2, 2, 2, 2]);
  });

  it('budget: per-heap budget × heaps, and the DATAS cap m × stable size with m = 15 / √MB', () => {
    const [, budget, cap, stable] = budgetLane(series, data, T0);
    expect(budget![1]).toBe(2);
    expect(cap![1]).toBeCloseTo(1.5 * 100, 9);
    expect(stable![1]).toBe(100);
  });

  it('headroom: heap after GC, committed and memory load per GC from the session lanes; the configured hard limit in MB and the default load threshold as lines', () => {
    const lanes = new SessionLanes(T0);
    lanes.sync(series);
    const [, after, committed, load] = lanes.headroom.columns().map((c) => Array.from(c, (v) => (Number.isNaN(v) ? null : v)));
    expect(after).toEqual([5, 6, 7, 8, 9]);
    expect(committed).toEqual([null, null, null, null, 40]);
    expect(load).toEqual([10, 10, 10, 10, 10]);
    expect(headroomLimits(data)).toEqual({ limitMB: 209.7152, highPercent: 90 });
    expect(headroomLimits({ ...data, settings: null }).limitMB).toBeNaN();
    // The lines as columns: one array filled once, views as the lane grows.
    const col = new ConstantColumn();
    const a = col.view(5, 209.7152);
    expect(Array.from(a)).toEqual([209.7152, 209.7152, 209.7152, 209.7152, 209.7152]);
    expect(col.view(7, 209.7152).buffer).toBe(a.buffer);
    expect(Array.from(col.view(2, Number.NaN))).toEqual([Number.NaN, Number.NaN]);
  });
});
