/**
 * The session view's filter on a real trace: the per-GC mask the charts dim by (null when no
 * filter is active), the table rows it leaves, and "filters active" — one predicate for all.
 */
import { describe, expect, it } from 'vitest';
import { analyzeTraceFile } from '../../src-main/recording/analyze-file.js';
import { toGcRecord } from '../../src-main/gc/to-record.js';
import { isFilterActive, noFilter, passesFilter } from '../../src-main/shared/gc-filter.js';
import { seriesFromRecords, type GcSeries } from '../../src-main/shared/gc-series.js';
import { computeRows, filterMask } from '../../src-renderer/state/table-rows.js';
import { TRACES } from '../helpers/fixtures.js';

async function realSeries(): Promise<GcSeries> {
  const a = await analyzeTraceFile(TRACES + 'workload-concurrent.nettrace.zip');
  return seriesFromRecords(a.analyzer.gcs.filter((g) => g !== undefined).map((g) => toGcRecord(g!)));
}

describe('GC filter', () => {
  it('no filter: no mask (charts draw everything), every GC in the table, not "active"', async () => {
    const s = await realSeries();
    expect(s.length).toBeGreaterThan(30);
    expect(isFilterActive(noFilter())).toBe(false);
    expect(filterMask(s, noFilter())).toBeNull();
    expect(computeRows(s, null, noFilter(), 'number', false)).toHaveLength(s.length);
    // An emptied minimum-pause box is no filter either.
    expect(isFilterActive({ ...noFilter(), minPauseMSec: null })).toBe(false);
  });

  it('a filter: the mask marks exactly the GCs the table lists, by the same predicate', async () => {
    const s = await realSeries();
    for (const f of [
      { ...noFilter(), reason: 1 },
      { ...noFilter(), generations: [false, false, true] as [boolean, boolean, boolean] },
      { ...noFilter(), kinds: [false, true, true] as [boolean, boolean, boolean] },
      { ...noFilter(), minPauseMSec: 3 },
    ]) {
      expect(isFilterActive(f)).toBe(true);
      const mask = filterMask(s, f)!;
      expect(mask).toHaveLength(s.length);
      const rows = Array.from(computeRows(s, null, f, 'number', false));
      const marked = Array.from(mask).flatMap((m, i) => (m === 1 ? [i] : []));
      expect(rows).toEqual(marked);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.length).toBeLessThan(s.length);
      for (const i of rows) expect(passesFilter(f, s.generation[i]!, s.type[i]!, s.reason[i]!, s.pause[i]!)).toBe(true);
    }
  });
});
