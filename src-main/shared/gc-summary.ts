/**
 * The one summary of a set of GCs: what the app's tiles show for a range and what `report`
 * prints for a trace. Computed once (gc/summary.ts); the report's JSON names two fields
 * differently (`totalAllocatedMB`, `maxHeapSizeMB`: a published contract, mapped at the report's
 * edge). Types only.
 */
export interface GcSummary {
  /** GCs counted: in a range, the completed ones; in a report, every GC (completed or not). */
  gcCount: number;
  completedGCs: number;
  countByGeneration: [number, number, number];
  backgroundGCs: number;
  foregroundGCs: number;
  blockingGCs: number;
  inducedGCs: number;
  totalPauseMSec: number;
  maxPauseMSec: number | null;
  meanPauseMSec: number | null;
  pauseP50MSec: number | null;
  pauseP90MSec: number | null;
  pauseP99MSec: number | null;
  /** % of the time paused: TraceEvent's definition for a whole trace, pause over the range's span otherwise. */
  pauseTimePercentage: number | null;
  /** Last HeapStats − first completed GC's pause start (TraceEvent's); 0 without GCs. */
  processDurationMSec: number;
  /** Largest heap size peak of the completed GCs (MB). */
  peakHeapMB: number | null;
  /** Allocated over the completed GCs (MB). */
  allocatedMB: number;
  /** Longest time to suspend the application threads for a GC (ms); null without suspension times. */
  maxSuspendMSec: number | null;
  /** Share of pause time spent suspending threads rather than collecting (%), over the GCs with a suspension time. */
  suspendPercentOfPause: number | null;
}

/**
 * The summary tiles of a range (the same type and computation as the report's summary), and the
 * same GCs rolled up by generation (gen0, gen1, gen2) and by trigger reason (most pause first).
 */
export type RangeSummary = GcSummary & {
  byGeneration: GroupRollup[];
  byReason: GroupRollup[];
  /**
   * The span `pauseTimePercentage` is over (ms): for the whole session TraceEvent's (its first GC
   * to the last HeapStats, = processDurationMSec); for a selected range or a filter, the range.
   */
  pausedOverMSec: number;
};

/** One row of a rollup (by generation or by reason) of the GCs a range summary covers. */
export interface GroupRollup {
  /** 'gen0'…'gen2', or the reason's name. */
  label: string;
  /** Generation number or reason code. */
  key: number;
  count: number;
  inducedCount: number;
  backgroundCount: number;
  totalPauseMSec: number;
  meanPauseMSec: number | null;
  maxPauseMSec: number | null;
  pauseP90MSec: number | null;
  allocatedMB: number;
  promotedMB: number;
  /** Σ promoted / Σ heap before (%); null without data. */
  survivalPercent: number | null;
}
