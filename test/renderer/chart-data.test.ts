/** Chart data shaping and table rows: what the session view draws and lists. */
import { describe, expect, it } from 'vitest';
import { appendSeries, seriesFromRecords, type GcSeries } from '../../src-main/shared/gc-series.js';
import type { GcRecord } from '../../src-main/shared/gc-record.js';
import { decodeWire, encodeWire, WireError } from '../../src-main/shared/wire.js';
import { decimate, heapColumns, pauseColumns, rateColumns, rollingPausePercent, indexesInRange, survivalColumns } from '../../src-renderer/charts/chart-data.js';
import { computeRows, type TableFilter } from '../../src-renderer/state/table-rows.js';

function rec(i: number, over: Partial<GcRecord> = {}): GcRecord {
  const g5 = (v: number | null): [number | null, number | null, number | null, number | null, number | null] => [v, v, v, v, v];
  return {
    index: i, number: i + 1, generation: i % 3, type: 0, reason: 0, gcGenerationName: `${i % 3}N`, isComplete: true, pauseStartRelativeMSec: 1000 + i * 100,
    startRelativeMSec: 1000 + i * 100, suspendDurationMSec: 0.01, pauseDurationMSec: 1 + (i % 5), durationMSec: 1, durationSinceLastRestartMSec: 99,
    pauseTimePercentageSinceLastGC: 1, heapSizeBeforeMB: 10, heapSizeAfterMB: 5 + i, heapSizePeakMB: 10, promotedMB: 1, allocedSinceLastGCMB: 2, allocRateMBSec: 20,
    gen0AllocatedMB: 2, lohAllocatedMB: 0, pohAllocatedMB: 0, genSizeAfterMB: [1, 1, 1, 1, 1], genSizeBeforeMB: g5(1), genPromotedMB: g5(0), survivalPercent: g5(null),
    fragmentationPercent: g5(null), fragmentationMB: g5(null), genBudgetMB: g5(null), finalizationPromotedMB: 0, finalizationPromotedCount: 0, pinnedObjectCount: 0,
    gcHandleCount: 0, pinnedObjectSizes: null, pinnedObjectPercentage: null, heapCount: 1, bgcFinalPauseMSec: null, compacted: true, globalMechanisms: 2, pauseMode: 1,
    memoryLoadPercent: 10, condemnReasons0: 0, condemnReasons1: 0, committedInUseBeforeMB: null, committedInUseAfterMB: null, finalizersQueued: 0,
    survivedMB: null, survivedRanges: null, movedMB: null, movedRanges: null, relocatedMB: null, rangeLowAddress: null, rangeHighAddress: null, gen0FragmentationMB: null,
    ...over,
  };
}

const series = (n: number, f?: (i: number) => Partial<GcRecord>): GcSeries => seriesFromRecords(Array.from({ length: n }, (_, i) => rec(i, f?.(i))));

