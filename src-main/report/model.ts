/**
 * The report every output format renders (docs/contract.md "report --format json"): trace header,
 * process and GC mode, summary, rollup by generation, one record per GC, and data quality —
 * with every metric the trace cannot support listed as unavailable, with the reason.
 */
import type { PauseInterval, RequestSpan } from '../shared/requests.js';
import { withStackEvidence } from './stack-evidence.js';
import type { WhoCausedIt } from '../shared/allocations.js';
import type { PinnedTypeCount } from '../shared/finding.js';
import { gcReasonName } from '../shared/gc-enums.js';
import { columnsFromRecords, type GcColumns } from '../shared/gc-column-registry.js';
import type { GcRecord, UnavailableReason } from '../shared/gc-record.js';
import type { GcSummary } from '../shared/gc-summary.js';
import { UNAVAILABLE_REASONS } from '../shared/gc-record.js';
import { completedRows, type GenerationRollup } from '../gc/rollup.js';
import { summarize } from '../gc/summary.js';
import { heapCountChanges, memoryHeadroom, sampleTcpPercent, type HeapCountChange, type MemoryHeadroom, type ServerGcData } from '../shared/server-gc.js';
import { diagnose } from '../diagnosis/diagnose.js';
import { diagnosisFacts } from '../diagnosis/facts.js';
import type { Diagnosis, DiagnosisOverrides, Finding } from '../shared/finding.js';
import { formatInt } from '../shared/format.js';

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
  /**
   * The one summary (shared/gc-summary.ts) under the report's published names: `allocatedMB` is
   * `totalAllocatedMB` and `peakHeapMB` is `maxHeapSizeMB` (TraceEvent's), plus the trace's span.
   */
  summary: Omit<GcSummary, 'allocatedMB' | 'peakHeapMB'> & {
    totalAllocatedMB: number;
    maxHeapSizeMB: number | null;
    /** Time span of the trace's events (ms). */
    traceDurationMSec: number | null;
  };
  generations: GenerationRollup[];
  gcs: readonly GcRecord[];
  quality: ReportQuality;
  /** Heap after GC and committed against the hard limit and memory load threshold (every session). */
  memory: MemoryHeadroom;
  /** Server GC only (null otherwise): each GC's own heap count, its changes, and DATAS's decisions. */
  serverGc: ReportServerGc | null;
  /** The diagnosis' findings, ordered by score (docs/diagnosis.md). */
  findings: Finding[];
  /** Rules this trace cannot judge, and what they need ("not measured", never a silent pass). */
  findingsNotMeasured: Diagnosis['notMeasured'];
  /**
   * Allocation by type from AllocationTick samples, with the heaviest stacks (all kinds and LOH);
   * null when the source has none (a trace without AllocationTick, or a session stored without).
   */
  allocations: (WhoCausedIt['allocations'] & Pick<WhoCausedIt, 'topStacks' | 'largeObjectStacks'>) | null;
  /** The GC/Triggered stack of each GC that has one (the caller of GC.Collect for induced GCs). */
  triggers: WhoCausedIt['triggers'];
}

export interface ReportServerGc {
  minHeapCount: number | null;
  maxHeapCount: number | null;
  /** Every GC whose GlobalHeapHistory.NumHeaps differs from the GC before. */
  heapCountChanges: HeapCountChange[];
  samples: number;
  /** SizeAdaptationTuning / HeapCountTuning decisions, and gen2 (SizeAdaptationFullGCTuning) ones. */
  tunings: number;
  fullGcTunings: number;
  targetTcpPercent: number;
  /** Median of the per-sample throughput cost (%), null without samples. */
  medianTcpPercent: number | null;
  /** Heap-count change pauses outside GCs (SuspendForGCPrep). */
  changePauses: { count: number; totalMSec: number; maxMSec: number | null };
  rawDynamicEvents: Record<string, number>;
  /** Server GC on .NET 9+ with no DATAS events: DATAS off, or the GC keyword at Informational missing. */
  missingDynamicEvents: boolean;
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
  /** DATAS / Server GC data and GC settings (gc/server-gc.ts); absent: none shown. */
  serverGc?: ServerGcData;
  /** Promoted MB per heap by GC index (GCMarkWithType per heap), for the heap-imbalance rule; absent when not read. */
  perHeapPromotedMB?: ReadonlyMap<number, readonly number[]>;
  /** Server GC: MB survived per heap and generation, by GC index (the diagnosis' heap-imbalance rule). */
  perHeapSurvivedMB?: ReadonlyMap<number, readonly (readonly number[])[]>;
  /** Call stacks and allocation by type (issue 14), when the source has them. */
  whoCausedIt?: WhoCausedIt;
  /** The objects each GC pinned, by type (PinObjectAtGCTime), by GC number; absent when the source has none. */
  pinnedTypes?: ReadonlyMap<number, readonly PinnedTypeCount[]>;
  /** Request spans and GC pause intervals (issue 42: the request-tail-gc rule), when the source has request events. */
  requests?: { spans: readonly RequestSpan[]; pauses: readonly PauseInterval[] };
  /** The GCs GCScope's own heap snapshots induced while this recording ran (by GC number). */
  snapshotGcNumbers?: readonly number[];
}

