/**
 * trace analysis → store, for one session. The importer drives it from a file and the live
 * recorder from a diagnostics socket: both push the stream's bytes into `reader` and call
 * `flush()` now and then; `finish()` settles the session's final state from what the analysis
 * and its reader know, and writes the session's column snapshot when it is large.
 *
 * Memory stays bounded by the working set, not the trace: GC rows go to the database as they
 * complete, the analysis forgets GCs once they are stored and out of the window its metrics
 * read, and allocation samples are written in chunks as they come.
 */
import type { GCAnalyzer } from '../gc/gc-analyzer.js';
import { describeProcess, gcModeLabel, type ProcessDescription } from '../gc/process-info.js';
import { completedRows, type Rollup } from '../gc/rollup.js';
import { summarize } from '../gc/summary.js';
import { toGcRecord } from '../gc/to-record.js';
import { GCType, type TraceGC } from '../gc/trace-gc.js';
import type { TraceInfo } from '../trace/model.js';
import type { TraceReader, TraceReaderHandlers } from '../trace/reader.js';
import { GcColumnBuilder, type GcColumns } from '../shared/gc-column-registry.js';
import type { GcRecord } from '../shared/gc-record.js';
import type { SessionStatus } from '../shared/session.js';
import type { Database } from '../store/db.js';
import { SNAPSHOT_AT_IMPORT_MIN_GCS, sqlNamedColumns, writeColumnSnapshot } from '../store/gc-columns.js';
import { GcWriter, INSERT_PINNED_TYPE, PINNED_TYPES_PER_GC, type BatchSink } from '../store/gc-store.js';
import { updateSession } from '../store/sessions.js';
import {
  frameRow,
  INSERT_FRAME,
  INSERT_STACK,
  INSERT_TICK_CHUNK,
  INSERT_TICK_TYPE,
  INSERT_TRIGGER,
  setStackInfo,
  stackBlob,
  tickChunk,
  TICKS_RAW,
} from '../store/stack-store.js';
import type { StackEvents, StackEventsOptions } from '../symbols/stack-events.js';
import { dynamicEventRow, INSERT_DYNAMIC_EVENT, PREP_PAUSE_NAME, setRawDynamicEventCounts, type DynamicEventRow } from '../store/server-gc-store.js';
import { INSERT_PAUSE_INTERVAL, INSERT_REQUEST_SPAN, pauseIntervalRow, requestSpanRow } from '../store/request-store.js';
import { RequestSpanCollector, type PauseInterval, type RequestSpan } from '../requests/spans.js';
import type { RequestSource } from '../requests/sources.js';
import { TraceAnalysis } from './trace-analysis.js';

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
  /**
   * A GC already passed to onGC was stored again with changed values: its finalizers, LOH
   * allocation waits, or metrics that read a GC completed after it (e.g. the allocation since the
   * previous GC, once a background GC before it has ended). At the end, also each GC stored
   * incomplete (never passed to onGC).
   */
  onGCUpdated?(r: GcRecord): void;
  /** Request spans and GC pause intervals were stored (issue 42): those completed since the last call, in the order they ended (live views). */
  onRequestSpans?(spans: RequestSpan[], pauses: PauseInterval[]): void;
}

export interface PipelineOptions {
  /** Where GC rows are written (default: this connection; the importer may hand them to a writer thread). */
  sink?: BatchSink;
  /** How stacks are collected (the importer of a plain trace file leaves method names in the file). */
  stackOptions?: StackEventsOptions;
  /** The reader passes one refilled record to every event (nothing here keeps one). */
  reuseRecords?: boolean;
  /** Each container block the reader finishes (the flight recorder's ring). */
  onBlock?: TraceReaderHandlers['onBlock'];
  /** Write the column snapshot at the end when the session has at least this many GCs (default SNAPSHOT_AT_IMPORT_MIN_GCS). */
  snapshotMinGcs?: number;
  /**
   * The process the session is about, kept instead of the trace header's PID. A machine-wide trace
   * (ETW) delivers only its events (TraceReaderOptions.processId); a live recording passes its
   * target as the host sees it (the header carries the runtime's own PID, 1 in a container), which
   * a one-process reader ignores as a filter.
   */
  processId?: number;
  /** Request sources named explicitly (`record --requests Provider/Start/Stop`): their events pair whatever their opcodes. */
  requestSources?: readonly RequestSource[];
}

