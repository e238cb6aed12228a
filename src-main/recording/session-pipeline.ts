/**
 * reader → decoder → analyzer → store, for one session. The importer drives it from a file and
 * the live recorder from a diagnostics socket: both feed the reader's callbacks and call
 * `flush()` now and then; `finish()` settles the session's final state.
 *
 * Memory stays bounded by the working set, not the trace: GC rows go to the database as they
 * complete, the analyzer forgets GCs once they are stored and out of the window its metrics
 * read, and allocation ticks are aggregated per type.
 */
import { GCAnalyzer } from '../gc/gc-analyzer.js';
import { TraceFacts } from '../gc/trace-facts.js';
import { describeProcess, gcModeLabel, type ProcessDescription } from '../gc/process-info.js';
import { completedRows, type Rollup } from '../gc/rollup.js';
import { summarize } from '../gc/summary.js';
import { toGcRecord } from '../gc/to-record.js';
import { GCType, type TraceGC } from '../gc/trace-gc.js';
import { allocationTickTypeName, readAllocationTick, RUNTIME, RuntimeEvent } from '../clr/gc-events.js';
import type { NettraceError } from '../nettrace/errors.js';
import type { ReaderHandlers } from '../nettrace/reader.js';
import type { TraceEventRecord, TraceInfo } from '../nettrace/types.js';
import { GcColumnBuilder, type GcColumns } from '../shared/gc-column-registry.js';
import type { GcRecord } from '../shared/gc-record.js';
import type { SessionStatus } from '../shared/session.js';
import type { Database } from '../store/db.js';
import { GcWriter, writeAllocTypes, type AllocTypeTotal } from '../store/gc-store.js';
import { updateSession } from '../store/sessions.js';
import { dynamicEventRow, INSERT_DYNAMIC_EVENT, PREP_PAUSE_NAME, setRawDynamicEventCounts, type DynamicEventRow } from '../store/server-gc-store.js';

/** GCs kept in memory behind the newest completed one (metrics read the previous GC; a BGC the GCs during it). */
const WINDOW = 64;

export interface PipelineSummary {
  status: SessionStatus;
  statusReason: string | null;
  trace: TraceInfo | undefined;
  process: ProcessDescription;
  rollup: Rollup;
  gcCount: number;
  eventCount: number;
  droppedEvents: number;
  peakHeapMB: number | null;
  /** The session's view columns as stored (for summaries without reading the rows back). */
  columns: GcColumns;
  /** Some GC has CommittedUsage (decides whether the report calls committed memory unavailable). */
  anyCommittedUsage: boolean;
}

export interface PipelineCallbacks {
  /** A GC was stored (live views). */
  onGC?(r: GcRecord): void;
}

export class SessionPipeline {
  readonly analyzer: GCAnalyzer;
  readonly writer: GcWriter;
  trace: TraceInfo | undefined;
  private readonly facts = new TraceFacts();
  /** AllocationTick totals keyed by TypeID (a MethodTable address) × 4 + kind. */
  private readonly allocTypes = new Map<number, AllocTypeTotal>();
  /** The session's view columns, kept as GCs are stored: the summary and the column snapshot are built from them, not read back. */
  private readonly built = new GcColumnBuilder();
  private anyCommittedUsage = false;
  private newestCompleted = -1;
  private headerWrite: Promise<void> = Promise.resolve();
  private describedMode = false;
  private describedConcurrent = false;
  /** DATAS events and heap-count change pauses stored so far (store/server-gc-store.ts numbers them). */
  private dynamicEventsStored = 0;
  private prepPausesStored = 0;

  constructor(
    private readonly db: Database,
    readonly sessionId: number,
    private readonly callbacks: PipelineCallbacks = {},
  ) {
    this.writer = new GcWriter(db, sessionId);
    this.analyzer = new GCAnalyzer({
      onGCEnd: (gc) => this.onGCEnd(gc),
      onGCUpdated: (gc) => this.store(toGcRecord(gc)),
    });
  }

