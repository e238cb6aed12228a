/**
 * The comparison on real runs of the workload (test/fixtures/PROVENANCE.md, "Traces recorded for
 * gcscope compare"): the same run recorded twice must show no detectable change on any headline
 * metric; workstation against Server GC, and a run allocating 3× as fast, must show the expected
 * direction with an interval that excludes no change.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { compareSessions, type CompareInput } from '../../src-main/compare/comparison.js';
import { reportFromFile } from '../../src-main/recording/report-source.js';
import { columnsFromRecords } from '../../src-main/shared/gc-column-registry.js';
import type { Comparison, ComparisonMetric } from '../../src-main/shared/comparison.js';
import { TRACES } from '../helpers/fixtures.js';

async function side(name: string, label: string): Promise<CompareInput> {
  const r = await reportFromFile(TRACES + name);
  return {
    label,
    columns: columnsFromRecords(r.gcs),
    gcMode: r.process.gcMode,
    concurrent: r.process.concurrent,
    runtimeVersion: r.process.runtimeVersion,
    heapCount: r.process.heapCount,
    cpuCount: r.trace.cpuCount,
    processName: r.process.name,
  };
}

const metric = (c: Comparison, id: string): ComparisonMetric => {
  const m = c.metrics.find((x) => x.id === id);
  if (m === undefined) throw new Error(`no metric ${id} in ${c.metrics.map((x) => x.id).join(', ')}`);
  return m;
};

let ws1: CompareInput, ws2: CompareInput, server: CompareInput, x1: CompareInput, x3: CompareInput;
beforeAll(async () => {
  [ws1, ws2, server, x1, x3] = await Promise.all([
    side('compare-ws-1.nettrace.zip', 'A'),
    side('compare-ws-2.nettrace.zip', 'B'),
    side('compare-server.nettrace.zip', 'B'),
    side('compare-alloc-1x.nettrace.zip', 'A'),
    side('compare-alloc-3x.nettrace.zip', 'B'),
  ]);
});

describe('the same workload recorded twice', () => {
  it('shows "no detectable change" on every headline metric', () => {
    const c = compareSessions(ws1, ws2);
    const tested = c.metrics.filter((m) => m.verdict !== 'insufficient' && m.verdict !== 'not-tested');
    // Pause medians of three strata, p90 of gen0, % paused, allocation rate, two rates, two heap metrics.
    expect(tested.length).toBeGreaterThanOrEqual(10);
    for (const m of c.metrics) {
      expect([m.id, m.verdict]).not.toEqual([m.id, 'higher']);
      expect([m.id, m.verdict]).not.toEqual([m.id, 'lower']);
    }
    for (const m of tested) expect(m.text).toMatch(/^no detectable change/);
    expect(c.differences).toEqual([]);
  });

  it('excludes the warm-up by default, says how much, and includes it on request', () => {
    const c = compareSessions(ws1, ws2);
    expect(c.a.warmup.excluded).toBe(true);
    expect(c.a.warmup.excludedGCs).toBeGreaterThan(0);
    expect(c.a.usedGCs).toBe(c.a.gcCount - c.a.warmup.excludedGCs);
    expect(c.a.warmup.note).toMatch(/gen2 \+ LOH/);
    const w = compareSessions(ws1, ws2, { includeWarmup: true });
    expect(w.a.warmup.excluded).toBe(false);
    expect(w.a.usedGCs).toBe(w.a.gcCount);
  });

  it('is reproducible: the same seed gives the same intervals', () => {
    expect(JSON.stringify(compareSessions(ws1, ws2, { seed: 7 }))).toBe(JSON.stringify(compareSessions(ws1, ws2, { seed: 7 })));
  });
});

describe('workstation against Server GC', () => {
  it('flags the different GC mode at the top', () => {
    const c = compareSessions(ws1, server);
    expect(c.differences.join(' ')).toMatch(/GC mode differs: A workstation.*B server/);
  });

  it('detects fewer GCs per GB allocated and a larger peak heap under Server GC, with intervals excluding no change', () => {
    const c = compareSessions(ws1, server);
    const perGb = metric(c, 'gcs-per-gb');
    expect(perGb.verdict).toBe('lower');
    expect(perGb.interval!.ci![1]).toBeLessThan(1);
    expect(perGb.text).toMatch(/^GCs per GB allocated .* lower in B \(95 % CI/);
    const peak = metric(c, 'peak-heap');
    expect(peak.verdict).toBe('higher');
    expect(peak.interval!.ci![0]).toBeGreaterThan(1);
  });
});

describe('a run allocating 3× as fast', () => {
  it('detects the allocation rate about 3× higher, with an interval excluding no change', () => {
    const c = compareSessions(x1, x3);
    const rate = metric(c, 'alloc-rate');
    expect(rate.verdict).toBe('higher');
    expect(rate.interval!.ci![0]).toBeGreaterThan(1);
    expect(rate.interval!.estimate).toBeGreaterThan(2);
    expect(rate.interval!.estimate).toBeLessThan(4.5);
    expect(rate.text).toMatch(/^allocation rate \d\.\d× higher in B \(95 % CI/);
  });

  it('finds the same number of GCs per GB: the extra GCs are explained by the extra allocation', () => {
    const c = compareSessions(x1, x3);
    expect(['same', 'inconclusive']).toContain(metric(c, 'gcs-per-gb').verdict);
  });
});
