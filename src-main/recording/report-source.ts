/**
 * Where a report's data comes from: a trace file analysed in memory (`report FILE`), or a stored
 * session (`report --session ID`). Both produce the same GcReport.
 */
import { buildReport, type GcReport, type ReportSourceInfo } from '../report/model.js';
import { describeProcess, gcModeLabel } from '../gc/process-info.js';
import { toGcRecord } from '../gc/to-record.js';
import type { TraceGC } from '../gc/trace-gc.js';
import type { GcRecord } from '../shared/gc-record.js';
import type { PinnedTypeCount } from '../shared/finding.js';
import { GcRecordTable } from '../common/gc-record-table.js';
import { GcColumnBuilder, type GcColumns } from '../shared/gc-column-registry.js';
import { requireGcSession, type SessionInfo } from '../shared/session.js';
import type { Database } from '../store/db.js';
import { getGcRecordTable, getPerHeapSurvivedMB } from '../store/gc-store.js';
import { getSession } from '../store/sessions.js';
import { snapshotGcNumbersOfRecording } from '../store/heap-snapshots.js';
import { analyzeTraceFile } from './analyze-file.js';
import { whoCausedIt, type MsecRange } from '../symbols/allocations.js';
import { loadStackData } from '../store/stack-store.js';
import { buildServerGcData, dynamicEventRecords } from '../gc/server-gc.js';
import { memorySettingsOf, runtimeMajorOf } from '../shared/server-gc.js';
import { serverGcOfSession } from './server-gc-source.js';
import { getPerHeapPromotedMB } from '../store/server-gc-store.js';
import { getPauseIntervals, getRequestSpans } from '../store/request-store.js';
import type { ReadProgress } from './trace-file.js';

/** What a report is built from: the source's facts and its GCs. */
export interface ReportInput {
  src: ReportSourceInfo;
  gcs: readonly GcRecord[];
  /** The view columns of `gcs`, when the source built them as it went (a trace file's analysis). */
  columns?: GcColumns;
  /** Whether some GC of `gcs` has CommittedUsage, when the source knows it. */
  anyCommittedUsage?: boolean;
}

/** buildReport of a ReportInput, with the columns it already holds. */
export function buildReportOf(r: ReportInput): GcReport {
  return buildReport(r.src, r.gcs, {
    ...(r.columns !== undefined ? { columns: r.columns } : {}),
    ...(r.anyCommittedUsage !== undefined ? { anyCommittedUsage: r.anyCommittedUsage } : {}),
  });
}

/** Which trace of a file: a zip's entry, a machine-wide trace's process (trace-processes.ts chooses it). */
export interface TraceSelection {
  /** A zip's entry by name (`--entry`). */
  entry?: string;
  /** A machine-wide trace's process (`--pid`). */
  processId?: number;
}

export async function reportFromFile(
  path: string,
  onProgress?: (p: ReadProgress) => void,
  opts: { stacks?: boolean } & TraceSelection = {},
): Promise<GcReport> {
  return buildReportOf(await reportInputFromFile(path, onProgress, opts));
}

/**
 * `stacks` (default true): also read call stacks, method events and allocation samples, for the
 * report's "allocations" and "triggers" and the findings' stack evidence. Off, a trace with a
 * large method rundown (100,000 methods) reads ~20 % faster and holds ~40 MB less.
 * `range`: the allocation evidence (`whoCausedIt`) covers only the samples in it, as a
 * diagnosis of that range needs (`gcscope diagnose --range`).
 */
export async function reportInputFromFile(
  path: string,
  onProgress?: (p: ReadProgress) => void,
  opts: { stacks?: boolean; range?: MsecRange } & TraceSelection = {},
): Promise<ReportInput> {
  // Allocation samples aggregated per stack, type and kind when the report covers the whole
  // trace: memory bounded by distinct stacks, not by the number of samples. A range needs each
  // sample's time, so then they are kept one by one.
  // What the report needs of each GC is taken as it completes (and again if a later event
  // changes it); the analyzer then forgets GCs outside its window, so a report's memory grows with
  // its rows, not with every GC's histories (a 1 GB trace held 700 MB of TraceGCs).
  const taken: TakenGC[] = [];
  // The rows themselves compactly (gc-record-table.ts): a 1 GB trace has 64,000 of them.
  const rows = new GcRecordTable();
  // The report's view columns and committed-usage flag, kept from each record as it is made
  // (reading them back from the rows built every record again: ~15 % of a 6,000-GC report).
  const built = new GcColumnBuilder();
  const committed: boolean[] = [];
  const take = (g: TraceGC): void => {
    taken[g.index] = takeGC(g);
    const r = toGcRecord(g);
    rows.set(g.index, r);
    built.set(r, g.index);
    committed[g.index] = r.committedInUseBeforeMB !== null;
  };
  const a = await analyzeTraceFile(path, {
    onProgress,
    ...(opts.entry !== undefined ? { entry: opts.entry } : {}),
    ...(opts.processId !== undefined ? { processId: opts.processId } : {}),
    onGC: take,
    window: ANALYZER_WINDOW,
    stacks: opts.stacks !== false,
    stackOptions: { aggregate: opts.range === undefined },
  });
  const { analyzer, reader, trace } = a;
  // The GCs still held: their metrics as finish() recomputed them, and the incomplete ones.
  for (const g of analyzer.gcs) if (g !== undefined) take(g);
  const proc = describeProcess(analyzer, a);
  const gcs = taken.filter((g) => g !== undefined);
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
    statusReason: (a.failure ?? reader.error)?.message ?? analyzer.implausibleReason(),
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
    if (g.promotedMBByHeap !== undefined) perHeap.set(row, g.promotedMBByHeap);
  });
  if (perHeap.size > 0) src.perHeapPromotedMB = perHeap;
  const survived = new Map<number, number[][]>();
  for (const g of gcs) if (g.survivedMBByHeap !== undefined) survived.set(g.index, g.survivedMBByHeap);
  if (a.hasPerHeapHistory) src.perHeapSurvivedMB = survived;
  const pinned = new Map<number, PinnedTypeCount[]>();
  for (const g of gcs) if (g.pinnedTypes !== undefined && g.pinnedTypes.length > 0) pinned.set(g.number, g.pinnedTypes);
  if (pinned.size > 0) src.pinnedTypes = pinned;
  const req = a.requestSpans;
  if (req !== undefined && req.spans.length > 0) src.requests = { spans: req.spans, pauses: req.pauses };
  const ev = a.stackEvents;
  if (ev !== undefined && (ev.tickCount > 0 || ev.triggers.length > 0)) {
    src.whoCausedIt = whoCausedIt(
      ev,
      gcs.map((g) => ({ number: g.number, startMSec: g.startMSec })),
      opts.range,
    );
  }
  // Every row set (always, unless the analyzer released a GC it never completed): the columns
  // are those of the rows; otherwise the report reads them from the rows.
  let complete = committed.length === rows.length;
  for (let i = 0; complete && i < committed.length; i++) if (committed[i] === undefined) complete = false;
  return { src, gcs: rows.asArray(), ...(complete ? { columns: built.columns(), anyCommittedUsage: committed.includes(true) } : {}) };
}

