/**
 * Every GCDynamicEvent sub-event layout, built byte by byte from the layouts in
 * docs/formats.md §3.6 (runtime gcevents.h / dynamic_heap_count.cpp; PerfView
 * 706330a8 for the .NET 8 ones): decoded at exactly the layout's size, with extra trailing bytes
 * (fields a later runtime appends), and kept raw (counted) when shorter or unknown. Then the real
 * DATAS trace: every sub-event decodes and lands on the GC it names.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ByteCursor } from '../../src-main/trace/byte-cursor.js';
import { decodeDynamicEvent, DYNAMIC_EVENT_SIZES } from '../../src-main/clr/gc-dynamic.js';
import { GCAnalyzer } from '../../src-main/gc/gc-analyzer.js';
import { analyzeTraceFile } from '../../src-main/recording/analyze-file.js';
import type { TraceEventRecord } from '../../src-main/nettrace/types.js';
import { eventRecord } from '../helpers/event-record.js';
import { Bytes } from '../helpers/nettrace-builder.js';
import { traceBytes, unzippedName } from '../helpers/fixtures.js';

const decode = (name: string, b: Bytes): ReturnType<typeof decodeDynamicEvent> => decodeDynamicEvent(name, new ByteCursor(b.toUint8Array(), 0));
const withTrailing = (b: Bytes): Bytes => new Bytes().bytes(b).u32(0xdeadbeef).u8(7);

interface Case {
  name: keyof typeof DYNAMIC_EVENT_SIZES;
  bytes: () => Bytes;
  want: Record<string, unknown>;
}

const CASES: Case[] = [
  {
    name: 'CommittedUsage',
    bytes: () => new Bytes().u16(1).u64(3_313_664).u64(8192).u64(606_208).u64(4096).u64(425_984),
    want: {
      version: 1,
      totalCommittedInUse: 3_313_664,
      totalCommittedInGlobalDecommit: 8192,
      totalCommittedInFree: 606_208,
      totalCommittedInGlobalFree: 4096,
      totalBookkeepingCommitted: 425_984,
    },
  },
  {
    name: 'HeapCountTuning',
    bytes: () => new Bytes().u16(1).u16(4).u64(77).f32(5.5).f32(4.25).f32(1.5).f32(0.75).f32(2.5).f32(3.5),
    want: {
      version: 1,
      newHeapCount: 4,
      gcIndex: 77,
      medianThroughputCostPercent: 5.5,
      smoothedMedianThroughputCostPercent: 4.25,
      throughputCostPercentReductionPerStepUp: 1.5,
      throughputCostPercentIncreasePerStepDown: 0.75,
      spaceCostPercentIncreasePerStepUp: 2.5,
      spaceCostPercentDecreasePerStepDown: 3.5,
    },
  },
  {
    name: 'HeapCountSample',
    bytes: () => new Bytes().u16(1).u64(12).u64(250_000).u64(1_200).u64(3_400),
    want: { version: 1, gcIndex: 12, elapsedTimeBetweenGCs: 250_000, gcPauseTime: 1_200, mslWaitTime: 3_400 },
  },
  {
    name: 'SizeAdaptationSample',
    bytes: () => new Bytes().u16(1).u64(4).u32(614).u32(49).u32(7).u32(3).u64(584).u32(2_621_440),
    want: {
      version: 1,
      gcIndex: 4,
      elapsedTimeBetweenGCs: 614,
      gcPauseTime: 49,
      sohMslWaitTime: 7,
      uohMslWaitTime: 3,
      totalSohStableSize: 584,
      gen0BudgetPerHeap: 2_621_440,
    },
  },
  {
    // The first SizeAdaptationTuning of test/fixtures/traces/workload-datas (.NET 10), field by field.
    name: 'SizeAdaptationTuning',
    bytes: () =>
      new Bytes()
        .u16(1)
        .u16(2)
        .u16(45)
        .u16(1)
        .u64(65)
        .u64(62_901_768)
        .f32(22.25)
        .f32(21.5)
        .f32(20.25)
        .u16(1)
        .f32(-0.5)
        .u32(4)
        .u8(1)
        .u16(3)
        .u16(1)
        .u16(2)
        .u16(5)
        .u8(6),
    want: {
      version: 1,
      newHeapCount: 2,
      maxHeapCountDatas: 45,
      minHeapCountDatas: 1,
      gcIndex: 65,
      totalSohStableSize: 62_901_768,
      medianThroughputCostPercent: 22.25,
      tcpToConsider: 21.5,
      currentAroundTargetAccumulation: 20.25,
      recordedTcpCount: 1,
      recordedTcpSlope: -0.5,
      numGcsSinceLastChange: 4,
      aggFactor: 1,
      changeDecision: 3,
      adjReason: 1,
      hcChangeFreqFactor: 2,
      hcFreqReason: 5,
      adjMetric: 6,
    },
  },
  {
    name: 'SizeAdaptationFullGCTuning',
    bytes: () => new Bytes().u16(1).u16(2).u64(27).f32(3.25).u32(3).u32(22).f32(0.5).u32(13).f32(3.25).u32(0).f32(9.125),
    want: {
      version: 1,
      newHeapCount: 2,
      gcIndex: 27,
      medianThroughputCostPercent: 3.25,
      numGen2sSinceLastChange: 3,
      samples: [
        { age: 22, percent: 0.5 },
        { age: 13, percent: 3.25 },
        { age: 0, percent: 9.125 },
      ],
    },
  },
];

describe('GC dynamic event layouts, hand-built', () => {
  for (const c of CASES) {
    it(`${c.name}: ${DYNAMIC_EVENT_SIZES[c.name]} bytes decode field by field`, () => {
      const b = c.bytes();
      expect(b.length, 'the hand-built layout has the documented size').toBe(DYNAMIC_EVENT_SIZES[c.name]);
      expect(decode(c.name, b)).toEqual({ name: c.name, ...c.want });
    });
    it(`${c.name}: extra trailing bytes (a later runtime's fields) are ignored, not fatal`, () => {
      expect(decode(c.name, withTrailing(c.bytes()))).toEqual({ name: c.name, ...c.want });
    });
    it(`${c.name}: one byte short is kept raw with its name, version and size`, () => {
      const full = c.bytes().toUint8Array();
      const short = full.subarray(0, full.length - 1);
      expect(decodeDynamicEvent(c.name, new ByteCursor(short, 0))).toEqual({ name: 'Raw', eventName: c.name, version: 1, size: full.length - 1 });
    });
  }

  it('an unknown sub-event is kept raw, and the analyzer counts raw ones per name', () => {
    expect(decode('OOMDetails', new Bytes().u16(1).u64(5))).toEqual({ name: 'Raw', eventName: 'OOMDetails', version: 1, size: 10 });
    expect(decode('Empty', new Bytes())).toEqual({ name: 'Raw', eventName: 'Empty', version: undefined, size: 0 });
    // Through the analyzer: a GC in progress, then two unknown and one short event.
    const a = new GCAnalyzer();
    a.setTrace({ pointerSize: 8, qpcFrequency: 1000 } as never);
    const ev = (id: number, p: Bytes, ts: number, tid = 5): TraceEventRecord =>
      eventRecord(id, p, { version: id === 1 ? 2 : id === 9 ? 1 : 0, timestamp: ts, threadId: tid, sequenceNumber: ts });
    const dyn = (name: string, data: Bytes): Bytes => new Bytes().utf16z(name).u32(data.length).bytes(data).u16(0);
    a.onEvent(ev(9, new Bytes().u32(1).u32(1).u16(0), 1)); // SuspendEEBegin V1: reason ForGC, count
    a.onEvent(ev(1, new Bytes().u32(1).u32(0).u32(0).u32(0).u16(0).u64(0), 2)); // GCStart V2
    a.onEvent(ev(39, dyn('OOMDetails', new Bytes().u16(1).u64(5)), 3));
    a.onEvent(ev(39, dyn('OOMDetails', new Bytes().u16(1).u64(6)), 4));
    a.onEvent(ev(39, dyn('SizeAdaptationSample', new Bytes().u16(1).u64(1)), 5));
    expect(a.counters.rawDynamicEvents).toEqual({ OOMDetails: 2, SizeAdaptationSample: 1 });
    expect(a.currentGC()?.dynamicEvents.map((d) => d.name)).toEqual(['Raw', 'Raw', 'Raw']);
  });
});

describe('GC dynamic events on a real DATAS trace (.NET 10, busy then light)', () => {
  it('every sub-event decodes (none raw), and each sample and decision is attached to the GC it names', async () => {
    const name = 'workload-net10-datas-phases.nettrace.zip';
    const dir = join(process.cwd(), 'test-output', 'clr');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, unzippedName(name));
    writeFileSync(file, traceBytes(name));
    const { analyzer } = await analyzeTraceFile(file);
    expect(analyzer.counters.rawDynamicEvents).toEqual({});
    const gcs = analyzer.gcs.filter((g) => g !== undefined);
    const all = gcs.flatMap((g) => g.dynamicEvents.map((d) => ({ gc: g.number, d })));
    const byName = new Map<string, number>();
    for (const { d } of all) byName.set(d.name, (byName.get(d.name) ?? 0) + 1);
    expect(byName.get('SizeAdaptationSample')).toBeGreaterThan(100);
    expect(byName.get('SizeAdaptationTuning')).toBeGreaterThan(10);
    expect(byName.get('SizeAdaptationFullGCTuning')).toBeGreaterThan(0);
    for (const { gc, d } of all) {
      if (d.name === 'Raw' || d.name === 'CommittedUsage') continue;
      expect(d.gcIndex, `${d.name} during GC ${gc}`).toBe(gc);
      if (d.name === 'SizeAdaptationTuning') {
        expect(d.newHeapCount).toBeGreaterThanOrEqual(1);
        expect(d.newHeapCount).toBeLessThanOrEqual(2); // 2 cores
        expect(d.recordedTcpCount).toBeLessThan(1000);
      }
      if (d.name === 'SizeAdaptationFullGCTuning') for (const s of d.samples) expect(s.percent).toBeGreaterThanOrEqual(0);
    }
  });
});