  readonly handlers: ReaderHandlers = {
    onTrace: (t) => {
      this.trace = t;
      this.analyzer.setTrace(t);
      this.headerWrite = updateSession(this.db, this.sessionId, {
        format: `${t.format} V${t.formatVersion}`,
        traceStartUtc: t.syncTimeUtc,
        qpcFrequency: t.qpcFrequency,
        syncTimeQpc: t.syncTimeQpc,
        pointerSize: t.pointerSize,
        processId: t.processId,
        cpuCount: t.numberOfProcessors,
      });
    },
    onEvent: (e) => this.onEvent(e),
  };

  private onEvent(e: TraceEventRecord): void {
    const md = e.metadata;
    if (md.provider === RUNTIME && md.eventId === RuntimeEvent.GCAllocationTick && md.version >= 2) this.countAllocationTick(e);
    if (!this.facts.onEvent(e)) this.analyzer.onEvent(e);
  }

  /**
   * AllocationTick V2+: totals per type. Keyed by the TypeID pointer, so the type name (a UTF-16
   * string) is decoded only the first time a type is seen.
   */
  private countAllocationTick(e: TraceEventRecord): void {
    const tick = readAllocationTick(e, this.trace?.pointerSize ?? 8);
    if (tick === undefined || tick.typeId === undefined) return;
    const key = tick.typeId * 4 + (tick.kind & 3);
    let t = this.allocTypes.get(key);
    if (t === undefined) {
      if (this.allocTypes.size >= 20000) return; // bounded: a pathological trace cannot grow this without limit
      t = { typeName: allocationTickTypeName(e, this.trace?.pointerSize ?? 8) ?? '(unknown type)', kind: tick.kind, ticks: 0, bytes: 0 };
      this.allocTypes.set(key, t);
    }
    t.ticks++;
    t.bytes += tick.amount;
  }

  /** Queues a GC's row (a later one for the same GC replaces it) and keeps its columns. */
  private store(r: GcRecord): void {
    this.writer.add(r);
    this.built.set(r);
    if (r.committedInUseBeforeMB !== null) this.anyCommittedUsage = true;
  }

  /** The view columns of every GC stored so far (views valid until the next GC is stored). */
  columns(): GcColumns {
    return this.built.columns();
  }

  private onGCEnd(gc: TraceGC): void {
    const r = toGcRecord(gc);
    this.store(r);
    if (gc.perHeapHistories.length > 0) this.writer.addHeaps(gc.index, gc.perHeapHistories, gc.markByHeap);
    this.storeDynamicEvents(gc);
    this.newestCompleted = Math.max(this.newestCompleted, gc.index);
    this.callbacks.onGC?.(r);
    // While recording, say what GC the process runs as soon as it shows: workstation or server
    // from the first GC's heap count, concurrent from the first background GC. (The rundown at the
    // end confirms both.)
    const bgc = gc.type === GCType.Background;
    if (!this.describedMode || (bgc && !this.describedConcurrent)) {
      this.describedMode = true;
      if (bgc) this.describedConcurrent = true;
      const p = describeProcess(this.analyzer, this.facts);
      this.headerWrite = this.headerWrite
        .then(() => updateSession(this.db, this.sessionId, { gcMode: gcModeLabel(p), heapCount: p.heapCount, ...(p.concurrent === null ? {} : { concurrent: p.concurrent }) }))
        .catch(() => undefined);
    }
  }

  private storeDynamicEvents(gc: TraceGC): void {
    for (const { timeMSec, ...d } of gc.dynamicEvents) {
      this.addDynamicEvent({ gcIndex: gc.index, gcNumber: gc.number, timeMSec, name: d.name === 'Raw' ? d.eventName : d.name, data: d });
    }
  }

  private addDynamicEvent(r: DynamicEventRow): void {
    this.writer.addRow(INSERT_DYNAMIC_EVENT, dynamicEventRow(this.sessionId, this.dynamicEventsStored++, r));
  }

  private storePrepPauses(): void {
    const p = this.analyzer.prepPauses;
    for (; this.prepPausesStored < p.length; this.prepPausesStored++) {
      const x = p[this.prepPausesStored]!;
      this.addDynamicEvent({ gcIndex: null, gcNumber: x.afterGCNumber, timeMSec: x.startMSec, name: PREP_PAUSE_NAME, data: { durationMSec: x.durationMSec } });
    }
  }

