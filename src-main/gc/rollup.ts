/**
 * Aggregates over completed GCs, as TraceEvent's `TraceGarbageCollector.Stats()` (all GCs) and
 * `Generations()` (gen 0/1/2) compute them (docs/formats.md §4.5), plus what GCStats lacks: pause
 * percentiles and per-kind counts. `pauseTimePercentage` is TraceEvent's
 * `GetGCPauseTimePercentage()`: total pause over the time from the first GC's pause start to the
 * last HeapStats. It reads columns (one per-GC quantity per array, as every consumer holds them):
 * the report, the app's range summaries and the oracle comparison all roll up the same way.
 */
import type { GcColumns } from '../shared/gc-column-registry.js';
import { isInducedReason } from '../shared/gc-record.js';
import { grown } from '../shared/grown.js';
import { lowerBound, upperBound } from '../shared/sorted.js';
import { GCType } from './trace-gc.js';

export interface GenerationRollup {
  /** 'ALL' or 0/1/2. */
  generation: 'ALL' | 0 | 1 | 2;
  count: number;
  numInduced: number;
  numBackground: number;
  numForeground: number;
  numBlocking: number;
  totalPauseTimeMSec: number;
  maxPauseDurationMSec: number;
  /** Total / count; null when there is no GC. */
  meanPauseDurationMSec: number | null;
  pauseP50MSec: number | null;
  pauseP90MSec: number | null;
  pauseP99MSec: number | null;
  maxSuspendDurationMSec: number;
  totalAllocatedMB: number;
  maxAllocRateMBSec: number;
  totalSizeAfterMB: number;
  meanSizeAfterMB: number | null;
  totalSizePeakMB: number;
  maxSizePeakMB: number;
  totalPromotedMB: number;
  /** Σ promoted / Σ heap size before, over GCs with both (0–100); null without data. */
  survivalPercent: number | null;
  pinnedObjectSizes: number;
  numWithPinEvents: number;
  numWithPinPlugEvents: number;
}

export interface Rollup {
  all: GenerationRollup;
  generations: [GenerationRollup, GenerationRollup, GenerationRollup];
  /** Last HeapStats time − first completed GC's pause start (ms); 0 without GCs. */
  processDurationMSec: number;
  /** TraceEvent's GetGCPauseTimePercentage; null without a duration to divide by. */
  pauseTimePercentage: number | null;
  /** GCs seen but never completed (trace ended or events were lost). */
  incompleteCount: number;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: ArrayLike<number>, p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/**
 * The columns a rollup reads (a session's columns, shared/gc-column-registry.ts): NaN where a
 * value is unavailable. Missing sizes take TraceEvent's defaults here, in one place: heap size
 * after and promoted −1, pinned bytes 0, pinned-plug percentage −1.
 */
export type RollupColumns = Pick<
  GcColumns,
  | 'generation'
  | 'type'
  | 'reason'
  | 'pause'
  | 'suspend'
  | 'allocated'
  | 'allocRate'
  | 'heapAfter'
  | 'heapPeak'
  | 'heapBefore'
  | 'promoted'
  | 'pinnedBytes'
  | 'pinnedPercent'
  | 'time'
>;

/** Rows of completed GCs (optionally: pause start in [from, to], GC number ≤ throughNumber), in GC order. */
export function completedRows(
  c: Pick<GcColumns, 'complete' | 'time' | 'number'>,
  range?: { fromMSec: number; toMSec: number; throughNumber?: number },
): Int32Array {
  const n = c.complete.length;
  const out = new Int32Array(n);
  let k = 0;
  const from = range?.fromMSec ?? Number.NEGATIVE_INFINITY;
  const to = range?.toMSec ?? Number.POSITIVE_INFINITY;
  const through = range?.throughNumber ?? Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const t = c.time[i]!;
    if (c.complete[i] !== 1 || !(t >= from && t <= to) || c.number[i]! > through) continue;
    out[k++] = i;
  }
  return out.subarray(0, k);
}

/**
 * The largest of values that come and go, exact without keeping them all: how many values hold
 * the maximum, and how many are NaN. Starts at `floor` (rollup's maxima start at 0). When the
 * last value holding the maximum leaves, the maximum is unknown (`stale`) until the values are
 * added again: the caller (a live summary) rebuilds, which a GC sent again with a smaller value
 * than the maximum it held makes rare.
 */
export class RunningMax {
  private max: number;
  private holders = 0;
  /** NaN values held. */
  nan = 0;
  /** Values held that are not NaN. */
  n = 0;
  stale = false;

  constructor(private readonly floor: number) {
    this.max = floor;
  }

  add(v: number, sign = 1): void {
    if (Number.isNaN(v)) {
      this.nan += sign;
      return;
    }
    this.n += sign;
    if (sign > 0) {
      if (v > this.max) {
        this.max = v;
        this.holders = 1;
      } else if (v === this.max) this.holders++;
    } else if (v === this.max && --this.holders === 0 && this.max !== this.floor) this.stale = true;
  }

