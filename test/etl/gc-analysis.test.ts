/**
 * The GC analysis of a .NET Framework 4.5.2 ETL (PerfView-merged, compressed), per process, the
 * way `gcscope report --pid` reads it: one GC per GC although the runtime fires GCStart in two
 * versions (V1 and V2, same count, ~4 µs apart, same thread — seen on the real file), and the
 * generation sizes TraceEvent prints for each GC's HeapStats.
 */
import { describe, expect, it } from 'vitest';
import { analyzeTraceFile } from '../../src-main/recording/analyze-file.js';
import { FIXTURES } from '../helpers/fixtures.js';
import { readBaseline } from './helpers.js';

const FILE = `${FIXTURES}etl/net.4.5.2.x64.etl.zip`;
const TEST_X64 = 3676;
const PERFVIEW = 3988;

describe('GC analysis of net.4.5.2.x64.etl.zip', () => {
  it('finds each process’s GCs once — 263 in Test.x64 and 1 in PerfView, the baseline’s 264 HeapStats — with TraceEvent’s generation sizes', async () => {
    const baseline = readBaseline('net.4.5.2.x64');
    const test = await analyzeTraceFile(FILE, { processId: TEST_X64 });
    const perfview = await analyzeTraceFile(FILE, { processId: PERFVIEW });
    expect(test.reader.state).toBe('complete');
    const gcs = test.analyzer.gcs.filter((g) => g !== undefined);
    const other = perfview.analyzer.gcs.filter((g) => g !== undefined);
    expect(gcs.length + other.length).toBe(baseline.counts.get('Microsoft-Windows-DotNETRuntime/GC/HeapStats'));
    expect(gcs).toHaveLength(263);
    expect(other).toHaveLength(1);
    // One GC per GC: numbers 1..263 each once; every second GCStart (the V2 copy) was set aside.
    expect(gcs.map((g) => g.number)).toEqual(Array.from({ length: 263 }, (_, k) => k + 1));
    expect(test.analyzer.counters.ignoredGCStarts).toBe(263);
    expect(gcs.every((g) => g.heapStats !== undefined && g.isComplete)).toBe(true);
    // The baseline's HeapStats lines, matched to the GC they follow by time.
    const lines = baseline.events.filter((e) => e.name === 'Microsoft-Windows-DotNETRuntime/GC/HeapStats');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const all = line.pid === TEST_X64 ? gcs : other;
      const gc = all.find((g) => Math.abs(g.heapStatsRelativeMSec - line.ms) < 0.001);
      expect(gc, `HeapStats at ${line.ms} ms`).toBeDefined();
      const n = (f: string): number => Number(line.fields[f]!.replace(/,/g, ''));
      expect(gc!.heapStats!.generationSize.slice(0, 4)).toEqual([n('GenerationSize0'), n('GenerationSize1'), n('GenerationSize2'), n('GenerationSize3')]);
      expect(gc!.heapStats!.totalPromotedSize.slice(0, 4)).toEqual([
        n('TotalPromotedSize0'),
        n('TotalPromotedSize1'),
        n('TotalPromotedSize2'),
        n('TotalPromotedSize3'),
      ]);
    }
    // The GC/Start lines: reason and generation as TraceEvent read them.
    const starts = baseline.events.filter((e) => e.name === 'Microsoft-Windows-DotNETRuntime/GC/Start' && e.pid === TEST_X64);
    for (const s of starts) {
      const gc = gcs.find((g) => g.number === Number(s.fields['Count']));
      expect(gc!.generation).toBe(Number(s.fields['Depth']));
    }
    expect(test.trace!.pointerSize).toBe(8);
    expect(perfview.trace!.pointerSize).toBe(4);
  });
});
