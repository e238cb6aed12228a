/**
 * The per-GC record every consumer sees — the store, `report --format json|csv`, the web bridge
 * and the renderer. Field names follow TraceEvent's `TraceGC` so results compare with it;
 * per-generation arrays are [gen0, gen1, gen2, LOH, POH]. A value the trace cannot support is
 * `null` (never NaN or a made-up 0); `UNAVAILABLE_REASONS` says why.
 * Types only (plus constant tables): shared with the renderer.
 */

export type Gen5<T> = [T, T, T, T, T];

export interface GcRecord {
  /** Position in the session (0-based). */
  index: number;
  number: number;
  generation: number;
  /** 0 NonConcurrent (blocking), 1 Background, 2 Foreground. */
  type: number;
  reason: number;
  gcGenerationName: string;
  isComplete: boolean;
  pauseStartRelativeMSec: number;
  startRelativeMSec: number;
  suspendDurationMSec: number;
  pauseDurationMSec: number;
  /** GCEnd − GCStart; null when GCEnd never arrived. */
  durationMSec: number | null;
  durationSinceLastRestartMSec: number | null;
  pauseTimePercentageSinceLastGC: number | null;
  heapSizeBeforeMB: number | null;
  heapSizeAfterMB: number | null;
  heapSizePeakMB: number | null;
  promotedMB: number | null;
  allocedSinceLastGCMB: number | null;
  allocRateMBSec: number | null;
  /** UserAllocated gen0 / LOH / POH (MB). */
  gen0AllocatedMB: number | null;
  lohAllocatedMB: number | null;
  pohAllocatedMB: number | null;
  genSizeAfterMB: Gen5<number | null>;
  genSizeBeforeMB: Gen5<number | null>;
  genPromotedMB: Gen5<number | null>;
  survivalPercent: Gen5<number | null>;
  fragmentationPercent: Gen5<number | null>;
  fragmentationMB: Gen5<number | null>;
  /** Allocation budget set for the next GC (per-heap NewAllocation summed). */
  genBudgetMB: Gen5<number | null>;
  finalizationPromotedMB: number | null;
  finalizationPromotedCount: number | null;
  pinnedObjectCount: number | null;
  gcHandleCount: number | null;
  /** Bytes of objects pinned at GC time (PinObjectAtGCTime, verbose only). */
  pinnedObjectSizes: number | null;
  /** Share of pinned-plug bytes explained by user-pinned objects; null without plug events. */
  pinnedObjectPercentage: number | null;
  heapCount: number | null;
  bgcFinalPauseMSec: number | null;
  /** From GlobalHeapHistory: whether the GC compacted; null without the event. */
  compacted: boolean | null;
  globalMechanisms: number | null;
  pauseMode: number | null;
  memoryLoadPercent: number | null;
  condemnReasons0: number | null;
  condemnReasons1: number | null;
  committedInUseBeforeMB: number | null;
  committedInUseAfterMB: number | null;
  /** Objects queued for finalization after this GC (GCFinalizersEnd). */
  finalizersQueued: number | null;
  /**
   * Survival and movement (gc-survival profile; null when the trace has no such events for this
   * GC): bytes and ranges that survived a sweeping GC, bytes and ranges a compacting GC moved
   * (relocated: those whose address changed), and the lowest/highest address they cover.
   */
  survivedMB: number | null;
  survivedRanges: number | null;
  movedMB: number | null;
  movedRanges: number | null;
  relocatedMB: number | null;
  rangeLowAddress: number | null;
  rangeHighAddress: number | null;
}

/** Why a metric can be unavailable (keys used in reports and the GC detail). */
export const UNAVAILABLE_REASONS = {
  noPerHeapHistory: 'no per-heap history in this trace: record with the GC keyword at Informational level or higher (gc-collect or gc-verbose)',
  notCollected: 'this generation was not collected by this GC',
  noHeapStats: 'the GC has no HeapStats event (trace ended or events were lost)',
  noGCEnd: 'the GC has no GCEnd event (trace ended or events were lost)',
  noGlobalHistory: 'no GlobalHeapHistory event for this GC',
  noPinEvents: 'no pinning events: record with gc-verbose (PinObjectAtGCTime / PinPlugAtGCTime are Verbose)',
  noCommittedUsage: 'no CommittedUsage events (needs .NET 8 or later)',
  cpuSamples: 'needs CPU samples, which EventPipe GC traces do not carry (PerfView takes them from ETW kernel sampling)',
  incomplete: 'the GC never completed in this trace',
} as const;

export type UnavailableReason = keyof typeof UNAVAILABLE_REASONS;

export const GEN_LABELS = ['gen0', 'gen1', 'gen2', 'LOH', 'POH'] as const;

/** TraceEvent's IsInduced: the GC reason is Induced (1) or InducedNotForced (7). */
export function isInducedReason(reason: number): boolean {
  return reason === 1 || reason === 7;
}