/**
 * `columns` / `anyCommittedUsage`: what the source already knows of `gcs` (a trace file's analysis
 * builds the columns as its GCs complete), so the rows need not be read again for them.
 */
export function buildReport(
  src: ReportSourceInfo,
  gcs: readonly GcRecord[],
  opts: { overrides?: DiagnosisOverrides; columns?: GcColumns; anyCommittedUsage?: boolean } = {},
): GcReport {
  const columns = opts.columns ?? columnsFromRecords(gcs);
  const h = reportHead(src, columns, { gcCount: gcs.length, anyCommittedUsage: opts.anyCommittedUsage ?? gcs.some((g) => g.committedInUseBeforeMB !== null) });
  const d = reportDiagnosis(src, columns, opts.overrides);
  // Key order is the published JSON shape (docs/contract.md); the findings, memory and serverGc came later.
  return {
    trace: h.trace,
    process: h.process,
    summary: h.summary,
    generations: h.generations,
    gcs,
    quality: h.quality,
    findings: withStackEvidence(d.findings, src.whoCausedIt, src.pinnedTypes),
    findingsNotMeasured: d.notMeasured,
    memory: h.memory,
    serverGc: h.serverGc,
    allocations: reportAllocations(src.whoCausedIt),
    triggers: src.whoCausedIt?.triggers ?? [],
  };
}

function reportAllocations(w: WhoCausedIt | undefined): GcReport['allocations'] {
  if (w === undefined || w.allocations.ticks === 0) return null;
  return { ...w.allocations, topStacks: w.topStacks, largeObjectStacks: w.largeObjectStacks };
}

/** The diagnosis of a report's GCs (what `gcscope diagnose` prints), with the trace facts its source knows. */
export function reportDiagnosis(
  src: ReportSourceInfo,
  columns: GcColumns,
  overrides?: DiagnosisOverrides,
  range?: { fromMSec: number; toMSec: number },
): Diagnosis {
  const facts = diagnosisFacts({
    ...src,
    gcMode: src.process.gcMode,
    heapCount: src.process.heapCount,
    concurrent: src.process.concurrent,
    cpuCount: src.trace.cpuCount,
    serverGc: src.serverGc,
    perHeapPromotedMB: src.perHeapPromotedMB,
  });
  const d = diagnose(columns, facts, { ...(overrides !== undefined ? { overrides } : {}), ...(range !== undefined ? { range } : {}) });
  if (!isFramework(src.process.runtimeVersion)) return d;
  return { ...d, notMeasured: d.notMeasured.map((n) => ({ ...n, needs: frameworkNeeds(n.needs) })) };
}

/** A .NET Framework process (process-info.ts's runtimeVersionOf: `Framework <CLR build>`). */
export function isFramework(runtimeVersion: string | null): boolean {
  return runtimeVersion?.startsWith('Framework ') === true;
}

/**
 * What a rule needs, said for a .NET Framework process: the gc-collect / gc-verbose advice is for
 * dotnet-trace. .NET Framework writes its GCPerHeapHistory to the private provider (decoded for
 * 4.5 and 4.5.2: clr/gc-events.ts decodePerHeapHistoryV2), which PerfView turns on with the CLR's
 * GC events (CommandProcessor.cs: CLRPrivate, Keywords.GC); 4.0's layout is not decoded. And it
 * has no GC hard limit or GCSettingsRundown.
 */
