/** The tiles of a recording: kept up to date batch by batch, equal to a rollup of everything so far. */
import { describe, expect, it } from 'vitest';
import { rollup, rollupInputOf } from '../../src-main/gc/rollup.js';
import { toGcRecord } from '../../src-main/gc/to-record.js';
import { analyzeTraceFile } from '../../src-main/recording/analyze-file.js';
import { LiveSummary } from '../../src-main/service/live-summary.js';
import { TRACES } from '../helpers/fixtures.js';

describe('live summary', () => {
  it('after every batch of a real trace\'s GCs, the tiles equal the rollup of all GCs so far', async () => {
    const a = await analyzeTraceFile(TRACES + 'workload-concurrent.nettrace.zip');
    const gcs = a.analyzer.gcs.filter((g) => g !== undefined);
    const records = gcs.map((g) => toGcRecord(g));
    expect(records.length).toBeGreaterThan(30);
    const live = new LiveSummary();
    for (let i = 0; i < records.length; i += 7) {
      const got = live.add(records.slice(i, i + 7));
      const done = gcs.slice(0, i + 7).filter((g) => g.isComplete).map(rollupInputOf);
      const lastEnd = done.reduce((m, x) => Math.max(m, x.pauseStartRelativeMSec + x.pauseDurationMSec), 0);
      const r = rollup(done, lastEnd);
      expect(got.gcCount).toBe(done.length);
      expect(got.countByGeneration).toEqual(r.generations.map((g) => g.count));
      expect(got.backgroundGCs).toBe(r.all.numBackground);
      expect(got.inducedGCs).toBe(r.all.numInduced);
      expect(got.totalPauseMSec).toBeCloseTo(r.all.totalPauseTimeMSec, 9);
      expect(got.maxPauseMSec).toBe(r.all.maxPauseDurationMSec);
      expect(got.pauseP50MSec).toBe(r.all.pauseP50MSec);
      expect(got.pauseP90MSec).toBe(r.all.pauseP90MSec);
      expect(got.pauseP99MSec).toBe(r.all.pauseP99MSec);
      expect(got.pauseTimePercentage).toBeCloseTo(r.pauseTimePercentage!, 9);
      expect(got.allocatedMB).toBeCloseTo(r.all.totalAllocatedMB, 6);
      expect(got.peakHeapMB).toBe(Math.max(...done.map((x) => x.heapSizePeakMB)));
    }
    expect(live.covers(records[0]!.pauseStartRelativeMSec, records[records.length - 1]!.pauseStartRelativeMSec)).toBe(true);
    expect(live.covers(records[0]!.pauseStartRelativeMSec + 1, Number.POSITIVE_INFINITY)).toBe(false);
  });
});
