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
import type { GcColumns } from '../shared/gc-column-registry.js';
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
   * (LiveBatch.gcs) is counted once, with the values it first came with: the running sums,
   * maxima and percentiles cannot take a GC back out. The stored session's summary, once the
   * recording ends, has the final values.
   */
  add(c: GcColumns): RangeSummary {
    for (let k = 0; k < c.index.length; k++) {
      if (c.complete[k] !== 1) continue;
      const index = c.index[k]!;
      if (index >= this.counted.length) this.counted = grown(this.counted, Math.max(index + 1, this.counted.length * 2));
      if (this.counted[index] === 1) continue;
      this.counted[index] = 1;
      this.addOne(c, k);
    }
    return this.summary();
  }

  private addOne(c: GcColumns, k: number): void {
    this.all.add(c, k);
    this.groups.add(c, k);
    if (c.type[k] === 2) this.foreground++;
    const peak = c.heapPeak[k]!;
    if (!Number.isNaN(peak)) this.peak = Math.max(this.peak ?? 0, peak);
    const start = c.time[k]!;
    const pause = c.pause[k]!;
    this.firstPauseStart ??= start;
    this.lastEnd = Math.max(this.lastEnd, start + pause);
    this.lastStart = Math.max(this.lastStart, start);
    const suspend = c.suspend[k]!;
    if (Number.isFinite(suspend)) {
      this.maxSuspend = Math.max(this.maxSuspend ?? 0, suspend);
      this.suspend += suspend;
      this.pauseWithSuspend += pause;
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
