/**
 * GCDynamicEvent (runtime event 39) is a container: a UTF16z Name, a u32 DataSize and that many
 * bytes whose layout depends on the name (docs/formats.md §3.6; runtime gcevents.h DYNAMIC_EVENT).
 * Every known sub-event starts with a u16 version. Layouts have changed between runtime builds,
 * so each decoder checks the size it needs and otherwise the data is kept as raw bytes.
 */
import type { ByteCursor } from '../trace/byte-cursor.js';
import { TraceDecodeError } from '../trace/errors.js';

export interface CommittedUsage {
  name: 'CommittedUsage';
  version: number;
  totalCommittedInUse: number;
  totalCommittedInGlobalDecommit: number;
  totalCommittedInFree: number;
  totalCommittedInGlobalFree: number;
  totalBookkeepingCommitted: number;
}
export interface HeapCountTuning {
  name: 'HeapCountTuning';
  version: number;
  newHeapCount: number;
  gcIndex: number;
  medianThroughputCostPercent: number;
  smoothedMedianThroughputCostPercent: number;
  throughputCostPercentReductionPerStepUp: number;
  throughputCostPercentIncreasePerStepDown: number;
  spaceCostPercentIncreasePerStepUp: number;
  spaceCostPercentDecreasePerStepDown: number;
}
/** .NET 8's DATAS sample (the first DATAS; .NET 9 replaced it with SizeAdaptationSample). Times in µs. */
export interface HeapCountSample {
  name: 'HeapCountSample';
  version: number;
  gcIndex: number;
  elapsedTimeBetweenGCs: number;
  gcPauseTime: number;
  mslWaitTime: number;
}
/**
 * .NET 9+ DATAS decision, fired about every third GC whether or not the count changes (runtime
 * dynamic_heap_count.cpp, calculate_new_heap_count). Throughput cost (TCP) is in percent. The
 * code fields (changeDecision, adjReason, hcFreqReason, adjMetric) are the runtime's enums in
 * gcpriv.h, kept as numbers.
 */
export interface SizeAdaptationTuning {
  name: 'SizeAdaptationTuning';
  version: number;
  newHeapCount: number;
  maxHeapCountDatas: number;
  minHeapCountDatas: number;
  gcIndex: number;
  totalSohStableSize: number;
  medianThroughputCostPercent: number;
  tcpToConsider: number;
  currentAroundTargetAccumulation: number;
  recordedTcpCount: number;
  recordedTcpSlope: number;
  numGcsSinceLastChange: number;
  aggFactor: number;
  changeDecision: number;
  adjReason: number;
  hcChangeFreqFactor: number;
  hcFreqReason: number;
  adjMetric: number;
}
/** One of the three gen2 samples a full-GC tuning decision used: its age in GCs and its gen2 TCP (%). */
export interface Gen2Sample {
  age: number;
  percent: number;
}
/** .NET 9+ gen2 "backstop": after 3 new gen2 samples, grow or shrink by the gen2 cost. */
export interface SizeAdaptationFullGCTuning {
  name: 'SizeAdaptationFullGCTuning';
  version: number;
  newHeapCount: number;
  gcIndex: number;
  medianThroughputCostPercent: number;
  numGen2sSinceLastChange: number;
  samples: [Gen2Sample, Gen2Sample, Gen2Sample];
}
export interface SizeAdaptationSample {
  name: 'SizeAdaptationSample';
  version: number;
  gcIndex: number;
  elapsedTimeBetweenGCs: number;
  gcPauseTime: number;
  sohMslWaitTime: number;
  uohMslWaitTime: number;
  totalSohStableSize: number;
  gen0BudgetPerHeap: number;
}
export interface RawDynamic {
  name: 'Raw';
  /** The sub-event name as written. */
  eventName: string;
  version: number | undefined;
  size: number;
}

export type GCDynamicData =
  CommittedUsage | HeapCountTuning | HeapCountSample | SizeAdaptationTuning | SizeAdaptationFullGCTuning | SizeAdaptationSample | RawDynamic;

/** The bytes each known sub-event's v1 layout needs; more are tolerated (fields a later runtime appends). */
export const DYNAMIC_EVENT_SIZES = {
  CommittedUsage: 42,
  HeapCountTuning: 36,
  HeapCountSample: 34,
  SizeAdaptationSample: 38,
  SizeAdaptationTuning: 56,
  SizeAdaptationFullGCTuning: 44,
} as const;
const SIZES = DYNAMIC_EVENT_SIZES;

/**
 * Decodes one sub-event's data by its name. An unknown name, or a known one with fewer bytes than
 * its layout, comes back as `Raw` (name, version, size): the caller counts those per name.
 */
