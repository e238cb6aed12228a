/**
 * The tiles of a recording: the batch summary (gc/summary.ts) applied GC by GC. After every live
 * batch they equal `summarize()` and the rollup rows over the completed GCs so far — also when GCs
 * are sent again with changed values (onGCUpdated), and at the end the summary of the session's
 * final columns.
 */
import { describe, expect, it } from 'vitest';
import { completedRows } from '../../src-main/gc/rollup.js';
import { summarize } from '../../src-main/gc/summary.js';
import { toGcRecord } from '../../src-main/gc/to-record.js';
import { analyzeTraceFile } from '../../src-main/recording/analyze-file.js';
import { rangeGroups } from '../../src-main/service/group-rollup.js';
import { LiveSummary } from '../../src-main/service/live-summary.js';
import type { RangeSummary } from '../../src-main/shared/contract.js';
import { columnsFromRecords, type GcColumns } from '../../src-main/shared/gc-column-registry.js';
import { TRACES } from '../helpers/fixtures.js';
import { playRecording } from '../helpers/played-recording.js';

/** What getRangeSummary computes for a recording's whole session from its columns (the newest GC's end for the last HeapStats). */
function batchSummary(c: GcColumns): RangeSummary {
  const rows = completedRows(c);
  let lastEnd = 0;
  for (const k of rows) lastEnd = Math.max(lastEnd, c.time[k]! + c.pause[k]!);
  const { summary, rollup } = summarize(c, rows, { lastHeapStatsMSec: lastEnd });
  return { ...summary, ...rangeGroups(c, rows, rollup.generations), pausedOverMSec: summary.processDurationMSec };
}

/**
 * Equal: counts, maxima, percentiles and labels exactly; sums to the last bits (a GC taken out
 * and added again, or a background GC added after later ones, sums in another order).
 */
function expectSame(got: unknown, want: unknown, path = 'summary'): void {
  if (typeof want === 'number' && typeof got === 'number' && Number.isFinite(want)) {
    expect(Math.abs(got - want), `${path}: ${got} vs ${want}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(want)));
  } else if (Array.isArray(want)) {
    expect((got as unknown[]).length, path).toBe(want.length);
    want.forEach((w, i) => expectSame((got as unknown[])[i], w, `${path}[${i}]`));
  } else if (want !== null && typeof want === 'object') {
    expect(Object.keys(got as object).sort(), path).toEqual(Object.keys(want).sort());
    for (const [k, w] of Object.entries(want)) expectSame((got as Record<string, unknown>)[k], w, `${path}.${k}`);
  } else expect(got, path).toEqual(want);
}

describe('live summary', () => {
  it("after every batch of a real trace's GCs, the tiles and the rollup by generation and reason equal those of all GCs so far", async () => {
    const a = await analyzeTraceFile(TRACES + 'workload-concurrent.nettrace.zip');
    const records = a.analyzer.gcs.filter((g) => g !== undefined).map((g) => toGcRecord(g));
    expect(records.length).toBeGreaterThan(30);
    const live = new LiveSummary();
    for (let i = 0; i < records.length; i += 7) {
      const got = live.add(columnsFromRecords(records.slice(i, i + 7)));
      expectSame(got, batchSummary(columnsFromRecords(records.slice(0, i + 7))));
    }
    // The suspension tile, against the GCs themselves: the longest, and its share of their pauses.
    const done = records.filter((r) => r.isComplete);
    expect(live.summary().maxSuspendMSec).toBe(Math.max(...done.map((r) => r.suspendDurationMSec)));
    expect(live.summary().suspendPercentOfPause).toBeCloseTo(
      (done.reduce((a, r) => a + r.suspendDurationMSec, 0) * 100) / done.reduce((a, r) => a + r.pauseDurationMSec, 0),
      9,
    );
    expect(live.covers(records[0]!.pauseStartRelativeMSec, records[records.length - 1]!.pauseStartRelativeMSec)).toBe(true);
    expect(live.covers(records[0]!.pauseStartRelativeMSec + 1, Number.POSITIVE_INFINITY)).toBe(false);
  });

  it('GCs sent again with changed values (onGCUpdated) and background GCs after later ones: equal to the batch summary after every batch, and at the end to that of the final columns', async () => {
    const { sent, columns: final } = await playRecording('problem-loh-alloc-wait.nettrace.zip');
    // The trace has both: GCs out of number order, and GCs sent again.
    expect(sent.some((x, k) => k > 0 && !x.again && x.r.number < sent[k - 1]!.r.number)).toBe(true);
    expect(sent.filter((x) => x.again).length).toBeGreaterThan(5);
    const live = new LiveSummary();
    for (let k = 0; k < sent.length; k += 4) {
      live.add(columnsFromRecords(sent.slice(k, k + 4).map((x) => x.r)));
      expectSame(live.summary(), batchSummary(live.columns()), `after ${k + 4} sent`);
    }
    // The live columns are the stored session's, and so is the summary.
    expect(live.columns().index.length).toBe(final.index.length);
    expectSame(live.summary(), batchSummary(final));
  });

  it('a GC sent again that no longer holds a maximum, changes reason or becomes incomplete leaves the summary of the new values', async () => {
    const a = await analyzeTraceFile(TRACES + 'workload-concurrent.nettrace.zip');
    const records = a.analyzer.gcs.filter((g) => g !== undefined).map((g) => toGcRecord(g));
    const done = records.filter((r) => r.isComplete);
    const longest = done.reduce((m, r) => (r.pauseDurationMSec > m.pauseDurationMSec ? r : m));
    const peak = done.reduce((m, r) => ((r.heapSizePeakMB ?? 0) > (m.heapSizePeakMB ?? 0) ? r : m));
    const other = done.find((r) => r !== longest && r !== peak)!;
    const live = new LiveSummary();
    live.add(columnsFromRecords(records));
    const changed = [
      { ...longest, pauseDurationMSec: longest.pauseDurationMSec / 100 },
      { ...peak, heapSizePeakMB: 0.5 },
      { ...other, reason: 99, isComplete: false },
    ];
    live.add(columnsFromRecords(changed));
    const after = records.map((r) => changed.find((c) => c.index === r.index) ?? r);
    expectSame(live.summary(), batchSummary(columnsFromRecords(after)));
    expect(live.summary().byReason.some((g) => g.key === 99)).toBe(false);
    expect(live.summary().maxPauseMSec).toBeLessThan(longest.pauseDurationMSec);
  });
});
