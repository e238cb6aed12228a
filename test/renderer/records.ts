/** A plausible stored GC for renderer tests; `over` sets what a test is about. */
import type { GcRecord } from '../../src-main/shared/gc-record.js';

export function rec(i: number, over: Partial<GcRecord> = {}): GcRecord {
  const g5 = (v: number | null): [number | null, number | null, number | null, number | null, number | null] => [v, v, v, v, v];
  return {
    index: i, number: i + 1, generation: i % 3, type: 0, reason: 0, gcGenerationName: `${i % 3}N`, isComplete: true, pauseStartRelativeMSec: 1000 + i * 100,
    startRelativeMSec: 1000 + i * 100, suspendDurationMSec: 0.01, pauseDurationMSec: 1 + (i % 5), durationMSec: 1, durationSinceLastRestartMSec: 99,
    pauseTimePercentageSinceLastGC: 1, heapSizeBeforeMB: 10, heapSizeAfterMB: 5 + i, heapSizePeakMB: 10, promotedMB: 1, allocedSinceLastGCMB: 2, allocRateMBSec: 20,
    gen0AllocatedMB: 2, lohAllocatedMB: 0, pohAllocatedMB: 0, genSizeAfterMB: [1, 1, 1, 1, 1], genSizeBeforeMB: g5(1), genPromotedMB: g5(0), survivalPercent: g5(null),
    fragmentationPercent: g5(null), fragmentationMB: g5(null), genBudgetMB: g5(null), finalizationPromotedMB: 0, finalizationPromotedCount: 0, pinnedObjectCount: 0,
    gcHandleCount: 0, pinnedObjectSizes: null, pinnedObjectPercentage: null, heapCount: 1, bgcFinalPauseMSec: null, compacted: true, globalMechanisms: 2, pauseMode: 1,
    memoryLoadPercent: 10, condemnReasons0: 0, condemnReasons1: 0, committedInUseBeforeMB: null, committedInUseAfterMB: null, finalizersQueued: 0,
    survivedMB: null, survivedRanges: null, movedMB: null, movedRanges: null, relocatedMB: null, rangeLowAddress: null, rangeHighAddress: null, lohAllocWaitMaxMSec: null, lohAllocWaitTotalMSec: null, lohAllocWaitCount: null,
    gen0FragmentationMB: null, heapFragmentationPercent: null,
    ...over,
  };
}