export function decodeDynamicEvent(name: string, c: ByteCursor): GCDynamicData {
  const size = c.length;
  const raw = (): RawDynamic => ({ name: 'Raw', eventName: name, version: size >= 2 ? c.view.getUint16(0, true) : undefined, size });
  try {
    switch (name) {
      case 'CommittedUsage':
        if (size < SIZES.CommittedUsage) return raw();
        return {
          name,
          version: c.u16(),
          totalCommittedInUse: c.u64(),
          totalCommittedInGlobalDecommit: c.u64(),
          totalCommittedInFree: c.u64(),
          totalCommittedInGlobalFree: c.u64(),
          totalBookkeepingCommitted: c.u64(),
        };
      case 'HeapCountTuning':
        if (size < SIZES.HeapCountTuning) return raw();
        return {
          name,
          version: c.u16(),
          newHeapCount: c.u16(),
          gcIndex: c.u64(),
          medianThroughputCostPercent: c.f32(),
          smoothedMedianThroughputCostPercent: c.f32(),
          throughputCostPercentReductionPerStepUp: c.f32(),
          throughputCostPercentIncreasePerStepDown: c.f32(),
          spaceCostPercentIncreasePerStepUp: c.f32(),
          spaceCostPercentDecreasePerStepDown: c.f32(),
        };
      case 'HeapCountSample':
        // v1, 34 bytes: u16 version, u64 GC index, u64 elapsed time between GCs, u64 GC pause
        // time, u64 more-space-lock wait time (docs/formats.md §3.6; seen on .NET 8.0.31).
        if (size < SIZES.HeapCountSample) return raw();
        return { name, version: c.u16(), gcIndex: c.u64(), elapsedTimeBetweenGCs: c.u64(), gcPauseTime: c.u64(), mslWaitTime: c.u64() };
      case 'SizeAdaptationTuning':
        // v1, 56 bytes, packed: u16 version, u16 new/max/min heap count, u64 GC index, u64 SOH
        // stable size, f32 median TCP, TCP considered, around-target accumulation, u16 recorded
        // TCP count, f32 slope, u32 GCs since the last change, u8 aggressiveness, u16 decision,
        // adjustment reason, change-frequency factor and reason, u8 adjustment metric.
        if (size < SIZES.SizeAdaptationTuning) return raw();
        return {
          name,
          version: c.u16(),
          newHeapCount: c.u16(),
          maxHeapCountDatas: c.u16(),
          minHeapCountDatas: c.u16(),
          gcIndex: c.u64(),
          totalSohStableSize: c.u64(),
          medianThroughputCostPercent: c.f32(),
          tcpToConsider: c.f32(),
          currentAroundTargetAccumulation: c.f32(),
          recordedTcpCount: c.u16(),
          recordedTcpSlope: c.f32(),
          numGcsSinceLastChange: c.u32(),
          aggFactor: c.u8(),
          changeDecision: c.u16(),
          adjReason: c.u16(),
          hcChangeFreqFactor: c.u16(),
          hcFreqReason: c.u16(),
          adjMetric: c.u8(),
        };
      case 'SizeAdaptationFullGCTuning': {
        // v1, 44 bytes: u16 version, u16 new heap count, u64 GC index, f32 median gen2 TCP, u32
        // gen2s since the last change, then three (u32 age in GCs, f32 gen2 TCP) samples.
        if (size < SIZES.SizeAdaptationFullGCTuning) return raw();
        const head = {
          name,
          version: c.u16(),
          newHeapCount: c.u16(),
          gcIndex: c.u64(),
          medianThroughputCostPercent: c.f32(),
          numGen2sSinceLastChange: c.u32(),
        } as const;
        const sample = (): Gen2Sample => ({ age: c.u32(), percent: c.f32() });
        return { ...head, samples: [sample(), sample(), sample()] };
      }
      case 'SizeAdaptationSample':
        // v1, 38 bytes (2 + 8 + 4×4 + 8 + 4), as .NET 9 and 10 write it.
        if (size < SIZES.SizeAdaptationSample) return raw();
        return {
          name,
          version: c.u16(),
          gcIndex: c.u64(),
          elapsedTimeBetweenGCs: c.u32(),
          gcPauseTime: c.u32(),
          sohMslWaitTime: c.u32(),
          uohMslWaitTime: c.u32(),
          totalSohStableSize: c.u64(),
          gen0BudgetPerHeap: c.u32(),
        };
      default:
        return raw();
    }
  } catch (e) {
    if (e instanceof TraceDecodeError) return raw();
    throw e;
  }
}