describe('chart data', () => {
  it('puts each GC in the pause lane of its kind: blocking by generation, background, foreground by generation; induced marked too', () => {
    const s = series(5, (i) => (i === 1 ? { type: 1, generation: 2 } : i === 2 ? { type: 2, generation: 1, reason: 1 } : i === 3 ? { type: 2, generation: 0 } : {}));
    const [x, g0, g1, g2, bg, fg0, fg1, induced] = pauseColumns(s, 1000);
    expect(Array.from(x)).toEqual([0, 0.1, 0.2, 0.3, 0.4]);
    expect(g0![0]).toBe(1);
    expect(Number.isNaN(g2![1]!)).toBe(true);
    expect(bg![1]).toBe(2);
    expect(fg1![2]).toBe(3);
    expect(Number.isNaN(fg0![2]!)).toBe(true);
    expect(fg0![3]).toBe(4);
    expect(induced![2]).toBe(3);
    expect(Number.isNaN(g1![2]!)).toBe(true);
  });

  it('rate and survival lanes carry each picked GC\'s values at its time', () => {
    const s = series(4, (i) => ({ allocRateMBSec: 10 * i, survivedMB: i === 2 ? null : i, movedMB: 2 * i }));
    const pick = Int32Array.from([1, 3]);
    const [x, rate, paused] = rateColumns(s, 1000, 1000, pick);
    expect(Array.from(x)).toEqual([0.1, 0.3]);
    expect(Array.from(rate!)).toEqual([10, 30]);
    expect(Array.from(paused!)).toEqual([1, 3].map((i) => rollingPausePercent(s, 1000)[i]!));
    const [sx, survived, moved] = survivalColumns(s, 1000);
    expect(Array.from(sx)).toEqual([0, 0.1, 0.2, 0.3]);
    expect(Array.from(survived!)).toEqual([0, 1, Number.NaN, 3]);
    expect(Array.from(moved!)).toEqual([0, 2, 4, 6]);
  });

  it('stacks heap layers so each area sits on the ones below', () => {
    const [, a, b, c, d, e] = heapColumns(series(2), 0);
    expect([a![0], b![0], c![0], d![0], e![0]]).toEqual([1, 2, 3, 4, 5]);
  });

  it('computes % of time paused over a rolling window', () => {
    // GCs every 100 ms pausing 10 ms: 10 % once the window is full.
    const s = series(30, (i) => ({ pauseStartRelativeMSec: i * 100, pauseDurationMSec: 10 }));
    const p = rollingPausePercent(s, 1000);
    expect(p[29]).toBeCloseTo(11, 0);
  });

  it('decimates long sessions but keeps every pause spike', () => {
    const s = series(100_000, (i) => ({ pauseDurationMSec: i === 54_321 ? 500 : 1, pauseStartRelativeMSec: i }));
    const pick = decimate(s, 4000)!;
    expect(pick.length).toBeLessThanOrEqual(4002);
    expect(Array.from(pick)).toContain(54_321);
    expect(decimate(series(100), 4000)).toBeUndefined();
  });

  it('finds the GCs in a time range', () => {
    expect(indexesInRange(series(10), 1150, 1450)).toEqual([2, 3, 4]);
  });

  it('appends live batches to a session\'s series', () => {
    const a = seriesFromRecords([rec(0), rec(1)]);
    const b = seriesFromRecords([rec(2)]);
    const c = appendSeries(a, b);
    expect(c.length).toBe(3);
    expect(Array.from(c.number)).toEqual([1, 2, 3]);
    expect(c.pause).toBeInstanceOf(Float64Array);
  });

  it('carries typed arrays over the WebSocket bridge as binary, exactly', () => {
    const s = series(5);
    const back = decodeWire(encodeWire({ s, big: 2n ** 60n })) as { s: GcSeries; big: string };
    expect(back.s.pause).toBeInstanceOf(Float64Array);
    expect(Array.from(back.s.pause)).toEqual(Array.from(s.pause));
    expect(Array.from(back.s.generation)).toEqual(Array.from(s.generation));
    expect(back.big).toBe(String(2n ** 60n));
  });

  it('rejects a cut or corrupted bridge frame with a WireError instead of showing wrong data', () => {
    const frame = encodeWire({ id: 7, s: series(5), tail: new Uint8Array([1, 2, 3]) });
    const end = frame.byteLength - 5; // the Uint8Array's last byte ends 5 bytes of padding early
    for (let cut = 0; cut < end; cut++) {
      expect(() => decodeWire(frame.slice(0, cut)), `cut at ${cut}`).toThrow(WireError);
    }
    // An unaligned copy of a whole frame (as Node's pooled Buffers can be) still decodes.
    const shifted = new Uint8Array(frame.byteLength + 1).subarray(1);
    shifted.set(frame);
    expect(Array.from((decodeWire(shifted) as { s: GcSeries }).s.pause)).toEqual(Array.from(series(5).pause));
    // A header pointing outside the data section.
    const evil = encodeWire({ x: { $ta: 'Float64Array', o: 0, n: 1000 } });
    expect(() => decodeWire(evil)).toThrow(WireError);
  });
});

describe('table rows', () => {
  const all: TableFilter = { generations: [true, true, true], kinds: [true, true, true], reason: -1, minPauseMSec: 0 };
  const s = series(9, (i) => ({ heapSizeAfterMB: i === 4 ? null : i }));

  it('sorts by a column, both ways, with unavailable values last', () => {
    const desc = Array.from(computeRows(s, null, all, 'heapAfter', true));
    expect(desc.slice(0, 3)).toEqual([8, 7, 6]);
    expect(desc[desc.length - 1]).toBe(4);
    const asc = Array.from(computeRows(s, null, all, 'heapAfter', false));
    expect(asc[0]).toBe(0);
    expect(asc[asc.length - 1]).toBe(4);
  });

  it('filters by generation, minimum pause and range', () => {
    expect(Array.from(computeRows(s, null, { ...all, generations: [false, false, true] }, 'number', false))).toEqual([2, 5, 8]);
    expect(Array.from(computeRows(s, null, { ...all, minPauseMSec: 5 }, 'number', false))).toEqual([4]);
    expect(Array.from(computeRows(s, { from: 1100, to: 1300 }, all, 'number', false))).toEqual([1, 2, 3]);
  });

  it('lists newest first by time, also when GC order and time order differ', () => {
    expect(Array.from(computeRows(s, null, all, 'time', true))).toEqual([8, 7, 6, 5, 4, 3, 2, 1, 0]);
    // A foreground GC numbered after a background GC but starting at the same time, and one
    // starting earlier than its predecessor: the table must still be in time order.
    const odd = series(4, (i) => ({ pauseStartRelativeMSec: [1000, 1200, 1200, 1100][i]! }));
    expect(Array.from(computeRows(odd, null, all, 'time', false))).toEqual([0, 3, 1, 2]);
    expect(Array.from(computeRows(odd, null, all, 'time', true))).toEqual([1, 2, 3, 0]);
  });
});
