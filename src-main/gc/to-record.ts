/**
 * TraceGC → the shared GcRecord (its fields are the column registry's,
 * shared/gc-column-registry.ts): the computation of every stored per-GC column. NaN and "no such
 * event" become null, so nothing downstream shows NaN or a silent 0. Derived columns are filled
 * in from these by the registry.
 */
import { withDerived, type Gen5, type GcRecord } from '../shared/gc-column-registry.js';
import { lohWaitColumns } from './bgc-alloc-waits.js';
import { Gen, type TraceGC } from './trace-gc.js';

const n = (v: number): number | null => (Number.isFinite(v) ? v : null);
/** The five generations' values of one TraceGC method, without a closure per column (a record is made per GC). */
type GenMethod = 'genSizeAfterMB' | 'genPromotedMB' | 'survivalPercent' | 'genFragmentationPercent' | 'genFragmentationMB' | 'genBudgetMB';
const perGen = (gc: TraceGC, m: GenMethod): Gen5<number | null> => [
  n(gc[m](Gen.Gen0)),
  n(gc[m](Gen.Gen1)),
  n(gc[m](Gen.Gen2)),
  n(gc[m](Gen.Loh)),
  n(gc[m](Gen.Poh)),
];

export function toGcRecord(gc: TraceGC): GcRecord {
  const hs = gc.heapStats;
  const hasHs = hs !== undefined;
  const done = gc.isComplete;
  const ghh = gc.globalHeapHistory;
  const perHeap = gc.perHeapHistories.length > 0;
  return withDerived({
    index: gc.index,
    number: gc.number,
    generation: gc.generation,
    type: gc.type,
    reason: gc.reason,
    gcGenerationName: gc.gcGenerationName,
    isComplete: done,
    pauseStartRelativeMSec: gc.pauseStartRelativeMSec,
    startRelativeMSec: gc.startRelativeMSec,
    suspendDurationMSec: gc.suspendDurationMSec,
    pauseDurationMSec: gc.pauseDurationMSec,
    durationMSec: gc.sawGCEnd ? gc.durationMSec : null,
    durationSinceLastRestartMSec: hasHs ? gc.durationSinceLastRestartMSec : null,
    pauseTimePercentageSinceLastGC: done ? n(gc.pauseTimePercentageSinceLastGC) : null,
    heapSizeBeforeMB: done ? n(gc.heapSizeBeforeMB) : null,
    heapSizeAfterMB: hasHs ? gc.heapSizeAfterMB : null,
    heapSizePeakMB: done ? n(gc.heapSizePeakMB) : null,
    promotedMB: hasHs ? gc.promotedMB : null,
    allocedSinceLastGCMB: done ? n(gc.allocedSinceLastGCMB) : null,
    allocRateMBSec: done ? n(gc.allocRateMBSec) : null,
    gen0AllocatedMB: done ? n(gc.userAllocated[Gen.Gen0]!) : null,
    lohAllocatedMB: done ? n(gc.userAllocated[Gen.Loh]!) : null,
    pohAllocatedMB: done ? n(gc.userAllocated[Gen.Poh]!) : null,
    genSizeAfterMB: perGen(gc, 'genSizeAfterMB'),
    genSizeBeforeMB: done
      ? [
          n(gc.genSizeBeforeMB[Gen.Gen0]!),
          n(gc.genSizeBeforeMB[Gen.Gen1]!),
          n(gc.genSizeBeforeMB[Gen.Gen2]!),
          n(gc.genSizeBeforeMB[Gen.Loh]!),
          n(gc.genSizeBeforeMB[Gen.Poh]!),
        ]
      : [null, null, null, null, null],
    genPromotedMB: perGen(gc, 'genPromotedMB'),
    survivalPercent: perGen(gc, 'survivalPercent'),
    fragmentationPercent: perGen(gc, 'genFragmentationPercent'),
    fragmentationMB: perGen(gc, 'genFragmentationMB'),
    genBudgetMB: perGen(gc, 'genBudgetMB'),
    finalizationPromotedMB: hasHs ? hs.finalizationPromotedSize / 1e6 : null,
    finalizationPromotedCount: hasHs ? hs.finalizationPromotedCount : null,
    pinnedObjectCount: hasHs ? hs.pinnedObjectCount : null,
    gcHandleCount: hasHs ? hs.gcHandleCount : null,
    pinnedObjectSizes: gc.pinnedObjectSizes > 0 || gc.pinnedObjectPercentage !== -1 ? gc.pinnedObjectSizes : null,
    pinnedObjectPercentage: gc.pinnedObjectPercentage === -1 ? null : gc.pinnedObjectPercentage,
    // Its own GlobalHeapHistory's count, else its per-heap events, else the count in force when it
    // started (the newest GlobalHeapHistory before it).
    heapCount: gc.heapCount > 0 ? gc.heapCount : perHeap ? gc.perHeapHistories.length : gc.heapCountInForce > 0 ? gc.heapCountInForce : null,
    bgcFinalPauseMSec: gc.type === 1 && done ? gc.bgcFinalPauseMSec : null,
    compacted: ghh === undefined ? null : (ghh.globalMechanisms & 0x2) !== 0,
    globalMechanisms: ghh?.globalMechanisms ?? null,
    pauseMode: ghh?.pauseMode ?? null,
    memoryLoadPercent: ghh?.memoryPressure ?? null,
    condemnReasons0: ghh?.condemnReasons0 ?? null,
    condemnReasons1: ghh?.condemnReasons1 ?? null,
    committedInUseBeforeMB: gc.committedUsageBefore === undefined ? null : gc.committedUsageBefore.totalCommittedInUse / 1e6,
    committedInUseAfterMB: gc.committedUsageAfter === undefined ? null : gc.committedUsageAfter.totalCommittedInUse / 1e6,
    finalizersQueued: done ? gc.finalizersQueued : null,
    ...objectRangeFields(gc),
    ...lohWaitColumns(gc),
  });
}

function objectRangeFields(
  gc: TraceGC,
): Pick<GcRecord, 'survivedMB' | 'survivedRanges' | 'movedMB' | 'movedRanges' | 'relocatedMB' | 'rangeLowAddress' | 'rangeHighAddress'> {
  const r = gc.objectRanges;
  if (r === undefined)
    return { survivedMB: null, survivedRanges: null, movedMB: null, movedRanges: null, relocatedMB: null, rangeLowAddress: null, rangeHighAddress: null };
  const any = r.survivedRanges + r.movedRanges > 0;
  return {
    survivedMB: r.survivedBytes / 1e6,
    survivedRanges: r.survivedRanges,
    movedMB: r.movedBytes / 1e6,
    movedRanges: r.movedRanges,
    relocatedMB: r.relocatedBytes / 1e6,
    rangeLowAddress: any ? r.minAddress : null,
    rangeHighAddress: any ? r.maxAddress : null,
  };
}