export class SessionPipeline {
  /** The one trace analysis: reader, facts, GC analyzer, stacks. */
  readonly analysis: TraceAnalysis;
  readonly writer: GcWriter;
  /** The session's view columns, kept as GCs are stored: the summary and the column snapshot are built from them, not read back. */
  private readonly built = new GcColumnBuilder();
  private anyCommittedUsage = false;
  private headerWrite: Promise<void> = Promise.resolve();
  private describedMode = false;
  private describedConcurrent = false;
  /** DATAS events and heap-count change pauses stored so far (store/server-gc-store.ts numbers them). */
  private dynamicEventsStored = 0;
  private prepPausesStored = 0;
  private stored = { frames: 0, stacks: 0, types: 0, tickChunks: 0, triggers: 0, requests: 0, pauses: 0 };
  /** The registered request-span consumer of this analysis (requests/spans.ts), whose spans are stored as they complete. */
  private readonly requestSpans: RequestSpanCollector | undefined;

  private readonly snapshotMinGcs: number;
  private readonly processId: number | undefined;

  constructor(
    private readonly db: Database,
    readonly sessionId: number,
    private readonly callbacks: PipelineCallbacks = {},
    options: PipelineOptions = {},
  ) {
    this.writer = new GcWriter(db, sessionId, options.sink);
    this.snapshotMinGcs = options.snapshotMinGcs ?? SNAPSHOT_AT_IMPORT_MIN_GCS;
    this.processId = options.processId;
    this.analysis = new TraceAnalysis({
      gc: {
        onGCEnd: (gc) => this.onGCEnd(gc),
        onGCUpdated: (gc) => {
          const r = toGcRecord(gc);
          this.store(r);
          this.callbacks.onGCUpdated?.(r);
        },
      },
      // Call stacks and allocation samples (issue 14), written as they come (store/stack-store.ts).
      stacks: options.stackOptions ?? {},
      window: WINDOW,
      reader: { reuseRecords: options.reuseRecords === true, ...(options.processId !== undefined ? { processId: options.processId } : {}) },
      ...(options.onBlock !== undefined ? { onBlock: options.onBlock } : {}),
      consumers: [{ onTrace: (t) => this.onTrace(t) }],
    });
    this.requestSpans = this.analysis.consumerOf(RequestSpanCollector);
    if (options.requestSources !== undefined) this.requestSpans?.addSources(options.requestSources);
  }

  /** Queues the request spans and GC pause intervals completed since the last call (store/request-store.ts). */
  private storeRequestSpans(): void {
    if (this.requestSpans === undefined) return;
    const { spans, pauses } = this.requestSpans.drain();
    const st = this.stored;
    for (const s of spans) this.writer.addRow(INSERT_REQUEST_SPAN, requestSpanRow(this.sessionId, st.requests++, s));
    for (const p of pauses) this.writer.addRow(INSERT_PAUSE_INTERVAL, pauseIntervalRow(this.sessionId, st.pauses++, p));
    if (spans.length > 0 || pauses.length > 0) this.callbacks.onRequestSpans?.(spans, pauses);
  }

  /** The reader the session's bytes are pushed into. */
  get reader(): TraceReader {
    return this.analysis.reader;
  }

  get analyzer(): GCAnalyzer {
    return this.analysis.analyzer;
  }

  get stackEvents(): StackEvents {
    return this.analysis.stackEvents!;
  }

  /** The trace's header, once read. */
  get trace(): TraceInfo | undefined {
    return this.analysis.trace;
  }

