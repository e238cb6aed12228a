/**
 * Where a report's data comes from: a trace file analysed in memory (`report FILE`), or a stored
 * session (`report --session ID`). Both produce the same GcReport.
 */
import { buildReport, type GcReport, type ReportSourceInfo } from '../report/model.js';
import { describeProcess, gcModeLabel } from '../gc/process-info.js';
import { toGcRecord } from '../gc/to-record.js';
import type { GcRecord } from '../shared/gc-record.js';
import type { SessionInfo } from '../shared/session.js';
import type { Database } from '../store/db.js';
import { getGcRecords, getPerHeapSurvivedMB } from '../store/gc-store.js';
import { getSession } from '../store/sessions.js';
import { analyzeTraceFile } from './analyze-file.js';
import { buildServerGcData, dynamicEventRecords } from '../gc/server-gc.js';
import { memorySettingsOf, runtimeMajorOf } from '../shared/server-gc.js';
import { serverGcOfSession } from './server-gc-source.js';
import { getPerHeapPromotedMB } from '../store/server-gc-store.js';
import type { ReadProgress } from './trace-file.js';

/** What a report is built from: the source's facts and its GCs. */
export interface ReportInput {
  src: ReportSourceInfo;
  gcs: GcRecord[];
}

export async function reportFromFile(path: string, onProgress?: (p: ReadProgress) => void): Promise<GcReport> {
  const r = await reportInputFromFile(path, onProgress);
  return buildReport(r.src, r.gcs);
}

export async function reportInputFromFile(path: string, onProgress?: (p: ReadProgress) => void): Promise<ReportInput> {
  const a = await analyzeTraceFile(path, { onProgress });
  const { analyzer, reader, trace } = a;
  const proc = describeProcess(analyzer, a);
  const gcs = analyzer.gcs.filter((g) => g !== undefined);
  const byNumber = new Map(gcs.map((g) => [g.number, g.heapCount > 0 ? g.heapCount : null]));
  const serverGc = buildServerGcData({
    events: dynamicEventRecords(gcs, analyzer.prepPauses),
    heapCountOf: (n) => byNumber.get(n) ?? null,
    serverGc: proc.gcMode === 'server',
    gcMode: gcModeLabel(proc),
    runtimeMajor: runtimeMajorOf(proc.runtimeVersion),
    settings: memorySettingsOf(proc.gcSettings as unknown as Record<string, unknown> | null),
    rawDynamicEvents: analyzer.counters.rawDynamicEvents,
  });
  const src: ReportSourceInfo = {
    trace: {
      format: reader.formatName,
      formatVersion: trace?.formatVersion ?? null,
      pointerSize: trace?.pointerSize ?? null,
      qpcFrequency: trace?.qpcFrequency ?? null,
      startTimeUtc: trace?.syncTimeUtc ?? null,
      processId: trace?.processId ?? null,
      cpuCount: trace?.numberOfProcessors ?? null,
      source: path,
    },
    process: {
      pid: trace?.processId ?? null,
      name: proc.processName,
      commandLine: proc.commandLine,
      runtimeVersion: proc.runtimeVersion,
      os: proc.os,
      arch: proc.arch,
      gcMode: gcModeLabel(proc),
      concurrent: proc.concurrent,
      heapCount: proc.heapCount,
    },
    droppedEvents: reader.droppedEvents,
    truncated: a.failure !== undefined || reader.state === 'truncated',
    statusReason: (a.failure ?? reader.error)?.message ?? null,
    lastHeapStatsMSec: analyzer.lastRestartEndTimeRelativeMSec,
    ...analyzer.eventSpan(),
    hasPerHeapHistory: a.hasPerHeapHistory,
    hasAllocTicks: analyzer.hasAllocTickEvents,
    hasPinEvents: a.hasPinEvents,
    nonGCSuspensions: analyzer.counters.nonGCSuspensions,
    serverGc,
  };
  // Promoted MB per heap (GCMarkWithType), by the GC's row: what the store keeps per heap.
  const perHeap = new Map<number, number[]>();
  gcs.forEach((g, row) => {
    const heaps = (g.markByHeap ?? []).filter((h) => h !== undefined);
    if (heaps.length > 0) perHeap.set(row, heaps.map((h) => h.bytes.reduce((s, b) => s + (b ?? 0), 0) / 1e6));
  });
  if (perHeap.size > 0) src.perHeapPromotedMB = perHeap;
  // What survived on each heap (GCPerHeapHistory): the heap-imbalance rule's stand-in when the
  // trace has no per-heap mark events.
  const survived = new Map<number, number[][]>();
  for (const g of gcs) if (g.perHeapHistories.length >= 2) survived.set(g.index, g.perHeapHistories.map((h) => h.generations.map((x) => (x.pinnedSurv + x.nonePinnedSurv) / 1e6)));
  if (a.hasPerHeapHistory) src.perHeapSurvivedMB = survived;
  return { src, gcs: gcs.map(toGcRecord) };
}

export async function reportFromSession(db: Database, sessionId: number): Promise<GcReport> {
  const r = await reportInputFromSession(db, sessionId);
  return buildReport(r.src, r.gcs);
}

export async function reportInputFromSession(db: Database, sessionId: number): Promise<ReportInput> {
  const s = await getSession(db, sessionId);
  const [serverGc, perHeapPromotedMB] = await Promise.all([serverGcOfSession(db, s), getPerHeapPromotedMB(db, sessionId)]);
  const src: ReportSourceInfo = { ...reportSourceOfSession(s), serverGc, ...(perHeapPromotedMB.size > 0 ? { perHeapPromotedMB } : {}) };
  if (s.hasPerHeapHistory && ((s.heapCount ?? 0) > 1 || s.gcMode === 'server')) src.perHeapSurvivedMB = await getPerHeapSurvivedMB(db, sessionId);
  return { src, gcs: await getGcRecords(db, sessionId) };
}

/** What a stored session's row says for its report (everything but the GCs). */
export function reportSourceOfSession(s: SessionInfo): ReportSourceInfo {
  return {
    trace: {
      format: s.format,
      formatVersion: null,
      pointerSize: s.pointerSize,
      qpcFrequency: s.qpcFrequency,
      startTimeUtc: s.traceStartUtc,
      processId: s.processId,
      cpuCount: s.cpuCount,
      source: s.tracePath,
    },
    process: {
      pid: s.processId,
      name: s.processName,
      commandLine: s.commandLine,
      runtimeVersion: s.runtimeVersion,
      os: s.os,
      arch: s.arch,
      gcMode: s.gcMode,
      concurrent: s.concurrent,
      heapCount: s.heapCount,
    },
    droppedEvents: s.droppedEvents,
    truncated: s.status === 'incomplete' || s.status === 'interrupted',
    statusReason: s.statusReason,
    lastHeapStatsMSec: s.lastHeapStatsMSec ?? 0,
    firstEventMSec: s.firstEventMSec,
    lastEventMSec: s.lastEventMSec,
    hasPerHeapHistory: s.hasPerHeapHistory,
    hasAllocTicks: s.hasAllocTicks,
    hasPinEvents: s.hasPinEvents,
    nonGCSuspensions: s.nonGCSuspensions,
  };
}
