/**
 * The summary of a set of completed GCs (shared/gc-summary.ts), computed from a session's columns
 * through the rollup: one computation for the report, the app's range tiles and imports.
 */
import type { GcColumns } from '../shared/gc-column-registry.js';
import type { GcSummary } from '../shared/gc-summary.js';
import { rollup, type Rollup, type RollupColumns } from './rollup.js';

export interface SummaryOptions {
  /** What `gcCount` says (see GcSummary): defaults to the completed GCs summarised. */
  gcCount?: number;
  /** The trace's last HeapStats time (TraceEvent's lastRestartEndTimeRelativeMSec). */
  lastHeapStatsMSec: number;
  incompleteCount?: number;
  /** A range that is not the whole trace: % paused is pause over this span (ms). */
  rangeSpanMSec?: number;
}

export function summarize(c: RollupColumns & Pick<GcColumns, 'heapPeak'>, rows: ArrayLike<number>, opts: SummaryOptions): { summary: GcSummary; rollup: Rollup } {
  const r = rollup(c, rows, opts.lastHeapStatsMSec, opts.incompleteCount ?? 0);
  let peak: number | null = null;
  for (let k = 0; k < rows.length; k++) {
    const v = c.heapPeak[rows[k]!]!;
    if (!Number.isNaN(v)) peak = Math.max(peak ?? 0, v);
  }
  // Suspension: its longest, and its share of the pauses it is part of.
  let maxSuspend: number | null = null;
  let suspend = 0;
  let pauseWithSuspend = 0;
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k]!;
    const v = c.suspend[i]!;
    if (Number.isNaN(v)) continue;
    maxSuspend = Math.max(maxSuspend ?? 0, v);
    suspend += v;
    pauseWithSuspend += c.pause[i]!;
  }
  const n = rows.length;
  const span = opts.rangeSpanMSec;
  return {
    rollup: r,
    summary: {
      gcCount: opts.gcCount ?? n,
      completedGCs: n,
      countByGeneration: [r.generations[0].count, r.generations[1].count, r.generations[2].count],
      backgroundGCs: r.all.numBackground,
      foregroundGCs: r.all.numForeground,
      blockingGCs: r.all.numBlocking,
      inducedGCs: r.all.numInduced,
      totalPauseMSec: r.all.totalPauseTimeMSec,
      maxPauseMSec: n > 0 ? r.all.maxPauseDurationMSec : null,
      meanPauseMSec: r.all.meanPauseDurationMSec,
      pauseP50MSec: r.all.pauseP50MSec,
      pauseP90MSec: r.all.pauseP90MSec,
      pauseP99MSec: r.all.pauseP99MSec,
      pauseTimePercentage: span === undefined ? r.pauseTimePercentage : span > 0 && n > 0 ? (r.all.totalPauseTimeMSec * 100) / span : null,
      processDurationMSec: r.processDurationMSec,
      peakHeapMB: peak,
      allocatedMB: r.all.totalAllocatedMB,
      maxSuspendMSec: maxSuspend,
      suspendPercentOfPause: pauseWithSuspend > 0 ? (suspend * 100) / pauseWithSuspend : null,
    },
  };
}
