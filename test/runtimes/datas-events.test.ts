/**
 * DATAS on each runtime, from the workload traces recorded on .NET 8, 9 and 10 (test/fixtures,
 * see test/oracle/README.md). DATAS reports itself through GCDynamicEvent sub-events whose layouts
 * changed between runtimes: .NET 8 (opt-in, DOTNET_GCDynamicAdaptationMode=1) writes
 * HeapCountSample/HeapCountTuning, .NET 9 and 10 write SizeAdaptationSample/…Tuning. Every one must
 * decode (none left as raw bytes), and its fields must agree with the GCs around it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GCDynamicData } from '../../src-main/clr/gc-dynamic.js';
import { analyzeTraceFile } from '../../src-main/recording/analyze-file.js';
import { traceBytes, unzippedName, workloadTraceName } from '../helpers/fixtures.js';

const TMP = join(process.cwd(), 'test-output', 'runtimes');
mkdirSync(TMP, { recursive: true });

async function dynamicEvents(
  runtime: 'net8.0' | 'net9.0' | 'net10.0',
): Promise<{ gcNumbers: Set<number>; events: { gc: number; d: GCDynamicData }[]; heapCounts: number[] }> {
  const name = workloadTraceName(runtime, 'datas');
  const file = join(TMP, unzippedName(name));
  writeFileSync(file, traceBytes(name));
  const { analyzer } = await analyzeTraceFile(file);
  const gcs = analyzer.gcs.filter((g) => g !== undefined);
  return {
    gcNumbers: new Set(gcs.map((g) => g.number)),
    events: gcs.flatMap((g) => g.dynamicEvents.map((d) => ({ gc: g.number, d }))),
    heapCounts: analyzer.heapCountChanges.map(([, n]) => n),
  };
}

describe('DATAS dynamic events decode on every runtime', () => {
  it('.NET 8: every HeapCountSample and HeapCountTuning decodes, each belongs to the GC it names, and pause ≤ time between GCs', async () => {
    const { gcNumbers, events, heapCounts } = await dynamicEvents('net8.0');
    expect(events.filter((e) => e.d.name === 'Raw').map((e) => e.d)).toEqual([]);
    const samples = events.filter((e) => e.d.name === 'HeapCountSample');
    const tunings = events.filter((e) => e.d.name === 'HeapCountTuning');
    expect(samples.length).toBeGreaterThan(10);
    expect(tunings.length).toBeGreaterThan(0);
    for (const { gc, d } of samples) {
      if (d.name !== 'HeapCountSample') continue;
      expect(d.version).toBe(1);
      expect(d.gcIndex, 'the sample is fired during the GC it describes').toBe(gc);
      expect(d.gcPauseTime).toBeGreaterThan(0);
      expect(d.gcPauseTime).toBeLessThanOrEqual(d.elapsedTimeBetweenGCs);
    }
    for (const { gc, d } of tunings) {
      if (d.name !== 'HeapCountTuning') continue;
      expect(d.gcIndex).toBe(gc);
      expect(gcNumbers.has(d.gcIndex)).toBe(true);
      expect(d.newHeapCount).toBeGreaterThanOrEqual(1);
      expect(heapCounts).toContain(d.newHeapCount);
      expect(d.medianThroughputCostPercent).toBeGreaterThanOrEqual(0);
      expect(d.medianThroughputCostPercent).toBeLessThanOrEqual(100);
    }
  });

  for (const runtime of ['net9.0', 'net10.0'] as const) {
    it(`.NET ${runtime.slice(3, -2)}: every SizeAdaptationSample (38 bytes) and SizeAdaptation…Tuning decodes, each belongs to the GC it names`, async () => {
      const { events, heapCounts } = await dynamicEvents(runtime);
      expect(events.filter((e) => e.d.name === 'Raw').map((e) => e.d)).toEqual([]);
      const samples = events.filter((e) => e.d.name === 'SizeAdaptationSample');
      expect(samples.length).toBeGreaterThan(10);
      expect(events.some((e) => e.d.name === 'SizeAdaptationTuning')).toBe(true);
      expect(events.some((e) => e.d.name === 'HeapCountSample' || e.d.name === 'HeapCountTuning')).toBe(false);
      for (const { gc, d } of samples) {
        if (d.name !== 'SizeAdaptationSample') continue;
        expect(d.gcIndex).toBe(gc);
        expect(d.gcPauseTime).toBeLessThanOrEqual(d.elapsedTimeBetweenGCs);
        expect(d.gen0BudgetPerHeap).toBeGreaterThan(0);
      }
      for (const { gc, d } of events) {
        if (d.name !== 'SizeAdaptationTuning') continue;
        expect(d.gcIndex).toBe(gc);
        expect(heapCounts).toContain(d.newHeapCount);
      }
    });
  }
});
