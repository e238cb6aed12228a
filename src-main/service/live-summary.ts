/**
 * The summary tiles of a session being recorded, kept up to date GC by GC. Each live batch adds
 * its GCs: counts, sums and maxima are running values and each group's pauses stay sorted (binary
 * insertion into a typed array with spare room) for the percentiles, so a batch costs its own
 * GCs however long the recording is, and the session is never re-read from SQLite for the tiles.
 * The numbers follow `summarize()` and the service's rollups by generation and by reason over the
 * completed GCs, exactly as getRangeSummary computes them for the whole session while it records
 * (the newest GC's end stands in for the last HeapStats).
 */
import { percentile } from '../gc/rollup.js';
import type { GroupRollup, RangeSummary } from '../shared/contract.js';
import { gcReasonName } from '../shared/gc-enums.js';
import { isInducedReason, type GcRecord } from '../shared/gc-record.js';

const nan = (v: number | null): number => (v === null ? Number.NaN : v);

/** Running rollup of one group of GCs (all, one generation, one reason), as rollup() sums it. */
class Group {
  count = 0;
  induced = 0;
  background = 0;
  foreground = 0;
  totalPause = 0;
  maxPause = 0;
  allocated = 0;
  promoted = 0;
  private survPromoted = 0;
  private survBefore = 0;
  private sorted = new Float64Array(64);

  add(r: GcRecord): void {
    this.count++;
    if (isInducedReason(r.reason)) this.induced++;
    if (r.type === 1) this.background++;
    else if (r.type === 2) this.foreground++;
    const p = r.pauseDurationMSec;
    this.totalPause += p;
    this.maxPause = Math.max(this.maxPause, p);
    this.allocated += nan(r.allocedSinceLastGCMB);
    // A missing promoted size counts as -1, as TraceEvent's rollup does.
    const promoted = r.promotedMB ?? -1;
    this.promoted += promoted;
    const before = nan(r.heapSizeBeforeMB);
    if (promoted >= 0 && before > 0) {
      this.survPromoted += promoted;
      this.survBefore += before;
    }
    this.insert(p);
  }

  private insert(p: number): void {
    const n = this.count - 1;
    if (n === this.sorted.length) {
      const grown = new Float64Array(this.sorted.length * 2);
      grown.set(this.sorted);
      this.sorted = grown;
    }
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sorted[mid]! <= p) lo = mid + 1;
      else hi = mid;
    }
    this.sorted.copyWithin(lo + 1, lo, n);
    this.sorted[lo] = p;
  }

  pause(p: number): number | null {
    return percentile(this.sorted.subarray(0, this.count), p);
  }

  row(label: string, key: number): GroupRollup {
    const n = this.count;
    return {
      label,
      key,
      count: n,
      inducedCount: this.induced,
      backgroundCount: this.background,
      totalPauseMSec: this.totalPause,
      meanPauseMSec: n > 0 ? this.totalPause / n : null,
      maxPauseMSec: n > 0 ? this.maxPause : null,
      pauseP90MSec: this.pause(90),
      allocatedMB: this.allocated,
      promotedMB: this.promoted,
      survivalPercent: this.survBefore > 0 ? (this.survPromoted * 100) / this.survBefore : null,
    };
  }
}

export class LiveSummary {
  private readonly all = new Group();
  private readonly gens = [new Group(), new Group(), new Group()] as const;
  private readonly reasons = new Map<number, Group>();
  private peak: number | null = null;
  private firstPauseStart: number | undefined;
  private lastEnd = 0;
  private lastStart = 0;

  /** Adds a batch's GCs (in GC order) and returns the summary through them. */
  add(records: readonly GcRecord[]): RangeSummary {
    for (const r of records) if (r.isComplete) this.addOne(r);
    return this.summary();
  }

  private addOne(r: GcRecord): void {
    this.all.add(r);
    this.gens[r.generation as 0 | 1 | 2]?.add(r);
    let g = this.reasons.get(r.reason);
    if (g === undefined) this.reasons.set(r.reason, (g = new Group()));
    g.add(r);
    const peak = nan(r.heapSizePeakMB);
    if (!Number.isNaN(peak)) this.peak = Math.max(this.peak ?? 0, peak);
    this.firstPauseStart ??= r.pauseStartRelativeMSec;
    this.lastEnd = Math.max(this.lastEnd, r.pauseStartRelativeMSec + r.pauseDurationMSec);
    this.lastStart = Math.max(this.lastStart, r.pauseStartRelativeMSec);
  }

  /** Whether [from, to] holds every GC added so far (the whole session's tiles). */
  covers(fromMSec: number, toMSec: number): boolean {
    return this.firstPauseStart === undefined || (fromMSec <= this.firstPauseStart && toMSec >= this.lastStart);
  }

  summary(): RangeSummary {
    const a = this.all;
    const n = a.count;
    const first = this.firstPauseStart;
    const duration = first === undefined || first === 0 ? 0 : this.lastEnd - first;
    return {
      gcCount: n,
      completedGCs: n,
      countByGeneration: [this.gens[0].count, this.gens[1].count, this.gens[2].count],
      backgroundGCs: a.background,
      foregroundGCs: a.foreground,
      blockingGCs: n - a.background - a.foreground,
      inducedGCs: a.induced,
      totalPauseMSec: a.totalPause,
      maxPauseMSec: n > 0 ? a.maxPause : null,
      meanPauseMSec: n > 0 ? a.totalPause / n : null,
      pauseP50MSec: a.pause(50),
      pauseP90MSec: a.pause(90),
      pauseP99MSec: a.pause(99),
      pauseTimePercentage: duration === 0 ? (n === 0 ? null : 0) : (a.totalPause * 100) / duration,
      processDurationMSec: duration,
      peakHeapMB: this.peak,
      allocatedMB: a.allocated,
      byGeneration: this.gens.map((g, i) => g.row(`gen${i}`, i)),
      byReason: [...this.reasons].map(([reason, g]) => g.row(gcReasonName(reason), reason)).sort((x, y) => y.totalPauseMSec - x.totalPauseMSec || y.count - x.count),
    };
  }
}