  /** Math.max over the floor and every value, in any order: NaN once any value is NaN (as .NET's Math.Max, which TraceEvent uses). */
  get value(): number {
    return this.nan > 0 ? Number.NaN : this.max;
  }

  /** The largest value that is not NaN (at least the floor); null without one. */
  get skippingNaN(): number | null {
    return this.n > 0 ? this.max : null;
  }
}

/** A sum of values that come and go: NaN while any value held is NaN (as summing them in order gives), else their sum. */
export class RunningSum {
  private sum = 0;
  private nan = 0;

  add(v: number, sign = 1): void {
    if (Number.isNaN(v)) this.nan += sign;
    // sign × v is v or −v exactly: adding in GC order gives the very sum a loop over them gives.
    else this.sum += sign * v;
  }

  get value(): number {
    return this.nan > 0 ? Number.NaN : this.sum;
  }
}

/**
 * Values kept sorted for percentiles as they come and go: added ones wait unsorted and are merged
 * in one pass when the sorted values are read, so adding a whole session (a batch rollup) costs
 * one native sort, and a live batch one merge.
 */
class SortedValues {
  private sorted: Float64Array<ArrayBuffer> = new Float64Array(16);
  private n = 0;
  private pending: number[] = [];

  add(v: number): void {
    this.pending.push(v);
  }

  remove(v: number): void {
    const p = this.pending.lastIndexOf(v);
    if (p >= 0) {
      this.pending.splice(p, 1);
      return;
    }
    const i = lowerBound(this.sorted, v, this.n);
    if (i < this.n && this.sorted[i] === v) {
      this.sorted.copyWithin(i, i + 1, this.n);
      this.n--;
    }
  }

  values(): Float64Array {
    const m = this.pending.length;
    if (m > 0) {
      if (this.n + m > this.sorted.length) this.sorted = grown(this.sorted, Math.max(this.n + m, this.sorted.length * 2));
      const a = this.sorted;
      if (m * 8 < this.n) {
        // A live batch's few values: each inserted at its place (a native move of the values above it).
        for (const v of this.pending) {
          const at = upperBound(a, v, this.n);
          a.copyWithin(at + 1, at, this.n);
          a[at] = v;
          this.n++;
        }
      } else {
        // Typed-array sort is numeric and native: several times faster than a comparator on 100k GCs.
        const add = Float64Array.from(this.pending).sort();
        // Merged from the back, in place.
        let i = this.n - 1;
        let j = m - 1;
        for (let k = this.n + m - 1; j >= 0; k--) a[k] = i >= 0 && a[i]! > add[j]! ? a[i--]! : add[j--]!;
        this.n += m;
      }
      this.pending = [];
    }
    return this.sorted.subarray(0, this.n);
  }
}

/**
 * One group's rollup (all GCs, a generation, a trigger reason), GC by GC: `rollup()` adds a
 * range's GCs in GC order, and a recording's summary (service/live-summary.ts) adds each GC as
 * it arrives and takes one sent again back out (`sign` −1) before adding its new values, so
 * the live tiles are this same computation.
 */
export class RollupAccumulator {
  count = 0;
  private numInduced = 0;
  private numBackground = 0;
  private numForeground = 0;
  private numBlocking = 0;
  private readonly totalPause = new RunningSum();
  private readonly maxPause = new RunningMax(0);
  private readonly maxSuspend = new RunningMax(0);
  private readonly totalAllocated = new RunningSum();
  private readonly maxAllocRate = new RunningMax(0);
  private readonly totalSizeAfter = new RunningSum();
  private readonly totalSizePeak = new RunningSum();
  private readonly maxSizePeak = new RunningMax(0);
  private readonly totalPromoted = new RunningSum();
  private readonly survivedMB = new RunningSum();
  private readonly beforeMB = new RunningSum();
  private readonly pinnedObjectSizes = new RunningSum();
  private numWithPinEvents = 0;
  private numWithPinPlugEvents = 0;
  private readonly pauses = new SortedValues();

  constructor(readonly generation: GenerationRollup['generation']) {}

  /** Adds (sign 1) or takes back out (sign −1) the GC at row `i`. */
  add(c: RollupColumns, i: number, sign = 1): void {
    const type = c.type[i]!;
    this.count += sign;
    if (isInducedReason(c.reason[i]!)) this.numInduced += sign;
    if (type === GCType.Background) this.numBackground += sign;
    else if (type === GCType.Foreground) this.numForeground += sign;
    else this.numBlocking += sign;
    const pinned = or(c.pinnedBytes[i]!, 0);
    if (pinned !== 0) {
      this.pinnedObjectSizes.add(pinned, sign);
      this.numWithPinEvents += sign;
    }
    if (or(c.pinnedPercent[i]!, -1) !== -1) this.numWithPinPlugEvents += sign;
    this.totalSizeAfter.add(or(c.heapAfter[i]!, -1), sign);
    this.totalSizePeak.add(c.heapPeak[i]!, sign);
    this.totalPromoted.add(or(c.promoted[i]!, -1), sign);
    this.totalPause.add(c.pause[i]!, sign);
    this.totalAllocated.add(c.allocated[i]!, sign);
    this.maxPause.add(c.pause[i]!, sign);
    this.maxSizePeak.add(c.heapPeak[i]!, sign);
    this.maxAllocRate.add(c.allocRate[i]!, sign);
    this.maxSuspend.add(c.suspend[i]!, sign);
    this.addPause(c, i, sign);
  }

