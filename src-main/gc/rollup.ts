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

function empty(generation: GenerationRollup['generation']): GenerationRollup {
  return {
    generation, count: 0, numInduced: 0, numBackground: 0, numForeground: 0, numBlocking: 0, totalPauseTimeMSec: 0, maxPauseDurationMSec: 0,
    meanPauseDurationMSec: null, pauseP50MSec: null, pauseP90MSec: null, pauseP99MSec: null, maxSuspendDurationMSec: 0, totalAllocatedMB: 0,
    maxAllocRateMBSec: 0, totalSizeAfterMB: 0, meanSizeAfterMB: null, totalSizePeakMB: 0, maxSizePeakMB: 0, totalPromotedMB: 0,
    survivalPercent: null, pinnedObjectSizes: 0, numWithPinEvents: 0, numWithPinPlugEvents: 0,
  };
}

/**
 * The columns a rollup reads (a session's columns, shared/gc-column-registry.ts): NaN where a
 * value is unavailable. Missing sizes take TraceEvent's defaults here, in one place: heap size
 * after and promoted −1, pinned bytes 0, pinned-plug percentage −1.
 */
export type RollupColumns = Pick<GcColumns, 'generation' | 'type' | 'reason' | 'pause' | 'suspend' | 'allocated' | 'allocRate' | 'heapAfter' | 'heapPeak' | 'heapBefore' | 'promoted' | 'pinnedBytes' | 'pinnedPercent' | 'time'>;

/** Rows of completed GCs (optionally: pause start in [from, to], GC number ≤ throughNumber), in GC order. */
export function completedRows(c: Pick<GcColumns, 'complete' | 'time' | 'number'>, range?: { fromMSec: number; toMSec: number; throughNumber?: number }): Int32Array {
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
 * Rolls up the completed GCs at `rows` (in GC order). `lastHeapStatsMSec` is the time of the
 * trace's last HeapStats (TraceEvent's lastRestartEndTimeRelativeMSec).
 */
export function rollup(c: RollupColumns, rows: ArrayLike<number>, lastHeapStatsMSec: number, incompleteCount = 0): Rollup {
  const all = empty('ALL');
  const gens: [GenerationRollup, GenerationRollup, GenerationRollup] = [empty(0), empty(1), empty(2)];
  const pauses: number[][] = [[], [], [], []];
  const surv = [
    [0, 0],
    [0, 0],
    [0, 0],
    [0, 0],
  ];
  const or = (v: number, missing: number): number => (Number.isNaN(v) ? missing : v);
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k]!;
    const gc = {
      generation: c.generation[i]!,
      type: c.type[i]!,
      isInduced: isInducedReason(c.reason[i]!),
      pauseDurationMSec: c.pause[i]!,
      suspendDurationMSec: c.suspend[i]!,
      allocedSinceLastGCMB: c.allocated[i]!,
      allocRateMBSec: c.allocRate[i]!,
      heapSizeAfterMB: or(c.heapAfter[i]!, -1),
      heapSizePeakMB: c.heapPeak[i]!,
      heapSizeBeforeMB: c.heapBefore[i]!,
      promotedMB: or(c.promoted[i]!, -1),
      pinnedObjectSizes: or(c.pinnedBytes[i]!, 0),
      pinnedObjectPercentage: or(c.pinnedPercent[i]!, -1),
    };
    const g = gens[gc.generation as 0 | 1 | 2];
    const targets = g === undefined ? [all] : [g, all];
    for (const s of targets) {
      s.count++;
      if (gc.isInduced) s.numInduced++;
      if (gc.type === GCType.Background) s.numBackground++;
      else if (gc.type === GCType.Foreground) s.numForeground++;
      else s.numBlocking++;
      if (gc.pinnedObjectSizes !== 0) {
        s.pinnedObjectSizes += gc.pinnedObjectSizes;
        s.numWithPinEvents++;
      }
      if (gc.pinnedObjectPercentage !== -1) s.numWithPinPlugEvents++;
      s.totalSizeAfterMB += gc.heapSizeAfterMB;
      s.totalSizePeakMB += gc.heapSizePeakMB;
      s.totalPromotedMB += gc.promotedMB;
      s.totalPauseTimeMSec += gc.pauseDurationMSec;
      s.totalAllocatedMB += gc.allocedSinceLastGCMB;
      s.maxPauseDurationMSec = Math.max(s.maxPauseDurationMSec, gc.pauseDurationMSec);
      s.maxSizePeakMB = Math.max(s.maxSizePeakMB, gc.heapSizePeakMB);
      // Math.Max in .NET propagates NaN; keep the running max as TraceEvent would.
      s.maxAllocRateMBSec = Number.isNaN(gc.allocRateMBSec) ? Number.NaN : Math.max(s.maxAllocRateMBSec, gc.allocRateMBSec);
      s.maxSuspendDurationMSec = Math.max(s.maxSuspendDurationMSec, gc.suspendDurationMSec);
    }
    const slot = [3, gc.generation];
    for (const k of slot) {
      if (k < 0 || k > 3) continue;
      pauses[k]!.push(gc.pauseDurationMSec);
      if (gc.promotedMB >= 0 && gc.heapSizeBeforeMB > 0) {
        surv[k]![0]! += gc.promotedMB;
        surv[k]![1]! += gc.heapSizeBeforeMB;
      }
    }
  }
  const finish = (s: GenerationRollup, k: number): void => {
    if (s.count > 0) {
      s.meanPauseDurationMSec = s.totalPauseTimeMSec / s.count;
      s.meanSizeAfterMB = s.totalSizeAfterMB / s.count;
    }
    // Typed-array sort is numeric and native: several times faster than a comparator on 100k GCs.
    const sorted = Float64Array.from(pauses[k]!).sort();
    s.pauseP50MSec = percentile(sorted, 50);
    s.pauseP90MSec = percentile(sorted, 90);
    s.pauseP99MSec = percentile(sorted, 99);
    s.survivalPercent = surv[k]![1]! > 0 ? (surv[k]![0]! * 100) / surv[k]![1]! : null;
  };
  finish(all, 3);
  gens.forEach((g, i) => finish(g, i));
  const firstStart = rows.length === 0 ? undefined : c.time[rows[0]!]!;
  const processDurationMSec = firstStart === undefined || firstStart === 0 ? 0 : lastHeapStatsMSec - firstStart;
  return {
    all,
    generations: gens,
    processDurationMSec,
    pauseTimePercentage: processDurationMSec === 0 ? (rows.length === 0 ? null : 0) : (all.totalPauseTimeMSec * 100) / processDurationMSec,
    incompleteCount,
  };
}
