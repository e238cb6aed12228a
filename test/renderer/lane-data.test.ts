/** The session view's lanes, built as a live recording grows: what each lane draws and what a batch costs. */
import { describe, expect, it } from 'vitest';
import { seriesFromRecords, type GcSeries } from '../../src-main/shared/gc-series.js';
import type { GcRecord } from '../../src-main/shared/gc-record.js';
import { cursorTime, mbTicks, msTicks, secondsTicks } from '../../src-renderer/charts/axis-format.js';
import { clampedMax, OverviewBuckets, SessionLanes } from '../../src-renderer/charts/lane-data.js';
import { GrowableSeries } from '../../src-renderer/state/growable-series.js';
import { rec } from './records.js';
import { columnsFromRecords } from '../../src-main/shared/gc-column-registry.js';

const records = (n: number, f?: (i: number) => Partial<GcRecord>): GcRecord[] => Array.from({ length: n }, (_, i) => rec(i, f?.(i)));
const series = (n: number, f?: (i: number) => Partial<GcRecord>): GcSeries => seriesFromRecords(records(n, f));

describe('growable GC columns (live batches)', () => {
  it('appends a batch without copying the session: capacity doubles, views share the grown buffer', () => {
    const g = new GrowableSeries(series(3));
    expect(g.append(columnsFromRecords(records(5).slice(3)))).toBe(2);
    const cap = g.capacity;
    expect(cap).toBeGreaterThanOrEqual(256);
    const v1 = g.view();
    expect(Array.from(v1.number)).toEqual([1, 2, 3, 4, 5]);
    // Further batches up to the capacity reuse the same buffers: no per-batch reallocation.
    for (let i = 5; i < 200; i += 5) g.append(columnsFromRecords(records(i + 5).slice(i)));
    expect(g.capacity).toBe(cap);
    const v2 = g.view();
    expect(v2.pause.buffer).toBe(v1.pause.buffer);
    expect(v2.length).toBe(200);
    expect(Array.from(v2.number.subarray(195))).toEqual([196, 197, 198, 199, 200]);
    // The views handed out before stay valid for what they covered.
    expect(Array.from(v1.number)).toEqual([1, 2, 3, 4, 5]);
  });

  it('ignores GCs a batch repeats from the snapshot (subscribe-before-load overlap)', () => {
    const g = new GrowableSeries(series(4));
    expect(g.append(columnsFromRecords(records(6).slice(2)))).toBe(2);
    expect(Array.from(g.view().number)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(g.append(columnsFromRecords(records(6).slice(2)))).toBe(0);
  });

  it('puts a background GC that ends after later GCs at its place by number, so the live table and lanes hold every GC the tiles count', () => {
    // The recorder sends a GC when it ends: background GC #3 ends after #4 and #5 ran beside it.
    const all = records(8, (i) => (i === 2 ? { type: 1, generation: 2, durationMSec: 450 } : {}));
    const g = new GrowableSeries();
    expect(g.append(columnsFromRecords([all[0]!, all[1]!, all[3]!, all[4]!]))).toBe(4);
    const seq = g.seq;
    expect(g.rewrittenSince(seq)).toBeNull();
    // Its batch also brings #7 and #6, in the order they ended.
    expect(g.append(columnsFromRecords([all[6]!, all[2]!, all[5]!]))).toBe(3);
    const v = g.view();
    expect(Array.from(v.number)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // Every column moved with its GC.
    expect(Array.from(v.type)).toEqual([0, 0, 1, 0, 0, 0, 0]);
    expect(Array.from(v.time)).toEqual(all.slice(0, 7).map((r) => r.pauseStartRelativeMSec));
    expect(Array.from(v.pause)).toEqual(all.slice(0, 7).map((r) => r.pauseDurationMSec));
    // GCs from index 2 on moved: state kept per index from there is stale.
    expect(g.rewrittenSince(seq)).toBe(2);
    expect(g.rewrittenSince(g.seq)).toBeNull();
    // Sent again (a batch overlapping the snapshot), it is not added twice.
    expect(g.append(columnsFromRecords([all[2]!, all[7]!]))).toBe(1);
    expect(Array.from(g.view().number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('lanes and overview taken in again after insertions and GCs sent again equal lanes built from the final series', () => {
    const all = records(40, (i) =>
      i % 9 === 4 ? { type: 1, generation: 2, durationMSec: 800, pauseDurationMSec: 3 + i } : { pauseStartRelativeMSec: 1000 + i * 40 },
    );
    const g = new GrowableSeries();
    const lanes = new SessionLanes(1000);
    const overview = new OverviewBuckets(1000, 16, 0.01);
    let seq = g.seq;
    // Each background GC arrives three GCs late; every fifth GC is sent again five GCs later with
    // a changed allocation rate (as a live recording sends a GC whose metrics changed).
    const final = all.map((r, i) => (i % 5 === 2 ? { ...r, allocRateMBSec: 1000 + i } : r));
    const order = [
      ...all.map((r, i) => ({ r, at: r.type === 1 ? i + 3 : i })),
      ...final.filter((_, i) => i % 5 === 2).map((r) => ({ r, at: r.index + 5.5 })),
    ].sort((a, b) => a.at - b.at || a.r.number - b.r.number);
    for (let k = 0; k < order.length; k += 2) {
      g.append(columnsFromRecords(order.slice(k, k + 2).map((o) => o.r)));
      const moved = g.rewrittenSince(seq);
      seq = g.seq;
      if (moved !== null) {
        lanes.truncate(moved);
        overview.truncate(moved);
      }
      lanes.sync(g.view());
      overview.sync(g.view());
    }
    const fresh = new SessionLanes(1000);
    fresh.sync(seriesFromRecords(final));
    const freshOverview = new OverviewBuckets(1000, 16, 0.01);
    freshOverview.sync(seriesFromRecords(final));
    const cols = (l: SessionLanes) => [l.pauses, l.heap, l.rates, l.survival].map((lane) => lane.columns().map((c) => Array.from(c)));
    expect(cols(lanes)).toEqual(cols(fresh));
    expect(Array.from(lanes.drawnIndexes())).toEqual(Array.from(fresh.drawnIndexes()));
    expect(lanes.spans).toEqual(fresh.spans);
    expect(lanes.spans.length).toBe(all.filter((r) => r.type === 1).length);
    expect([Array.from(overview.maxPause), overview.width]).toEqual([Array.from(freshOverview.maxPause), freshOverview.width]);
  });

  it('never reallocates every column in one live batch: past 4,096 GCs at most one series column and one lane column grow per batch, and the data stays exact', () => {
    // At 65,536 GCs doubling every column in the same batch made the page's batch handler a
    // 54–80 ms long task (bench:live-ui); each batch may now grow one column of each owner.
    const f = (i: number): Partial<GcRecord> => ({ pauseStartRelativeMSec: 1000 + i * 3, pauseDurationMSec: 1 + (i % 5), type: i % 97 === 0 ? 1 : 0 });
    const total = 20000;
    const all = records(total, f);
    const g = new GrowableSeries();
    const lanes = new SessionLanes(1000);
    const buffers = (): ArrayBufferLike[] => {
      const v = g.view();
      return Object.keys(v)
        .filter((k) => k !== 'length')
        .map((k) => (v[k as keyof GcSeries] as Float64Array).buffer);
    };
    const laneBuffers = (): ArrayBufferLike[] =>
      [lanes.pauses, lanes.heap, lanes.rates, lanes.survival, lanes.headroom].flatMap((l) => l.columns().map((c) => (c as Float64Array).buffer));
    let worstSeries = 0;
    let worstLanes = 0;
    for (let i = 0; i < total; i += 15) {
      const before = buffers();
      const lanesBefore = laneBuffers();
      g.append(columnsFromRecords(all.slice(i, i + 15)));
      lanes.sync(g.view());
      if (i < 4096) continue;
      worstSeries = Math.max(worstSeries, buffers().filter((b, k) => b !== before[k]).length);
      worstLanes = Math.max(worstLanes, laneBuffers().filter((b, k) => b !== lanesBefore[k]).length);
    }
    expect([worstSeries, worstLanes]).toEqual([1, 1]);
    expect(g.capacity).toBeLessThan((8 / 3) * total);
    const once = new SessionLanes(1000);
    once.sync(seriesFromRecords(all));
    expect(lanes.pauses.columns()).toEqual(once.pauses.columns());
    expect(lanes.heap.columns()).toEqual(once.heap.columns());
    expect(Array.from(g.view().pause)).toEqual(all.map((r) => r.pauseDurationMSec));
  });

  it('keeps memory linear in GCs: capacity stays within twice the GC count', () => {
    const g = new GrowableSeries();
    for (let i = 0; i < 5000; i += 37) g.append(columnsFromRecords(records(Math.min(5000, i + 37)).slice(i)));
    expect(g.length).toBe(5000);
    expect(g.capacity).toBeLessThan(2 * 5000);
  });
});

describe('session lanes', () => {
  it('puts each GC in the pause lane of its kind, with its suspension as its own mark, NaN where a series has no mark', () => {
    const s = series(5, (i) =>
      i === 1
        ? { type: 1, generation: 2 }
        : i === 2
          ? { type: 2, generation: 1, reason: 1 }
          : i === 3
            ? { type: 2, generation: 0, suspendDurationMSec: Number.NaN }
            : {},
    );
    const l = new SessionLanes(1000);
    l.sync(s);
    const [x, g0, g1, g2, bg, fg0, fg1, induced, susp, out] = l.pauses.columns();
    expect(Array.from(x)).toEqual([0, 0.1, 0.2, 0.3, 0.4]);
    expect(g0![0]).toBe(1);
    expect(g2![1]).toBeNaN();
    expect(bg![1]).toBe(2);
    expect(fg1![2]).toBe(3);
    expect(fg0![2]).toBeNaN();
    expect(fg0![3]).toBe(4);
    expect(induced![2]).toBe(3);
    expect(g1![2]).toBeNaN();
    // The series carries suspensions as Float32 (gc-series.ts).
    expect(susp![0]).toBe(Math.fround(0.01));
    expect(susp![3]).toBeNaN();
    expect(Array.from(out!).every((v) => Number.isNaN(v))).toBe(true);
    // Typed arrays, not plain arrays of boxed numbers: a long session's lanes are no garbage-collector work.
    expect(l.pauses.columns().every((c) => c instanceof Float64Array)).toBe(true);
    expect(l.spans).toEqual([{ from: 0.1, to: 0.101, y: 2, i: 1 }]);
  });

  it('draws GCs the filters leave out only in the dimmed series', () => {
    const s = series(3);
    const l = new SessionLanes(1000, 1000, Uint8Array.from([1, 0, 1]));
    l.sync(s);
    const c = l.pauses.columns();
    expect(Array.from(c[9]!)).toEqual([Number.NaN, 2, Number.NaN]);
    expect(c[2]![1]).toBeNaN();
  });

  it("stacks heap areas but keeps each generation's own size and fragmentation for the legend", () => {
    const l = new SessionLanes(0);
    l.sync(series(2, (i) => ({ genSizeAfterMB: [4, 1, 0, 2, 0.5], fragmentationMB: i === 0 ? [1.5, 0, 0, 0.25, null] : [null, null, null, null, null] })));
    const [, poh, loh, gen2, gen1, gen0, , before, frag] = l.heap.columns();
    expect([gen0![0], gen1![0], gen2![0], loh![0], poh![0]]).toEqual([4, 5, 5, 7, 7.5]);
    expect([0, 1, 2, 3, 4].map((g) => l.ownAt(g, 0))).toEqual([4, 1, 0, 2, 0.5]);
    expect(before![0]).toBe(10);
    // Fragmentation: per generation for the hatching, the GC's total for the legend, none where the trace has none.
    expect([0, 1, 2, 3, 4].map((g) => l.fragAt(g, 0))).toEqual([1.5, 0, 0, 0.25, null]);
    expect(l.fragAt(0, 1)).toBeNull();
    expect(l.fragAt(0, 2)).toBeNull();
    expect(Array.from(frag!)).toEqual([1.75, Number.NaN]);
    expect(l.hasFragmentation).toBe(true);
  });

  it('building in live batches gives exactly the lanes of building at once', () => {
    const f = (i: number): Partial<GcRecord> => ({
      pauseStartRelativeMSec: 1000 + i * 37,
      pauseDurationMSec: 1 + (i % 7),
      type: i % 11 === 0 ? 1 : 0,
      allocRateMBSec: i,
    });
    const all = new SessionLanes(1000);
    all.sync(series(500, f));
    const g = new GrowableSeries();
    const live = new SessionLanes(1000);
    for (let i = 0; i < 500; i += 13) {
      g.append(columnsFromRecords(records(Math.min(500, i + 13), f).slice(i)));
      live.sync(g.view());
    }
    expect(live.pauses.columns()).toEqual(all.pauses.columns());
    expect(live.heap.columns()).toEqual(all.heap.columns());
    expect(live.rates.columns()).toEqual(all.rates.columns());
    expect(live.spans).toEqual(all.spans);
  });

  it('draws only the picked GCs of a decimated session, still counting every pause in % paused', () => {
    const s = series(4, (i) => ({ allocRateMBSec: 10 * i }));
    const picked = new SessionLanes(1000);
    picked.sync(s, Int32Array.from([1, 3]));
    const full = new SessionLanes(1000);
    full.sync(s);
    expect(Array.from(picked.rates.columns()[0])).toEqual([0.1, 0.3]);
    expect(Array.from(picked.rates.columns()[1]!)).toEqual([10, 30]);
    expect(Array.from(picked.rates.columns()[2]!)).toEqual([full.rates.columns()[2]![1], full.rates.columns()[2]![3]]);
    expect(picked.gcIndex(1)).toBe(3);
    expect(picked.pointOf(3)).toBe(1);
    expect(picked.pointOf(2)).toBe(-1);
  });

  it('% paused does not start at 100 %: the first window reaches back to the session start, not the first GC', () => {
    // First GC 2 s into the session, pausing 10 ms; then a GC every 100 ms pausing 10 ms.
    const s = series(30, (i) => ({ pauseStartRelativeMSec: 2000 + i * 100, pauseDurationMSec: 10 }));
    const l = new SessionLanes(0);
    l.sync(s);
    const pct = l.rates.columns()[2]!;
    expect(pct[0]).toBeCloseTo(1, 5);
    expect(pct[29]).toBeCloseTo(11, 0);
  });
});

describe('overview strip buckets', () => {
  it('keeps the whole session in a fixed number of buckets, merging as it grows, without losing the longest pause', () => {
    const o = new OverviewBuckets(0, 64, 0.01);
    const g = new GrowableSeries();
    for (let i = 0; i < 10_000; i += 100) {
      g.append(columnsFromRecords(records(i + 100, (k) => ({ pauseStartRelativeMSec: k * 10, pauseDurationMSec: k === 7777 ? 900 : 1 })).slice(i)));
      o.sync(g.view());
    }
    expect(o.used).toBeLessThanOrEqual(64);
    expect(o.width * o.buckets).toBeGreaterThanOrEqual(100);
    const at = Math.floor(77.77 / o.width);
    expect(o.maxPause[at]).toBe(900);
    expect(Math.max(...o.maxPause)).toBe(900);
  });
});

describe('axes', () => {
  it('uses one unit and one precision per axis', () => {
    expect(msTicks([0, 500, 1000, 1500])).toEqual(['0.0 s', '0.5 s', '1.0 s', '1.5 s']);
    expect(msTicks([0, 0.5, 1])).toEqual(['0.0 ms', '0.5 ms', '1.0 ms']);
    expect(msTicks([0, 0.2, 0.4])).toEqual(['0 µs', '200 µs', '400 µs']);
    expect(secondsTicks([10, 10.25, 10.5])).toEqual(['10.00 s', '10.25 s', '10.50 s']);
    // The narrowest zoom (1 ms, 3.86 s in): ticks 0.1 ms apart stay apart.
    expect(secondsTicks([3.8611, 3.8612, 3.8613])).toEqual(['3.8611 s', '3.8612 s', '3.8613 s']);
    expect(mbTicks([0, 500, 1000])).toEqual(['0.0 GB', '0.5 GB', '1.0 GB']);
    expect(mbTicks([0, 1_000_000, 2_000_000])).toEqual(['0 TB', '1 TB', '2 TB']);
    expect(cursorTime(12.3456)).toBe('12.346 s');
    expect(cursorTime(0.25)).toBe('250.0 ms');
  });

  it('clamps an axis below one spike and says points are clipped', () => {
    const v = Array.from({ length: 200 }, (_, i) => (i === 100 ? 50_000 : 100 + (i % 10)));
    const r = clampedMax(v, 0, v.length - 1);
    expect(r.clipped).toBe(true);
    expect(r.max).toBeLessThan(200);
    expect(clampedMax([1, 2, 3, null], 0, 3)).toEqual({ max: 3 * 1.05, clipped: false });
  });
});