/** GCs the analyzer keeps behind the newest completed one (as the import pipeline does). */
const ANALYZER_WINDOW = 64;

/** What a report keeps of one GC once the analyzer may forget it. */
interface TakenGC {
  index: number;
  number: number;
  /** GCStart (ms since sync): where a GC's allocations end and its trigger stack is found. */
  startMSec: number;
  heapCount: number;
  dynamicEvents: TraceGC['dynamicEvents'];
  /** Promoted MB per heap (GCMarkWithType), when the GC has mark events. */
  promotedMBByHeap: number[] | undefined;
  /** What survived on each heap by generation (GCPerHeapHistory, 2+ heaps): the heap-imbalance rule's stand-in when the trace has no per-heap mark events. */
  survivedMBByHeap: number[][] | undefined;
  /** The objects pinned in it, by type (PinObjectAtGCTime). */
  pinnedTypes: PinnedTypeCount[] | undefined;
}

const NO_DYNAMIC_EVENTS: TraceGC['dynamicEvents'] = [];

function takeGC(g: TraceGC): TakenGC {
  const heaps = (g.markByHeap ?? []).filter((h) => h !== undefined);
  return {
    index: g.index,
    number: g.number,
    startMSec: g.startRelativeMSec,
    heapCount: g.heapCount,
    dynamicEvents: g.dynamicEvents.length > 0 ? g.dynamicEvents : NO_DYNAMIC_EVENTS,
    promotedMBByHeap: heaps.length > 0 ? heaps.map((h) => h.bytes.reduce((s, b) => s + (b ?? 0), 0) / 1e6) : undefined,
    pinnedTypes: g.pinnedTypes,
    survivedMBByHeap:
      g.perHeapHistories.length >= 2 ? g.perHeapHistories.map((h) => h.generations.map((x) => (x.pinnedSurv + x.nonePinnedSurv) / 1e6)) : undefined,
  };
}

export async function reportFromSession(db: Database, sessionId: number): Promise<GcReport> {
  return buildReportOf(await reportInputFromSession(db, sessionId));
}

/**
 * `range`: as reportInputFromFile's. `stacks` (default true): as for a file, also read the
 * session's allocation samples and triggers with their stacks; off (`log`, `--no-stacks`), a
 * gc-verbose session's samples — most of its database — are not read at all.
 */
export async function reportInputFromSession(db: Database, sessionId: number, range?: MsecRange, opts: { stacks?: boolean } = {}): Promise<ReportInput> {
  // A report is of GCs: a session of another kind is refused (SessionKindError), not reported empty.
  const s = requireGcSession(await getSession(db, sessionId));
  const [serverGc, perHeapPromotedMB] = await Promise.all([serverGcOfSession(db, s), getPerHeapPromotedMB(db, sessionId)]);
  const src: ReportSourceInfo = { ...reportSourceOfSession(s), serverGc, ...(perHeapPromotedMB.size > 0 ? { perHeapPromotedMB } : {}) };
  if (s.hasPerHeapHistory && ((s.heapCount ?? 0) > 1 || s.gcMode?.startsWith('server') === true))
    src.perHeapSurvivedMB = await getPerHeapSurvivedMB(db, sessionId);
  const [spans, pauses, snapshotGcNumbers] = await Promise.all([
    getRequestSpans(db, sessionId),
    getPauseIntervals(db, sessionId),
    snapshotGcNumbersOfRecording(db, sessionId),
  ]);
  if (spans.length > 0) src.requests = { spans, pauses };
  if (snapshotGcNumbers.length > 0) src.snapshotGcNumbers = snapshotGcNumbers;
  // As for a file: samples summed per stack, type and kind unless a range needs their times.
  const [table, stacks] = await Promise.all([
    getGcRecordTable(db, sessionId),
    opts.stacks === false ? undefined : loadStackData(db, sessionId, { aggregate: range === undefined }),
  ]);
  const gcs = table.asArray();
  if (stacks !== undefined && (stacks.tickCount > 0 || stacks.triggers.length > 0)) {
    src.whoCausedIt = whoCausedIt(
      stacks,
      gcs.map((g) => ({ number: g.number, startMSec: g.startRelativeMSec })),
      range,
    );
  }
  return { src, gcs };
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
