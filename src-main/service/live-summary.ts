/**
 * The summary tiles of a session being recorded, kept up to date GC by GC. Each live batch adds
 * its GCs: counts, sums and maxima are running values and the pauses stay sorted (binary
 * insertion into a typed array with spare room) for the percentiles — the all-GCs row is one more
 * `GroupAccumulator`, like the rows by generation and by reason — so a batch costs its own
 * GCs however long the recording is, and the session is never re-read from SQLite for the tiles.
 * The numbers follow `summarize()` over the completed GCs exactly as getRangeSummary computes them
 * for the whole session while it records (the newest GC's end stands in for the last HeapStats),
 * and so do its rows by generation and by reason (group-rollup.ts).
 */
import type { RangeSummary } from '../shared/contract.js';
import type { GcRecord } from '../shared/gc-record.js';
import { grown } from '../shared/grown.js';
import { GroupAccumulator, LiveGroups } from './group-rollup.js';

export class LiveSummary {
  private readonly all = new GroupAccumulator();
  private readonly groups = new LiveGroups();
  private foreground = 0;
  private peak: number | null = null;
  private firstPauseStart: number | undefined;
  private lastEnd = 0;
  private lastStart = 0;
  private maxSuspend: number | null = null;
  private suspend = 0;
  private pauseWithSuspend = 0;

  /** GC indexes already counted (1 = added). */
  private counted = new Uint8Array(1024);

  /**
   * Adds a batch's GCs and returns the summary through them. A GC sent again with changed values
   * (LiveBatch.records) is counted once, with the values it first came with: the running sums,
   * maxima and percentiles cannot take a GC back out. The stored session's summary, once the
   * recording ends, has the final values.
   */
  add(records: readonly GcRecord[]): RangeSummary {
    for (const r of records) {
      if (!r.isComplete) continue;
      if (r.index >= this.counted.length) this.counted = grown(this.counted, Math.max(r.index + 1, this.counted.length * 2));
      if (this.counted[r.index] === 1) continue;
      this.counted[r.index] = 1;
      this.addOne(r);
    }
    return this.summary();
  }

  private addOne(r: GcRecord): void {
    this.all.add(r);
    this.groups.add(r);
    if (r.type === 2) this.foreground++;
    const peak = r.heapSizePeakMB ?? Number.NaN;
    if (!Number.isNaN(peak)) this.peak = Math.max(this.peak ?? 0, peak);
    this.firstPauseStart ??= r.pauseStartRelativeMSec;
    this.lastEnd = Math.max(this.lastEnd, r.pauseStartRelativeMSec + r.pauseDurationMSec);
    this.lastStart = Math.max(this.lastStart, r.pauseStartRelativeMSec);
    if (Number.isFinite(r.suspendDurationMSec)) {
      this.maxSuspend = Math.max(this.maxSuspend ?? 0, r.suspendDurationMSec);
      this.suspend += r.suspendDurationMSec;
      this.pauseWithSuspend += r.pauseDurationMSec;
    }
  }

  /** Whether [from, to] holds every GC added so far (the whole session's tiles). */
  covers(fromMSec: number, toMSec: number): boolean {
    return this.firstPauseStart === undefined || (fromMSec <= this.firstPauseStart && toMSec >= this.lastStart);
  }

  summary(): RangeSummary {
    const all = this.all.row('all', -1);
    const groups = this.groups.rows();
    const n = all.count;
    const first = this.firstPauseStart;
    const duration = first === undefined || first === 0 ? 0 : this.lastEnd - first;
    return {
      gcCount: n,
      completedGCs: n,
      countByGeneration: [groups.byGeneration[0]!.count, groups.byGeneration[1]!.count, groups.byGeneration[2]!.count],
      backgroundGCs: all.backgroundCount,
      foregroundGCs: this.foreground,
      blockingGCs: n - all.backgroundCount - this.foreground,
      inducedGCs: all.inducedCount,
      totalPauseMSec: all.totalPauseMSec,
      maxPauseMSec: all.maxPauseMSec,
      meanPauseMSec: all.meanPauseMSec,
      pauseP50MSec: this.all.pausePercentile(50),
      pauseP90MSec: all.pauseP90MSec,
      pauseP99MSec: this.all.pausePercentile(99),
      pauseTimePercentage: duration === 0 ? (n === 0 ? null : 0) : (all.totalPauseMSec * 100) / duration,
      processDurationMSec: duration,
      pausedOverMSec: duration,
      peakHeapMB: this.peak,
      allocatedMB: all.allocatedMB,
      maxSuspendMSec: this.maxSuspend,
      suspendPercentOfPause: this.pauseWithSuspend > 0 ? (this.suspend * 100) / this.pauseWithSuspend : null,
      ...groups,
    };
  }
}