function frameworkNeeds(needs: string): string {
  return needs
    .replace(
      '(record with gc-collect or gc-verbose)',
      "(.NET Framework writes them to its private provider, Microsoft-Windows-DotNETRuntimePrivate, which PerfView turns on with the CLR's GC events; .NET Framework 4.0's layout is not decoded)",
    )
    .replace(/GCSettingsRundown \(the hard limit; \.NET 8\+ rundown at the end of a recording\)/, 'a GC hard limit, which .NET Framework does not have');
}
function median(a: number[]): number | null {
  if (a.length === 0) return null;
  const s = [...a].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The report's Server GC section from the per-GC heap counts and the DATAS data. */
export function reportServerGc(columns: GcColumns, d: ServerGcData | undefined, serverGc: boolean): ReportServerGc | null {
  if (!serverGc) return null;
  const counts = Array.from(columns.heapCount).filter((c) => c > 0);
  const tcps = (d?.samples ?? []).map(sampleTcpPercent).filter((x): x is number => x !== null);
  const pauses = d?.changePauses ?? [];
  return {
    minHeapCount: counts.length > 0 ? Math.min(...counts) : null,
    maxHeapCount: counts.length > 0 ? Math.max(...counts) : null,
    heapCountChanges: heapCountChanges(columns.number, columns.time, columns.heapCount),
    samples: d?.samples.length ?? 0,
    tunings: d?.tunings.filter((t) => t.kind !== 'full-gc-tuning').length ?? 0,
    fullGcTunings: d?.tunings.filter((t) => t.kind === 'full-gc-tuning').length ?? 0,
    targetTcpPercent: d?.targetTcpPercent ?? 2,
    medianTcpPercent: median(tcps),
    changePauses: {
      count: pauses.length,
      totalMSec: pauses.reduce((a, p) => a + p.durationMSec, 0),
      maxMSec: pauses.length > 0 ? Math.max(...pauses.map((p) => p.durationMSec)) : null,
    },
    rawDynamicEvents: d?.rawDynamicEvents ?? {},
    missingDynamicEvents: d?.missingDynamicEvents ?? false,
  };
}

/**
 * Everything of the report but the GC list, from a session's columns: what `import` prints from
 * the columns its pipeline holds, without reading back the rows it just stored.
 */
export function reportHead(
  src: ReportSourceInfo,
  columns: GcColumns,
  opts: { gcCount: number; anyCommittedUsage: boolean },
): Omit<GcReport, 'gcs' | 'findings' | 'findingsNotMeasured' | 'allocations' | 'triggers'> {
  const n = opts.gcCount;
  const rows = completedRows(columns);
  const { summary: s, rollup: r } = summarize(columns, rows, { gcCount: n, lastHeapStatsMSec: src.lastHeapStatsMSec, incompleteCount: n - rows.length });
  const missing: string[] = [];
  const unavailable: { metric: string; reason: string }[] = [];
  const add = (metric: string, why: UnavailableReason): void => void unavailable.push({ metric, reason: UNAVAILABLE_REASONS[why] });
  if (n > 0 && !src.hasPerHeapHistory) {
    missing.push('GCPerHeapHistory');
    for (const m of ['survivalPercent', 'fragmentationPercent', 'genBudgetMB', 'per-heap detail']) add(m, 'noPerHeapHistory');
  }
  if (n > 0 && !src.hasAllocTicks) missing.push('GCAllocationTick (allocation by type; allocated MB falls back to per-heap history)');
  if (n > 0 && !src.hasPinEvents) add('pinnedObjectSizes', 'noPinEvents');
  add('% time in GC (CPU)', 'cpuSamples');
  add('GC CPU msec', 'cpuSamples');
  if (n > 0 && !opts.anyCommittedUsage) add('committed memory', 'noCommittedUsage');
  return {
    trace: src.trace,
    process: src.process,
    // The report's published names and order (docs/contract.md).
    summary: {
      gcCount: s.gcCount,
      completedGCs: s.completedGCs,
      countByGeneration: s.countByGeneration,
      backgroundGCs: s.backgroundGCs,
      foregroundGCs: s.foregroundGCs,
      blockingGCs: s.blockingGCs,
      inducedGCs: s.inducedGCs,
      totalPauseMSec: s.totalPauseMSec,
      maxPauseMSec: s.maxPauseMSec,
      meanPauseMSec: s.meanPauseMSec,
      pauseP50MSec: s.pauseP50MSec,
      pauseP90MSec: s.pauseP90MSec,
      pauseP99MSec: s.pauseP99MSec,
      pauseTimePercentage: s.pauseTimePercentage,
      processDurationMSec: s.processDurationMSec,
      totalAllocatedMB: s.allocatedMB,
      maxHeapSizeMB: s.peakHeapMB,
      traceDurationMSec: src.firstEventMSec === null || src.lastEventMSec === null ? null : src.lastEventMSec - src.firstEventMSec,
      maxSuspendMSec: s.maxSuspendMSec,
      suspendPercentOfPause: s.suspendPercentOfPause,
    },
    generations: [r.all, ...r.generations],
    memory: memoryHeadroom(
      { number: columns.number, heapAfter: columns.heapAfter, committed: columns.committed, memoryLoad: columns.memoryLoad },
      src.serverGc?.settings ?? null,
    ),
    serverGc: reportServerGc(columns, src.serverGc, src.serverGc?.serverGc ?? src.process.gcMode?.startsWith('server') === true),
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
export function describeCounts(rep: Pick<GcReport, 'summary' | 'quality'>): string {
  const s = rep.summary;
  // The kinds after a semicolon: induced GCs are of any generation, so "17 gen2 (4 induced)" read
  // as four induced gen2s. Incomplete GCs have no generation counted: said, so the sum adds up.
  const kinds: string[] = [];
  if (s.backgroundGCs > 0) kinds.push(`${formatInt(s.backgroundGCs)} background`);
  if (s.foregroundGCs > 0) kinds.push(`${formatInt(s.foregroundGCs)} foreground`);
  if (s.inducedGCs > 0) kinds.push(`${formatInt(s.inducedGCs)} induced`);
  const incomplete = rep.quality.incompleteGCs > 0 ? `, ${formatInt(rep.quality.incompleteGCs)} incomplete` : '';
  const [g0, g1, g2] = s.countByGeneration.map(formatInt);
  return `${g0} gen0, ${g1} gen1, ${g2} gen2${incomplete}${kinds.length > 0 ? `; ${kinds.join(', ')}` : ''}`;
}

export { gcReasonName };