  /** Stores what is queued and lets the analyzer forget stored GCs outside its window. */
  flush(): Promise<void> {
    this.storePrepPauses();
    const p = this.writer.flush();
    if (this.newestCompleted > WINDOW) this.analyzer.release(this.newestCompleted - WINDOW);
    return p;
  }

  /**
   * Settles the session: recomputes late-changing metrics, stores incomplete GCs (flagged),
   * allocation totals and the session's final state.
   */
  async finish(
    readerState: 'complete' | 'truncated' | 'failed',
    readerError: NettraceError | undefined,
    counts: { events: number; dropped: number },
    outcome?: { status: SessionStatus; reason: string | null },
  ): Promise<PipelineSummary> {
    for (const gc of this.analyzer.finish()) this.store(toGcRecord(gc));
    for (const gc of this.analyzer.incompleteGCs()) {
      this.store(toGcRecord(gc));
      this.storeDynamicEvents(gc);
    }
    this.storePrepPauses();
    await this.writer.close();
    await this.headerWrite;
    // Several TypeIDs can carry one name (collectible types reloaded): merge by name and kind.
    const byName = new Map<string, AllocTypeTotal>();
    for (const t of this.allocTypes.values()) {
      const k = `${t.kind}\u0000${t.typeName}`;
      const m = byName.get(k);
      if (m === undefined) byName.set(k, { ...t });
      else {
        m.ticks += t.ticks;
        m.bytes += t.bytes;
      }
    }
    await writeAllocTypes(this.db, this.sessionId, byName.values());
    const process = describeProcess(this.analyzer, this.facts);
    const status: SessionStatus = outcome?.status ?? (readerState === 'complete' ? 'complete' : 'incomplete');
    const statusReason = outcome !== undefined ? outcome.reason : readerError === undefined ? null : readerError.message;
    const a = this.analyzer;
    await updateSession(this.db, this.sessionId, {
      status,
      statusReason,
      processName: process.processName,
      commandLine: process.commandLine,
      // RuntimeInformation comes with the rundown at the end of a session, so a trace cut short
      // (target or recorder killed) has none: keep the version ProcessInfo gave the live recorder.
      ...(process.runtimeVersion !== null ? { runtimeVersion: process.runtimeVersion } : {}),
      os: process.os,
      arch: process.arch,
      gcMode: gcModeLabel(process),
      concurrent: process.concurrent === null ? null : process.concurrent,
      heapCount: process.heapCount,
      gcSettings: process.gcSettings === null ? null : JSON.stringify(process.gcSettings),
      eventCount: counts.events,
      droppedEvents: counts.dropped,
      ...a.eventSpan(),
      lastHeapStatsMSec: a.lastRestartEndTimeRelativeMSec,
      hasPerHeapHistory: this.facts.hasPerHeapHistory,
      hasAllocTicks: a.hasAllocTickEvents,
      hasPinEvents: this.facts.hasPinEvents,
      nonGCSuspensions: a.counters.nonGCSuspensions,
      undecodableEvents: a.counters.undecodableEvents,
      recorderPid: null,
    });
    // After the session's final state, so nothing delays a viewer seeing the recording end.
    await setRawDynamicEventCounts(this.db, this.sessionId, this.analyzer.counters.rawDynamicEvents);
    const columns = this.columns();
    const rows = completedRows(columns);
    const incomplete = a.incompleteGCs().length;
    const { summary, rollup } = summarize(columns, rows, { lastHeapStatsMSec: a.lastRestartEndTimeRelativeMSec, incompleteCount: incomplete });
    return {
      status,
      statusReason,
      trace: this.trace,
      process,
      rollup,
      gcCount: rows.length + incomplete,
      eventCount: counts.events,
      droppedEvents: counts.dropped,
      peakHeapMB: summary.peakHeapMB,
      columns,
      anyCommittedUsage: this.anyCommittedUsage,
    };
  }
}

