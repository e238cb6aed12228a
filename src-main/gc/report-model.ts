/**
 * The report every output format renders (DESIGN.md "report --format json" shape): trace header,
 * process and GC mode, summary, rollup by generation, one record per GC, and data quality —
 * with every metric the trace cannot support listed as unavailable, with the reason.
 */
import { gcReasonName } from '../clr/enums.js';
import type { GcRecord, UnavailableReason } from '../shared/gc-record.js';
import { isInducedReason, UNAVAILABLE_REASONS } from '../shared/gc-record.js';
import { rollup, type GenerationRollup, type Rollup, type RollupInput } from './rollup.js';

export interface ReportTrace {
  format: string | null;
  formatVersion: number | null;
  pointerSize: number | null;
  qpcFrequency: number | null;
  startTimeUtc: string | null;
  processId: number | null;
  cpuCount: number | null;
  source: string | null;
}

export interface ReportProcess {
  pid: number | null;
  name: string | null;
  commandLine: string | null;
  runtimeVersion: string | null;
  os: string | null;
  arch: string | null;
  gcMode: string | null;
  concurrent: boolean | null;
  heapCount: number | null;
}

export interface ReportQuality {
  droppedEvents: number;
  incompleteGCs: number;
  truncated: boolean;
  statusReason: string | null;
  /** Event kinds the trace lacks, and what that costs. */
  missingEvents: string[];
  /** Metrics reported as unavailable for the whole trace, with why. */
  unavailable: { metric: string; reason: string }[];
  nonGCSuspensions: number;
}

export interface GcReport {
  trace: ReportTrace;
  process: ReportProcess;
  summary: {
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
    pauseTimePercentage: number | null;
    processDurationMSec: number;
    totalAllocatedMB: number;
    maxHeapSizeMB: number | null;
    /** Time span of the trace's events (ms). */
    traceDurationMSec: number | null;
  };
  generations: GenerationRollup[];
  gcs: GcRecord[];
  quality: ReportQuality;
}

export function rollupInputOfRecord(r: GcRecord): RollupInput {
  const nan = (v: number | null): number => (v === null ? Number.NaN : v);
  return {
    generation: r.generation,
    type: r.type,
    isInduced: isInducedReason(r.reason),
    pauseDurationMSec: r.pauseDurationMSec,
    suspendDurationMSec: r.suspendDurationMSec,
    allocedSinceLastGCMB: nan(r.allocedSinceLastGCMB),
    allocRateMBSec: nan(r.allocRateMBSec),
    heapSizeAfterMB: r.heapSizeAfterMB ?? -1,
    heapSizePeakMB: nan(r.heapSizePeakMB),
    heapSizeBeforeMB: nan(r.heapSizeBeforeMB),
    promotedMB: r.promotedMB ?? -1,
    pinnedObjectSizes: r.pinnedObjectSizes ?? 0,
    pinnedObjectPercentage: r.pinnedObjectPercentage ?? -1,
    pauseStartRelativeMSec: r.pauseStartRelativeMSec,
  };
}

export interface ReportSourceInfo {
  trace: ReportTrace;
  process: ReportProcess;
  droppedEvents: number;
  truncated: boolean;
  statusReason: string | null;
  lastHeapStatsMSec: number;
  firstEventMSec: number | null;
  lastEventMSec: number | null;
  hasPerHeapHistory: boolean;
  hasAllocTicks: boolean;
  hasPinEvents: boolean;
  nonGCSuspensions: number;
}

export function buildReport(src: ReportSourceInfo, gcs: GcRecord[]): GcReport {
  const completed = gcs.filter((g) => g.isComplete);
  const r: Rollup = rollup(completed.map(rollupInputOfRecord), src.lastHeapStatsMSec, gcs.length - completed.length);
  const missing: string[] = [];
  const unavailable: { metric: string; reason: string }[] = [];
  const add = (metric: string, why: UnavailableReason): void => void unavailable.push({ metric, reason: UNAVAILABLE_REASONS[why] });
  if (gcs.length > 0 && !src.hasPerHeapHistory) {
    missing.push('GCPerHeapHistory');
    for (const m of ['survivalPercent', 'fragmentationPercent', 'genBudgetMB', 'per-heap detail']) add(m, 'noPerHeapHistory');
  }
  if (gcs.length > 0 && !src.hasAllocTicks) missing.push('GCAllocationTick (allocation by type; allocated MB falls back to per-heap history)');
  if (gcs.length > 0 && !src.hasPinEvents) add('pinnedObjectSizes', 'noPinEvents');
  add('% time in GC (CPU)', 'cpuSamples');
  add('GC CPU msec', 'cpuSamples');
  if (gcs.length > 0 && gcs.every((g) => g.committedInUseBeforeMB === null)) add('committed memory', 'noCommittedUsage');
  const maxHeap = completed.reduce<number | null>((m, g) => (g.heapSizePeakMB === null ? m : Math.max(m ?? 0, g.heapSizePeakMB)), null);
  return {
    trace: src.trace,
    process: src.process,
    summary: {
      gcCount: gcs.length,
      completedGCs: completed.length,
      countByGeneration: [r.generations[0].count, r.generations[1].count, r.generations[2].count],
      backgroundGCs: r.all.numBackground,
      foregroundGCs: r.all.numForeground,
      blockingGCs: r.all.numBlocking,
      inducedGCs: r.all.numInduced,
      totalPauseMSec: r.all.totalPauseTimeMSec,
      maxPauseMSec: completed.length > 0 ? r.all.maxPauseDurationMSec : null,
      meanPauseMSec: r.all.meanPauseDurationMSec,
      pauseP50MSec: r.all.pauseP50MSec,
      pauseP90MSec: r.all.pauseP90MSec,
      pauseP99MSec: r.all.pauseP99MSec,
      pauseTimePercentage: r.pauseTimePercentage,
      processDurationMSec: r.processDurationMSec,
      totalAllocatedMB: r.all.totalAllocatedMB,
      maxHeapSizeMB: maxHeap,
      traceDurationMSec: src.firstEventMSec === null || src.lastEventMSec === null ? null : src.lastEventMSec - src.firstEventMSec,
    },
    generations: [r.all, ...r.generations],
    gcs,
    quality: {
      droppedEvents: src.droppedEvents,
      incompleteGCs: r.incompleteCount,
      truncated: src.truncated,
      statusReason: src.statusReason,
      missingEvents: missing,
      unavailable,
      nonGCSuspensions: src.nonGCSuspensions,
    },
  };
}

/** One line per GC kind for summaries: "12 gen0, 3 gen1, 1 gen2 (1 background, 2 induced)". */
export function describeCounts(rep: GcReport): string {
  const s = rep.summary;
  const kinds: string[] = [];
  if (s.backgroundGCs > 0) kinds.push(`${s.backgroundGCs} background`);
  if (s.foregroundGCs > 0) kinds.push(`${s.foregroundGCs} foreground`);
  if (s.inducedGCs > 0) kinds.push(`${s.inducedGCs} induced`);
  return `${s.countByGeneration[0]} gen0, ${s.countByGeneration[1]} gen1, ${s.countByGeneration[2]} gen2${kinds.length > 0 ? ` (${kinds.join(', ')})` : ''}`;
}

export { gcReasonName };
