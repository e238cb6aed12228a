/**
 * One garbage collection as TraceEvent's `TraceGC` models it (docs/formats.md §4.4; perfview
 * src/TraceEvent/Computers/TraceManagedProcess.cs), with its raw inputs (HeapStats, per-heap and
 * global history, allocation ticks, pinning) and the derived per-GC metrics computed when it
 * completes. Sizes are MB of 1 000 000 bytes and times milliseconds relative to the trace's sync
 * time, exactly as TraceEvent reports them, so results compare one to one.
 */
import type { PinnedObjects, PinnedTypeCount } from './pinned-objects.js';
import type { GCGlobalHeapHistory, GCHeapStats, GCPerHeapHistory, GenerationData } from '../clr/gc-events.js';
import type { GCDynamicData } from '../clr/gc-dynamic.js';
import { isInducedReason } from '../shared/gc-record.js';
import type { LohAllocWait } from './bgc-alloc-waits.js';

/** Generation indexes as TraceEvent's `Gens`. */
export const enum Gen {
  Gen0 = 0,
  Gen1 = 1,
  Gen2 = 2,
  Loh = 3,
  Poh = 4,
}
export const GEN_COUNT = 5;
export const GEN_NAMES = ['gen0', 'gen1', 'gen2', 'loh', 'poh'] as const;

/** GCStart.Type */
export interface ObjectRangeTotals {
  survivedBytes: number;
  survivedRanges: number;
  movedBytes: number;
  movedRanges: number;
  /** Moved ranges whose new base differs from the old (pinned plugs are reported but stay put). */
  relocatedBytes: number;
  minAddress: number;
  maxAddress: number;
  events: number;
}

export const enum GCType {
  NonConcurrent = 0,
  Background = 1,
  Foreground = 2,
}

export const enum GCReasonCode {
  Induced = 1,
  InducedNotForced = 7,
  PMFullGC = 12,
}

export interface CommittedUsage {
  totalCommittedInUse: number;
  totalCommittedInGlobalDecommit: number;
  totalCommittedInFree: number;
  totalCommittedInGlobalFree: number;
  totalBookkeepingCommitted: number;
}

// Per-generation values TraceEvent derives from a PerHeapHistory generation record (V3 layout).
export const objSpaceBefore = (g: GenerationData): number => g.sizeBefore - g.freeListSpaceBefore - g.freeObjSpaceBefore;
export const fragmentation = (g: GenerationData): number => g.freeListSpaceAfter + g.freeObjSpaceAfter;
export const objSizeAfter = (g: GenerationData): number => g.sizeAfter - fragmentation(g);
export const survivedBytes = (g: GenerationData): number => g.pinnedSurv + g.nonePinnedSurv;
/** Integer percentage, truncated as TraceEvent's `(long)(Out * 100.0 / ObjSpaceBefore)`. */
export const survRate = (g: GenerationData): number => {
  const before = objSpaceBefore(g);
  return before === 0 ? 0 : Math.trunc((survivedBytes(g) * 100) / before);
};

export class TraceGC {
  // --- identity (GCStart) ---
  number = 0;
  generation = 0;
  type = 0;
  reason = 0;
  /** Position in the analyzer's list of GCs. */
  index = 0;

  // --- times (ms) ---
  pauseStartRelativeMSec = 0;
  startRelativeMSec = 0;
  suspendDurationMSec = 0;
  pauseDurationMSec = 0;
  /** GCEnd − GCStart; 0 until GCEnd is seen. */
  durationMSec = 0;
  durationSinceLastRestartMSec = 0;
  /** The last pause of a background GC (its final mark, a ForGCPrep suspension). */
  bgcFinalPauseMSec = 0;

  isComplete = false;
  /** Set for a 2.0-era concurrent GC whose RestartEE came before GCEnd. */
  isConcurrentGC = false;
  sawGCEnd = false;
  /** This GC's heap count: its own GlobalHeapHistory.NumHeaps (DATAS changes it between GCs); −1 until seen. */
  heapCount = -1;
  /** TraceEvent's process-level HeapCount (the first GC's), kept only to compare with TraceEvent. */
  processHeapCount = -1;
  /**
   * The heap count in force when this GC started: the newest GlobalHeapHistory.NumHeaps before it
   * (−1: none yet). What a GC without its own GlobalHeapHistory ran with — on Server GC a background
   * GC's can be missing, and its heap count read n/a although the process's was known (issue 39).
   */
  heapCountInForce = -1;

  // --- raw inputs ---
  heapStats: GCHeapStats | undefined;
  /** HeapStats event time (the end of a background GC). */
  heapStatsRelativeMSec = 0;
  perHeapHistories: GCPerHeapHistory[] = [];
  globalHeapHistory: GCGlobalHeapHistory | undefined;
  allocedSinceLastGCBasedOnAllocTickMB: [number, number, number] = [0, 0, 0];
  hasAllocTickEvents = false;
  committedUsageBefore: CommittedUsage | undefined;
  committedUsageAfter: CommittedUsage | undefined;
  /**
   * Other GCDynamicEvent sub-events attributed to this GC (DATAS samples and tuning), with their
   * event time. The runtime fires them while the GC it names runs (gcIndex = this GC's number),
   * so they attach to the GC in progress, as TraceEvent's GetLastGC does.
   */
  dynamicEvents: (GCDynamicData & { timeMSec: number })[] = [];
  /** Per heap (GCMarkWithType): promoted bytes and mark time (ms) by root kind. */
  markByHeap: ({ bytes: number[]; msec: number[]; lastMSec: number } | undefined)[] | undefined;
  /** PinObjectAtGCTime: object address → size (first report wins, as TraceEvent). */
  pinnedObjects: PinnedObjects | undefined;
  /** The objects PinObjectAtGCTime reported, by type (most objects first), once the GC completed; undefined without such events. */
  pinnedTypes: PinnedTypeCount[] | undefined;
  duplicatedPinningReports = 0;
  /** PinPlugAtGCTime plug ranges [start, end). */
  pinnedPlugs: { start: number; end: number }[] | undefined;
  /** GCMarkWithType promoted bytes by root kind, summed over heaps. */
  markPromotedBytes: number[] | undefined;
  finalizersQueued = 0;
  /**
   * LOH allocation waits during this background GC (gc/bgc-alloc-waits.ts): undefined unless the
   * private provider's BGC events were seen during it.
   */
  lohAllocWaits: LohAllocWait[] | undefined;
  /** GCBulkSurvivingObjectRanges / GCBulkMovedObjectRanges totals (GCHeapSurvivalAndMovement keyword). */
  objectRanges: ObjectRangeTotals | undefined;

