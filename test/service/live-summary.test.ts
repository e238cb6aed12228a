/** The tiles of a recording: kept up to date batch by batch, equal to a rollup of everything so far. */
import { describe, expect, it } from 'vitest';
import { completedRows } from '../../src-main/gc/rollup.js';
import { summarize } from '../../src-main/gc/summary.js';
import { toGcRecord } from '../../src-main/gc/to-record.js';
import { columnsFromRecords } from '../../src-main/shared/gc-column-registry.js';
import { analyzeTraceFile } from '../../src-main/recording/analyze-file.js';
import { rangeGroups } from '../../src-main/service/group-rollup.js';
import { LiveSummary } from '../../src-main/service/live-summary.js';
import { TRACES } from '../helpers/fixtures.js';

describe('live summary', () => {
  it('after every batch of a real trace\'s GCs, the tiles and the rollup by generation and reason equal those of all GCs so far', async () => {
    const a = await analyzeTraceFile(TRACES + 'workload-concurrent.nettrace.zip');
    const gcs = a.analyzer.gcs.filter((g) => g !== undefined);
    const records = gcs.map((g) => toGcRecord(g));
    expect(records.length).toBeGreaterThan(30);
    const live = new LiveSummary();
    for (let i = 0; i < records.length; i += 7) {
      const got = live.add(columnsFromRecords(records.slice(i, i + 7)));
      // What getRangeSummary computes for the whole session while it records.
      const c = columnsFromRecords(records.slice(0, i + 7));
      const rows = completedRows(c);
      let lastEnd = 0;
      for (const k of rows) lastEnd = Math.max(lastEnd, c.time[k]! + c.pause[k]!);
      const whole = summarize(c, rows, { lastHeapStatsMSec: lastEnd });
      const want = whole.summary;
      expect(rows.length).toBeGreaterThan(0);
      for (const [k, v] of Object.entries(want)) {
        const g = (got as unknown as Record<string, unknown>)[k];
        if (typeof v === 'number') expect(g, k).toBeCloseTo(v, 6);
        else expect(g, k).toEqual(v);
      }
      // The rollup panel's rows by generation and by reason, as the stored session computes them.
      const groups = rangeGroups(c, rows, whole.rollup.generations);
      for (const key of ['byGeneration', 'byReason'] as const) {
        expect(got[key].map((g) => g.label), key).toEqual(groups[key].map((g) => g.label));
        got[key].forEach((g, j) => {
          for (const [k, v] of Object.entries(groups[key][j]!)) {
            const x = (g as unknown as Record<string, unknown>)[k];
            if (typeof v === 'number') expect(x, `${key}[${j}].${k}`).toBeCloseTo(v, 6);
            else expect(x, `${key}[${j}].${k}`).toEqual(v);
          }
        });
      }
    }
    // The suspension tile, against the GCs themselves: the longest, and its share of their pauses.
    const done = records.filter((r) => r.isComplete);
    expect(live.summary().maxSuspendMSec).toBe(Math.max(...done.map((r) => r.suspendDurationMSec)));
    expect(live.summary().suspendPercentOfPause).toBeCloseTo((done.reduce((a, r) => a + r.suspendDurationMSec, 0) * 100) / done.reduce((a, r) => a + r.pauseDurationMSec, 0), 9);
    expect(live.covers(records[0]!.pauseStartRelativeMSec, records[records.length - 1]!.pauseStartRelativeMSec)).toBe(true);
    expect(live.covers(records[0]!.pauseStartRelativeMSec + 1, Number.POSITIVE_INFINITY)).toBe(false);
  });
});