  private onTrace(t: TraceInfo): void {
    this.headerWrite = updateSession(this.db, this.sessionId, {
      format: `${t.format} V${t.formatVersion}`,
      traceStartUtc: t.syncTimeUtc,
      qpcFrequency: t.qpcFrequency,
      syncTimeQpc: t.syncTimeQpc,
      pointerSize: t.pointerSize,
      processId: this.processId ?? t.processId,
      cpuCount: t.numberOfProcessors,
    });
    // finish() awaits this write and reports its failure; until then it is handled here, or a
    // session deleted meanwhile (an import failing or cancelled after the header: the
    // importer deletes what it made) left an unhandled rejection, fatal in a long-lived process.
    this.headerWrite.catch(() => undefined);
  }

  /**
   * Queues the stacks, frames, types, samples and triggers seen since the last call. Frames carry
   * the method names known now; at the end (`final`) every frame is written again with the names
   * the rundown added. Written samples are dropped from memory.
   */
  private storeStacks(final: boolean): void {
    const ev = this.stackEvents;
    const id = this.sessionId;
    const w = this.writer;
    const st = this.stored;
    const addrs = ev.stacks.frameAddresses;
    for (let f = final ? 0 : st.frames; f < addrs.length; f++) w.addRow(INSERT_FRAME, frameRow(id, f, addrs[f]!, ev.frameName(f)));
    st.frames = addrs.length;
    const stacks = ev.stacks.stacks;
    for (let s = Math.max(1, st.stacks); s < stacks.length; s++) w.addRow(INSERT_STACK, [id, s, stackBlob(stacks[s]!)]);
    st.stacks = stacks.length;
    for (let t = st.types; t < ev.typeNames.length; t++) w.addRow(INSERT_TICK_TYPE, [id, t, ev.typeNames[t]!]);
    st.types = ev.typeNames.length;
    if (ev.tickCount > 0) {
      const blob = tickChunk(
        { time: ev.tickTime, amount: ev.tickAmount, objectSize: ev.tickObjectSize, type: ev.tickType, stack: ev.tickStack, kind: ev.tickKind },
        ev.tickCount,
      );
      // Deflated where the batch is written (writeBatch), off this thread when a writer thread takes it.
      w.addRow(INSERT_TICK_CHUNK, [id, st.tickChunks++, ev.tickCount, blob, TICKS_RAW]);
      ev.clearTicks();
    }
    for (; st.triggers < ev.triggers.length; st.triggers++) {
      const t = ev.triggers[st.triggers]!;
      w.addRow(INSERT_TRIGGER, [id, st.triggers, t.timeMSec, t.reason, t.threadId, t.stack]);
    }
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
    // Who is pinned (issue 39): the GC's pinned objects by type, the most pinned first.
    for (const t of gc.pinnedTypes?.slice(0, PINNED_TYPES_PER_GC) ?? [])
      this.writer.addRow(INSERT_PINNED_TYPE, [this.sessionId, gc.index, t.typeName, t.objects, t.bytes]);
    this.storeDynamicEvents(gc);
    this.callbacks.onGC?.(r);
    // While recording, say what GC the process runs as soon as it shows: workstation or server
    // from the first GC's heap count, concurrent from the first background GC. (The rundown at the
    // end confirms both.)
    const bgc = gc.type === GCType.Background;
    if (!this.describedMode || (bgc && !this.describedConcurrent)) {
      this.describedMode = true;
      if (bgc) this.describedConcurrent = true;
      const p = describeProcess(this.analyzer, this.analysis.facts);
      this.headerWrite = this.headerWrite
        .then(() =>
          updateSession(this.db, this.sessionId, {
            gcMode: gcModeLabel(p),
            heapCount: p.heapCount,
            ...(p.concurrent === null ? {} : { concurrent: p.concurrent }),
          }),
        )
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

  /** Stores what is queued (the analysis forgets stored GCs outside its window as it reads). */
  flush(): Promise<void> {
    this.analysis.flush();
    this.storePrepPauses();
    this.storeStacks(false);
    this.storeRequestSpans();
    return this.writer.flush();
  }

  /**
   * Settles the session once its stream has ended: the reader delivers what it still holds,
   * late-changing metrics are recomputed, incomplete GCs (flagged), the last samples and the
   * session's final state are stored — 'complete' when the reader read the whole stream, else
   * 'incomplete' with the reader's error as the reason, unless `outcome` says otherwise — and a
   * large session's column snapshot is written (store/gc-columns.ts: opening it is then fast the
   * first time too), from the columns held here, not read back from the rows just written.
   */
  async finish(outcome?: { status: SessionStatus; reason: string | null }): Promise<PipelineSummary> {
    const reader = this.analysis.reader;
    // Live views get these too (the recording's last batch), so they end as the stored session.
    for (const gc of this.analysis.finish()) {
      const r = toGcRecord(gc);
      this.store(r);
      this.callbacks.onGCUpdated?.(r);
    }
    for (const gc of this.analyzer.incompleteGCs()) {
      const r = toGcRecord(gc);
      this.store(r);
      this.storeDynamicEvents(gc);
      this.callbacks.onGCUpdated?.(r);
    }
    this.storePrepPauses();
    this.storeStacks(true);
    this.storeRequestSpans();
    await this.writer.close();
    const m = this.stackEvents.methodCounts;
    await setStackInfo(this.db, this.sessionId, {
      tickVersion: this.stackEvents.tickVersion,
      methodsFromLoadEvents: m.load,
      methodsFromRundown: m.rundown,
      methods: m.total,
      namesFinal: true,
    });
    await this.headerWrite;
    const facts = this.analysis.facts;
    const process = describeProcess(this.analyzer, facts);
    const status: SessionStatus = outcome?.status ?? (reader.state === 'complete' ? 'complete' : 'incomplete');
    const statusReason = outcome !== undefined ? outcome.reason : reader.error === undefined ? this.analyzer.implausibleReason() : reader.error.message;
    const counts = { events: reader.eventCount, dropped: reader.droppedEvents, formatName: reader.formatName };
    const a = this.analyzer;
    await updateSession(this.db, this.sessionId, {
      status,
      statusReason,
      // The header's Trace object says V4 for V4 and V5 alike: only the blocks tell V5 apart, so
      // the name written at the header is replaced by the reader's final one ('events' and
      // 'report FILE' said V5 where the stored session said V4).
      ...(counts.formatName !== 'unknown' ? { format: counts.formatName } : {}),
      // The trace's word when it has one. A trace cut before the runtime's final events (target
      // killed, or a session recovered after a crash) has no command line and no RuntimeInformation:
      // the name and GC mode the live recorder knew stay (issue 39: such a session was stored as
      // "Server GC" with no process name).
      ...(process.processName !== null ? { processName: process.processName, commandLine: process.commandLine } : {}),
      // RuntimeInformation comes with the rundown at the end of a session, so a trace cut short
      // (target or recorder killed) has none: keep the version ProcessInfo gave the live recorder.
      ...(process.runtimeVersion !== null ? { runtimeVersion: process.runtimeVersion } : {}),
      os: process.os,
      arch: process.arch,
      ...(process.gcMode !== null ? { gcMode: gcModeLabel(process) } : {}),
      ...(process.concurrent !== null ? { concurrent: process.concurrent } : {}),
      ...(process.heapCount !== null ? { heapCount: process.heapCount } : {}),
      gcSettings: process.gcSettings === null ? null : JSON.stringify(process.gcSettings),
      eventCount: counts.events,
      droppedEvents: counts.dropped,
      ...a.eventSpan(),
      lastHeapStatsMSec: a.lastRestartEndTimeRelativeMSec,
      hasPerHeapHistory: facts.hasPerHeapHistory,
      hasAllocTicks: a.hasAllocTickEvents,
      hasPinEvents: facts.hasPinEvents,
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
    const gcCount = rows.length + incomplete;
    // The snapshot is a cache: a session without one is read from its rows, so failing to write it fails nothing.
    if (gcCount >= this.snapshotMinGcs && columns.index.length === gcCount)
      await writeColumnSnapshot(this.db, this.sessionId, sqlNamedColumns(columns)).catch(() => undefined);
    return {
      status,
      statusReason,
      trace: this.trace,
      process,
      rollup,
      gcCount,
      eventCount: counts.events,
      droppedEvents: counts.dropped,
      peakHeapMB: summary.peakHeapMB,
      columns,
      anyCommittedUsage: this.anyCommittedUsage,
    };
  }
}
