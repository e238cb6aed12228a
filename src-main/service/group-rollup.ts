/**
 * The rollup panel's rows: a range's GCs grouped by generation and by trigger reason, each group
 * rolled up like one of GCStats' generation rows. `rangeGroups` computes them from columns (a
 * stored session, or any range and filter); `LiveGroups` keeps the same numbers up to date GC by
 * GC while a session records, so a live batch costs its own GCs.
 */
import { percentile, rollup, type GenerationRollup, type RollupColumns } from '../gc/rollup.js';
import type { GroupRollup } from '../shared/contract.js';
import { gcReasonName } from '../shared/gc-enums.js';
import type { GcColumns } from '../shared/gc-column-registry.js';
import { isInducedReason } from '../shared/gc-record.js';
import { grown } from '../shared/grown.js';
import { upperBound } from '../shared/sorted.js';

export function groupRow(label: string, key: number, g: GenerationRollup): GroupRollup {
  return {
    label,
    key,
    count: g.count,
    inducedCount: g.numInduced,
    backgroundCount: g.numBackground,
    totalPauseMSec: g.totalPauseTimeMSec,
    meanPauseMSec: g.meanPauseDurationMSec,
    maxPauseMSec: g.count > 0 ? g.maxPauseDurationMSec : null,
    pauseP90MSec: g.pauseP90MSec,
    allocatedMB: g.totalAllocatedMB,
    promotedMB: g.totalPromotedMB,
    survivalPercent: g.survivalPercent,
  };
}

/** Most pause first, then most GCs. */
const byPause = (a: GroupRollup, b: GroupRollup): number => b.totalPauseMSec - a.totalPauseMSec || b.count - a.count;

/** The rows' groups by generation (from their rollup) and by reason. */
export function rangeGroups(c: RollupColumns, rows: ArrayLike<number>, generations: GenerationRollup[]): { byGeneration: GroupRollup[]; byReason: GroupRollup[] } {
  const groups = new Map<number, number[]>();
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k]!;
    const reason = c.reason[i]!;
    const g = groups.get(reason);
    if (g === undefined) groups.set(reason, [i]);
    else g.push(i);
  }
  return {
    byGeneration: generations.map((g, i) => groupRow(`gen${i}`, i, g)),
    byReason: [...groups].map(([reason, idx]) => groupRow(gcReasonName(reason), reason, rollup(c, idx, 0).all)).sort(byPause),
  };
}

/** What the live rollup reads of a batch's GCs. */
export type LiveRollupColumns = Pick<GcColumns, 'generation' | 'type' | 'reason' | 'pause' | 'allocated' | 'promoted' | 'heapBefore'>;

/** One group's running rollup: sums, maxima and its pauses kept sorted for the percentiles. */
export class GroupAccumulator {
  private count = 0;
  private induced = 0;
  private background = 0;
  private totalPause = 0;
  private maxPause = 0;
  private allocated = 0;
  private promoted = 0;
  private survivedMB = 0;
  private beforeMB = 0;
  private sorted = new Float64Array(64);

  /** Adds the GC at row `i` of `c` (a live batch's columns). */
  add(c: LiveRollupColumns, i: number): void {
    this.count++;
    if (isInducedReason(c.reason[i]!)) this.induced++;
    if (c.type[i] === 1) this.background++;
    const p = c.pause[i]!;
    this.totalPause += p;
    this.maxPause = Math.max(this.maxPause, p);
    this.allocated += c.allocated[i]!;
    // As rollup(): a missing promoted size counts as TraceEvent's -1, and survival uses only GCs
    // with both numbers.
    const promoted = Number.isNaN(c.promoted[i]!) ? -1 : c.promoted[i]!;
    this.promoted += promoted;
    const before = c.heapBefore[i]!;
    if (promoted >= 0 && before > 0) {
      this.survivedMB += promoted;
      this.beforeMB += before;
    }
    this.sorted = insertSorted(this.sorted, this.count - 1, p);
  }

  /** The p-th percentile of the group's pauses (null without GCs), as rollup() computes it. */
  pausePercentile(p: number): number | null {
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
      pauseP90MSec: this.pausePercentile(90),
      allocatedMB: this.allocated,
      promotedMB: this.promoted,
      survivalPercent: this.beforeMB > 0 ? (this.survivedMB * 100) / this.beforeMB : null,
    };
  }
}

/** Inserts `v` into the first `n` (sorted) values of `a`, growing it when full; returns the array. */
export function insertSorted(a: Float64Array<ArrayBuffer>, n: number, v: number): Float64Array<ArrayBuffer> {
  const out = n === a.length ? grown(a, a.length * 2) : a;
  const lo = upperBound(out, v, n);
  out.copyWithin(lo + 1, lo, n);
  out[lo] = v;
  return out;
}

/** The groups of a recording's completed GCs, kept up to date as they arrive. */
export class LiveGroups {
  private readonly gens = [new GroupAccumulator(), new GroupAccumulator(), new GroupAccumulator()];
  private readonly reasons = new Map<number, GroupAccumulator>();

  add(c: LiveRollupColumns, i: number): void {
    this.gens[c.generation[i]!]?.add(c, i);
    const reason = c.reason[i]!;
    let g = this.reasons.get(reason);
    if (g === undefined) this.reasons.set(reason, (g = new GroupAccumulator()));
    g.add(c, i);
  }

  rows(): { byGeneration: GroupRollup[]; byReason: GroupRollup[] } {
    return {
      byGeneration: this.gens.map((g, i) => g.row(`gen${i}`, i)),
      byReason: [...this.reasons].map(([reason, g]) => g.row(gcReasonName(reason), reason)).sort(byPause),
    };
  }
}
