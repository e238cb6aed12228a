/**
 * The summary of a set of completed GCs (shared/gc-summary.ts), computed from a session's columns
 * through the rollup: one computation for the report, the app's range tiles and imports, and —
 * GC by GC, with `SummaryAccumulator` — the tiles of a recording (service/live-summary.ts).
 */
import type { GcColumns } from '../shared/gc-column-registry.js';
import type { GcSummary } from '../shared/gc-summary.js';
import { RollupGroups, RunningMax, RunningSum, type Rollup, type RollupColumns } from './rollup.js';

export interface SummaryOptions {
  /** What `gcCount` says (see GcSummary): defaults to the completed GCs summarised. */
  gcCount?: number;
  /** The trace's last HeapStats time (TraceEvent's lastRestartEndTimeRelativeMSec). */
  lastHeapStatsMSec: number;
  incompleteCount?: number;
  /** A range that is not the whole trace: % paused is pause over this span (ms). */
  rangeSpanMSec?: number;
}

export type SummaryColumns = RollupColumns & Pick<GcColumns, 'heapPeak'>;

/**
 * The summary's state, GC by GC: the rollup's groups plus the peak heap and the suspension
 * figures. `summarize` adds a range's GCs in GC order; a recording's summary adds each GC as it
 * arrives and takes one sent again back out (`sign` −1) before adding its new values.
 */
export class SummaryAccumulator {
  readonly groups = new RollupGroups();
  private readonly peak = new RunningMax(0);
  // Suspension: its longest, and its share of the pauses it is part of (GCs without one skipped).
  private readonly maxSuspend = new RunningMax(0);
  private readonly suspend = new RunningSum();
  private readonly pauseWithSuspend = new RunningSum();

  add(c: SummaryColumns, i: number, sign = 1): void {
    this.groups.add(c, i, sign);
    // NaN is skipped here (RunningMax counts it apart; skippingNaN reads past it).
    this.peak.add(c.heapPeak[i]!, sign);
    const v = c.suspend[i]!;
    if (Number.isNaN(v)) return;
    this.maxSuspend.add(v, sign);
    this.suspend.add(v, sign);
    this.pauseWithSuspend.add(c.pause[i]!, sign);
  }

  /** Whether a maximum is unknown since a GC holding it was taken out (add every GC again). */
  get stale(): boolean {
    return this.groups.stale || this.peak.stale || this.maxSuspend.stale;
  }

  /** The summary, given the first GC's pause start (undefined without GCs). */
  result(firstStartMSec: number | undefined, opts: SummaryOptions): { summary: GcSummary; rollup: Rollup } {
    const r = this.groups.result(firstStartMSec, opts.lastHeapStatsMSec, opts.incompleteCount ?? 0);
    const n = r.all.count;
    const span = opts.rangeSpanMSec;
    const suspend = this.suspend.value;
    const pauseWithSuspend = this.pauseWithSuspend.value;
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
        peakHeapMB: this.peak.skippingNaN,
        allocatedMB: r.all.totalAllocatedMB,
        maxSuspendMSec: this.maxSuspend.skippingNaN,
        suspendPercentOfPause: pauseWithSuspend > 0 ? (suspend * 100) / pauseWithSuspend : null,
      },
    };
  }
}

export function summarize(c: SummaryColumns, rows: ArrayLike<number>, opts: SummaryOptions): { summary: GcSummary; rollup: Rollup } {
  const acc = new SummaryAccumulator();
  for (let k = 0; k < rows.length; k++) acc.add(c, rows[k]!);
  return acc.result(rows.length === 0 ? undefined : c.time[rows[0]!]!, opts);
}