  // --- derived when complete (TraceEvent OnEnd) ---
  allocedSinceLastGCMB = 0;
  allocRateMBSec = 0;
  heapSizePeakMB = 0;
  heapSizeBeforeMB = 0;
  ratioPeakAfter = 0;
  pauseTimePercentageSinceLastGC = 0;
  /** gen0 / LOH / POH bytes allocated since the previous GC (MB); gen1/gen2 unused. */
  userAllocated = [0, 0, 0, 0, 0];
  genSizeBeforeMB = [0, 0, 0, 0, 0];
  pinnedObjectSizes = 0;
  /** −1 when there are no pin plug events, as TraceEvent. */
  pinnedObjectPercentage = -1;
  totalPinnedPlugSize = 0;
  totalUserPinnedPlugSize = 0;

  /** Generation name as GCStats shows it: 0N, 1F, 2B, 2NI, 1Ni … */
  get gcGenerationName(): string {
    const t = this.type === GCType.NonConcurrent ? 'N' : this.type === GCType.Background ? 'B' : this.type === GCType.Foreground ? 'F' : '';
    const i = this.reason === GCReasonCode.Induced ? 'I' : this.reason === GCReasonCode.InducedNotForced ? 'i' : '';
    return `${this.generation}${t}${i}`;
  }

  get isInduced(): boolean {
    return isInducedReason(this.reason);
  }

  /** Sum of HeapStats generation sizes (MB); −1 without HeapStats, as TraceEvent. */
  get heapSizeAfterMB(): number {
    const h = this.heapStats;
    if (h === undefined) return -1;
    const s = h.generationSize;
    return (s[0] + s[1] + s[2] + s[3] + s[4]) / 1e6;
  }

  get promotedMB(): number {
    const h = this.heapStats;
    if (h === undefined) return -1;
    const p = h.totalPromotedSize;
    return (p[0] + p[1] + p[2] + p[3] + p[4]) / 1e6;
  }

  /** HeapStats size of a generation after the GC (MB, including fragmentation); NaN without HeapStats. */
  genSizeAfterMB(gen: Gen): number {
    return this.heapStats === undefined ? Number.NaN : this.heapStats.generationSize[gen] / 1e6;
  }

  genPromotedMB(gen: Gen): number {
    return this.heapStats === undefined ? Number.NaN : this.heapStats.totalPromotedSize[gen] / 1e6;
  }

  /** Whether per-heap history has a record for this generation. */
  hasGenData(gen: Gen): boolean {
    return validGenData(this.perHeapHistories, gen);
  }

  /** Average of per-heap survival rates (integer %), NaN where the generation was not collected. */
  survivalPercent(gen: Gen): number {
    if (!this.hasGenData(gen)) return Number.NaN;
    if (gen === Gen.Loh || gen === Gen.Poh) {
      if (this.generation < 2) return Number.NaN;
    } else if (gen > this.generation) return Number.NaN;
    let sum = 0;
    for (const h of this.perHeapHistories) sum += survRate(h.generations[gen]!);
    // TraceEvent divides a long by the heap count: integer division.
    return Math.trunc(sum / this.perHeapHistories.length);
  }

  private sumGen(gen: Gen, f: (g: GenerationData) => number): number {
    if (!this.hasGenData(gen)) return Number.NaN;
    let s = 0;
    for (const h of this.perHeapHistories) s += f(h.generations[gen]!) / 1e6;
    return s;
  }

  genFragmentationMB(gen: Gen): number {
    return this.sumGen(gen, fragmentation);
  }
  genFragmentationPercent(gen: Gen): number {
    return (this.genFragmentationMB(gen) * 100) / this.genSizeAfterMB(gen);
  }
  genInMB(gen: Gen): number {
    return this.sumGen(gen, (g) => g.in);
  }
  genOutMB(gen: Gen): number {
    return this.sumGen(gen, survivedBytes);
  }
  /** The allocation budget the GC set for the next GC (MB). */
  genBudgetMB(gen: Gen): number {
    return this.sumGen(gen, (g) => g.newAllocation);
  }
  genObjSizeAfterMB(gen: Gen): number {
    return this.sumGen(gen, objSizeAfter);
  }
}

export function validGenData(perHeap: GCPerHeapHistory[] | undefined, gen: Gen): boolean {
  // Every heap, not only the first (TraceEvent looks at heap 0): in a damaged trace the heaps'
  // histories can disagree, and the per-heap sums below index each one.
  return perHeap !== undefined && perHeap.length > 0 && perHeap.every((h) => h.generations.length > gen);
}