  /** The GC's pause (for the percentiles) and its survival. */
  addPause(c: RollupColumns, i: number, sign = 1): void {
    const pause = c.pause[i]!;
    if (sign > 0) this.pauses.add(pause);
    else this.pauses.remove(pause);
    const promoted = or(c.promoted[i]!, -1);
    const before = c.heapBefore[i]!;
    if (promoted >= 0 && before > 0) {
      this.survivedMB.add(promoted, sign);
      this.beforeMB.add(before, sign);
    }
  }

  /** Whether a maximum is unknown since a GC holding it was taken out (add every GC again). */
  get stale(): boolean {
    return this.maxPause.stale || this.maxSuspend.stale || this.maxAllocRate.stale || this.maxSizePeak.stale;
  }

  result(): GenerationRollup {
    const n = this.count;
    const total = this.totalPause.value;
    const sorted = this.pauses.values();
    const before = this.beforeMB.value;
    return {
      generation: this.generation,
      count: n,
      numInduced: this.numInduced,
      numBackground: this.numBackground,
      numForeground: this.numForeground,
      numBlocking: this.numBlocking,
      totalPauseTimeMSec: total,
      maxPauseDurationMSec: this.maxPause.value,
      meanPauseDurationMSec: n > 0 ? total / n : null,
      pauseP50MSec: percentile(sorted, 50),
      pauseP90MSec: percentile(sorted, 90),
      pauseP99MSec: percentile(sorted, 99),
      maxSuspendDurationMSec: this.maxSuspend.value,
      totalAllocatedMB: this.totalAllocated.value,
      maxAllocRateMBSec: this.maxAllocRate.value,
      totalSizeAfterMB: this.totalSizeAfter.value,
      meanSizeAfterMB: n > 0 ? this.totalSizeAfter.value / n : null,
      totalSizePeakMB: this.totalSizePeak.value,
      maxSizePeakMB: this.maxSizePeak.value,
      totalPromotedMB: this.totalPromoted.value,
      survivalPercent: before > 0 ? (this.survivedMB.value * 100) / before : null,
      pinnedObjectSizes: this.pinnedObjectSizes.value,
      numWithPinEvents: this.numWithPinEvents,
      numWithPinPlugEvents: this.numWithPinPlugEvents,
    };
  }
}

/** A missing value (NaN) as TraceEvent's default for it. */
const or = (v: number, missing: number): number => (Number.isNaN(v) ? missing : v);

/** The whole range's rollup and one per generation, GC by GC (rollup() and the live summary). */
export class RollupGroups {
  readonly all = new RollupAccumulator('ALL');
  readonly generations: [RollupAccumulator, RollupAccumulator, RollupAccumulator] = [
    new RollupAccumulator(0),
    new RollupAccumulator(1),
    new RollupAccumulator(2),
  ];

  add(c: RollupColumns, i: number, sign = 1): void {
    const g = c.generation[i]!;
    this.all.add(c, i, sign);
    // A generation past 2 (never in a well-formed trace) has its pause counted twice in the
    // all-GCs percentiles and survival, as rollup() always did: outputs stay as they were.
    if (g === 3) this.all.addPause(c, i, sign);
    this.generations[g as 0 | 1 | 2]?.add(c, i, sign);
  }

  get stale(): boolean {
    return this.all.stale || this.generations.some((g) => g.stale);
  }

  /** The rollup, given the first GC's pause start (undefined without GCs) and the last HeapStats time. */
  result(firstStartMSec: number | undefined, lastHeapStatsMSec: number, incompleteCount = 0): Rollup {
    const all = this.all.result();
    const processDurationMSec = firstStartMSec === undefined || firstStartMSec === 0 ? 0 : lastHeapStatsMSec - firstStartMSec;
    return {
      all,
      generations: [this.generations[0].result(), this.generations[1].result(), this.generations[2].result()],
      processDurationMSec,
      pauseTimePercentage: processDurationMSec === 0 ? (all.count === 0 ? null : 0) : (all.totalPauseTimeMSec * 100) / processDurationMSec,
      incompleteCount,
    };
  }
}

/**
 * Rolls up the completed GCs at `rows` (in GC order). `lastHeapStatsMSec` is the time of the
 * trace's last HeapStats (TraceEvent's lastRestartEndTimeRelativeMSec).
 */
export function rollup(c: RollupColumns, rows: ArrayLike<number>, lastHeapStatsMSec: number, incompleteCount = 0): Rollup {
  const groups = new RollupGroups();
  for (let k = 0; k < rows.length; k++) groups.add(c, rows[k]!);
  return groups.result(rows.length === 0 ? undefined : c.time[rows[0]!]!, lastHeapStatsMSec, incompleteCount);
}
