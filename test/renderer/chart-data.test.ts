/** Chart data shaping and table rows: what the session view draws and lists. */
import { describe, expect, it } from 'vitest';
import { appendSeries, seriesFromRecords, type GcSeries } from '../../src-main/shared/gc-series.js';
import type { GcRecord } from '../../src-main/shared/gc-record.js';
import { decodeWire, encodeWire, WireError } from '../../src-main/shared/wire.js';
import { decimate, indexesInRange, thinToPixels, windowPick } from '../../src-renderer/charts/chart-data.js';
import { GrowableSeries } from '../../src-renderer/state/growable-series.js';
import { computeRows, SeriesIndex, type TableFilter } from '../../src-renderer/state/table-rows.js';
import { rec } from './records.js';
import { columnsFromRecords } from '../../src-main/shared/gc-column-registry.js';

const series = (n: number, f?: (i: number) => Partial<GcRecord>): GcSeries => seriesFromRecords(Array.from({ length: n }, (_, i) => rec(i, f?.(i))));

describe('chart data', () => {
  it('decimates long sessions but keeps every pause spike', () => {
    const s = series(100_000, (i) => ({ pauseDurationMSec: i === 54_321 ? 500 : 1, pauseStartRelativeMSec: i }));
    const pick = decimate(s, 4000)!;
    expect(pick.length).toBeLessThanOrEqual(4002);
    expect(Array.from(pick)).toContain(54_321);
    expect(decimate(series(100), 4000)).toBeUndefined();
  });

  it('zoomed in on a long session, every GC of the window is drawn (not one in five), with the rest of the session thinned for panning', () => {
    const s = series(100_000, (i) => ({ pauseDurationMSec: i === 90_000 ? 500 : 1 + (i % 3), pauseStartRelativeMSec: i }));
    const whole = decimate(s, 20_000)!;
    // A window of 3,000 GCs: decimated once, it would draw only a fraction of them.
    expect(whole.filter((i) => i >= 50_000 && i < 53_000).length).toBeLessThan(1000);
    const w = windowPick(s, 50_000, 52_999, 20_000);
    expect(w.complete).toBe(true);
    const inWindow = Array.from(w.pick).filter((i) => i >= 50_000 && i < 53_000);
    expect(inWindow).toEqual(Array.from({ length: 3000 }, (_, k) => 50_000 + k));
    // Ascending and without repeats (the lanes' points are in series order).
    for (let k = 1; k < w.pick.length; k++) expect(w.pick[k]!).toBeGreaterThan(w.pick[k - 1]!);
    // Outside it, a coarse decimation that still keeps the session's spikes.
    expect(Array.from(w.pick)).toContain(90_000);
    expect(w.pick.length).toBeLessThan(3000 + 5_100);
    // A window with more GCs than the lanes draw is itself decimated, and says so.
    const wide = windowPick(s, 10_000, 80_000, 20_000);
    expect(wide.complete).toBe(false);
    expect(wide.pick.length).toBeLessThan(20_000 + 5_100);
  });

  it('draws at most one pause mark per pixel column, the longest, however many GCs are in view', () => {
    // 100 GCs/s for 30 s in a 1,000-pixel lane: 3,000 marks in view.
    const n = 3000;
    const xs = Float64Array.from({ length: n }, (_, i) => i / 100);
    const ys: (number | null)[] = Array.from({ length: n }, (_, i) => (i % 7 === 3 ? null : 1 + (i % 5)));
    ys[1234] = 400;
    const keep = thinToPixels(xs, ys, 0, n - 1, 0, 30, 1000)!;
    expect(keep.length).toBeLessThanOrEqual(1000);
    expect(keep).toContain(1234);
    // Every kept mark is the highest of its pixel column, and no column with a mark is left empty.
    const col = (i: number): number => Math.min(999, Math.floor(xs[i]! * (1000 / 30)));
    for (const k of keep) for (let i = 0; i < n; i++) if (ys[i] != null && col(i) === col(k)) expect(ys[i]!).toBeLessThanOrEqual(ys[k]!);
    const cols = new Set<number>();
    for (let i = 0; i < n; i++) if (ys[i] != null) cols.add(col(i));
    expect(new Set(keep.map(col))).toEqual(cols);
    // Only the points in view are considered; few enough points are all drawn.
    expect(thinToPixels(xs, ys, 0, 99, 0, 1, 1000)).toBeNull();
    expect(thinToPixels(xs, ys, 2000, 2999, 20, 30, 100)!.every((k) => k >= 2000 && k <= 2999)).toBe(true);
  });

  it("a lane's NaN (no mark) never hides the mark of its pixel column", () => {
    // Ten GCs per pixel column; in each column the first is NaN (another kind of GC) and one has a mark.
    const n = 1000;
    const xs = Float64Array.from({ length: n }, (_, i) => i / 10);
    const ys = Float64Array.from({ length: n }, (_, i) => (i % 10 === 0 ? Number.NaN : i % 10 === 5 ? 2 : i % 2 === 0 ? Number.NaN : 1));
    const keep = thinToPixels(xs, ys, 0, n - 1, 0, 100, 100)!;
    expect(keep).toHaveLength(100);
    expect(keep.every((k) => ys[k] === 2)).toBe(true);
  });

  it('a live table keeps its default rows, incomplete count, reasons and present columns as batches arrive, equal to computing them from scratch', () => {
    const grow = new GrowableSeries();
    const idx = new SeriesIndex();
    const none: TableFilter = { generations: [true, true, true], kinds: [true, true, true], reason: -1, minPauseMSec: 0 };
    let next = 0;
    for (const size of [1, 7, 300, 2, 1000]) {
      grow.append(
        columnsFromRecords(
          Array.from({ length: size }, () =>
            rec(next++, { reason: next % 11 === 0 ? 1 : next % 5, isComplete: next % 13 !== 0, survivedMB: next > 1200 ? 3 : null }),
          ),
        ),
      );
      const s = grow.view();
      idx.sync(s);
      expect(Array.from(idx.inOrder(false))).toEqual(Array.from(computeRows(s, null, none, 'time', false)));
      expect(Array.from(idx.inOrder(true))).toEqual(Array.from(computeRows(s, null, none, 'time', true)));
      expect(idx.incomplete).toBe(Array.from(s.complete).filter((c) => c === 0).length);
      expect(idx.reasons).toEqual([...new Set(Array.from(s.reason))].sort((a, b) => a - b));
      expect(idx.hasValues('survived')).toBe(Array.from(s.survived).some((v) => !Number.isNaN(v)));
      expect(idx.timeIncreasing && idx.numberIncreasing).toBe(true);
    }
    // Another session (a shorter series) starts over.
    const other = seriesFromRecords([rec(0), rec(1)]);
    expect(Array.from(idx.sync(other).inOrder(true))).toEqual([1, 0]);
    expect(idx.hasValues('survived')).toBe(false);
    // Out of time order: the caller must sort instead.
    expect(new SeriesIndex().sync(seriesFromRecords([rec(5), rec(2)])).timeIncreasing).toBe(false);
  });

  it("keeps the table's live row facts right when a background GC is inserted before GCs already listed", () => {
    const grow = new GrowableSeries();
    const idx = new SeriesIndex();
    const none: TableFilter = { generations: [true, true, true], kinds: [true, true, true], reason: -1, minPauseMSec: 0 };
    const all = Array.from({ length: 30 }, (_, i) => rec(i, { isComplete: i % 7 !== 3, reason: i % 4, type: i % 6 === 2 ? 1 : 0 }));
    const order = all.map((r, i) => ({ r, at: r.type === 1 ? i + 4 : i })).sort((a, b) => a.at - b.at || a.r.number - b.r.number);
    let seq = grow.seq;
    for (let k = 0; k < order.length; k += 3) {
      grow.append(columnsFromRecords(order.slice(k, k + 3).map((o) => o.r)));
      const moved = grow.rewrittenSince(seq);
      seq = grow.seq;
      if (moved !== null) idx.truncate(moved);
      const s = grow.view();
      idx.sync(s);
      expect(Array.from(idx.inOrder(false))).toEqual(Array.from(computeRows(s, null, none, 'number', false)));
      expect(idx.incomplete).toBe(Array.from(s.complete).filter((c) => c === 0).length);
      expect(idx.timeIncreasing && idx.numberIncreasing).toBe(true);
    }
    expect(grow.length).toBe(30);
  });

  it('finds the GCs in a time range', () => {
    expect(indexesInRange(series(10), 1150, 1450)).toEqual([2, 3, 4]);
  });

  it("appends live batches to a session's series", () => {
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
