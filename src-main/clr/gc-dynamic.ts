/**
 * GCDynamicEvent (runtime event 39) is a container: a UTF16z Name, a u32 DataSize and that many
 * bytes whose layout depends on the name (docs/formats.md §3.6; runtime gcevents.h DYNAMIC_EVENT).
 * Every known sub-event starts with a u16 version. Layouts have changed between runtime builds,
 * so each decoder checks the size it needs and otherwise the data is kept as raw bytes.
 */
import type { ByteCursor } from '../nettrace/byte-cursor.js';
import { NettraceError } from '../nettrace/errors.js';

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
export interface SizeAdaptationTuning {
  name: 'SizeAdaptationTuning';
  version: number;
  newHeapCount: number;
  maxHeapCountDatas: number;
  minHeapCountDatas: number;
  gcIndex: number;
  totalSohStableSize: number;
  medianThroughputCostPercent: number;
}
export interface SizeAdaptationFullGCTuning {
  name: 'SizeAdaptationFullGCTuning';
  version: number;
  newHeapCount: number;
  gcIndex: number;
  medianThroughputCostPercent: number;
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
  | CommittedUsage
  | HeapCountTuning
  | HeapCountSample
  | SizeAdaptationTuning
  | SizeAdaptationFullGCTuning
  | SizeAdaptationSample
  | RawDynamic;

export function decodeDynamicEvent(name: string, c: ByteCursor): GCDynamicData {
  const size = c.length;
  const raw = (): RawDynamic => ({ name: 'Raw', eventName: name, version: size >= 2 ? c.view.getUint16(0, true) : undefined, size });
  try {
    switch (name) {
      case 'CommittedUsage':
        if (size < 42) return raw();
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
        if (size < 36) return raw();
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
        if (size < 34) return raw();
        return { name, version: c.u16(), gcIndex: c.u64(), elapsedTimeBetweenGCs: c.u64(), gcPauseTime: c.u64(), mslWaitTime: c.u64() };
      case 'SizeAdaptationTuning':
        if (size < 32) return raw();
        return {
          name,
          version: c.u16(),
          newHeapCount: c.u16(),
          maxHeapCountDatas: c.u16(),
          minHeapCountDatas: c.u16(),
          gcIndex: c.u64(),
          totalSohStableSize: c.u64(),
          medianThroughputCostPercent: c.f32(),
        };
      case 'SizeAdaptationFullGCTuning':
        if (size < 16) return raw();
        return { name, version: c.u16(), newHeapCount: c.u16(), gcIndex: c.u64(), medianThroughputCostPercent: c.f32() };
      case 'SizeAdaptationSample':
        // v1, 38 bytes (2 + 8 + 4×4 + 8 + 4), as .NET 9 and 10 write it.
        if (size < 38) return raw();
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
    if (e instanceof NettraceError) return raw();
    throw e;
  }
}
