/**
 * The summary tiles of a session being recorded, kept up to date GC by GC. Each live batch adds
 * its GCs: counts, sums and maxima are running values and the pauses stay sorted (binary
 * insertion into a typed array with spare room) for the percentiles, so a batch costs its own
 * GCs however long the recording is, and the session is never re-read from SQLite for the tiles.
 * The numbers follow `summarize()` over the completed GCs exactly as getRangeSummary computes them
 * for the whole session while it records (the newest GC's end stands in for the last HeapStats),
 * and so do its rows by generation and by reason (group-rollup.ts).
 */
import { percentile } from '../gc/rollup.js';
import type { RangeSummary } from '../shared/contract.js';
import { isInducedReason, type GcRecord } from '../shared/gc-record.js';
import { insertSorted, LiveGroups } from './group-rollup.js';

const nan = (v: number | null): number => (v === null ? Number.NaN : v);

export class LiveSummary {
  private count = 0;
  private readonly byGen: [number, number, number] = [0, 0, 0];
  private background = 0;
  private foreground = 0;
  private induced = 0;
  private totalPause = 0;
  private maxPause = 0;
  private allocated = 0;
  private peak: number | null = null;
  private firstPauseStart: number | undefined;
  private lastEnd = 0;
  private lastStart = 0;
  private sorted = new Float64Array(1024);
  private readonly groups = new LiveGroups();

  /** Adds a batch's GCs (in GC order) and returns the summary through them. */
  add(records: readonly GcRecord[]): RangeSummary {
    for (const r of records) if (r.isComplete) this.addOne(r);
    return this.summary();
  }

  private addOne(r: GcRecord): void {
    this.count++;
    if (r.generation >= 0 && r.generation <= 2) this.byGen[r.generation as 0 | 1 | 2]++;
    if (r.type === 1) this.background++;
    else if (r.type === 2) this.foreground++;
    if (isInducedReason(r.reason)) this.induced++;
    const p = r.pauseDurationMSec;
    this.totalPause += p;
    this.maxPause = Math.max(this.maxPause, p);
    this.allocated += nan(r.allocedSinceLastGCMB);
    const peak = nan(r.heapSizePeakMB);
    if (!Number.isNaN(peak)) this.peak = Math.max(this.peak ?? 0, peak);
    this.firstPauseStart ??= r.pauseStartRelativeMSec;
    this.lastEnd = Math.max(this.lastEnd, r.pauseStartRelativeMSec + p);
    this.lastStart = Math.max(this.lastStart, r.pauseStartRelativeMSec);
    this.sorted = insertSorted(this.sorted, this.count - 1, p);
    this.groups.add(r);
  }

  /** Whether [from, to] holds every GC added so far (the whole session's tiles). */
  covers(fromMSec: number, toMSec: number): boolean {
    return this.firstPauseStart === undefined || (fromMSec <= this.firstPauseStart && toMSec >= this.lastStart);
  }

  summary(): RangeSummary {
    const n = this.count;
    const sorted = this.sorted.subarray(0, n);
    const first = this.firstPauseStart;
    const duration = first === undefined || first === 0 ? 0 : this.lastEnd - first;
    return {
      gcCount: n,
      completedGCs: n,
      countByGeneration: [...this.byGen],
      backgroundGCs: this.background,
      foregroundGCs: this.foreground,
      blockingGCs: n - this.background - this.foreground,
      inducedGCs: this.induced,
      totalPauseMSec: this.totalPause,
      maxPauseMSec: n > 0 ? this.maxPause : null,
      meanPauseMSec: n > 0 ? this.totalPause / n : null,
      pauseP50MSec: percentile(sorted, 50),
      pauseP90MSec: percentile(sorted, 90),
      pauseP99MSec: percentile(sorted, 99),
      pauseTimePercentage: duration === 0 ? (n === 0 ? null : 0) : (this.totalPause * 100) / duration,
      processDurationMSec: duration,
      peakHeapMB: this.peak,
      allocatedMB: this.allocated,
      ...this.groups.rows(),
    };
  }
}
