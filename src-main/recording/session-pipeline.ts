/**
 * reader → decoder → analyzer → store, for one session. The importer drives it from a file and
 * the live recorder from a diagnostics socket: both feed the reader's callbacks and call
 * `flush()` now and then; `finish()` settles the session's final state.
 *
 * Memory stays bounded by the working set, not the trace: GC rows go to the database as they
 * complete, the analyzer forgets GCs once they are stored and out of the window its metrics
 * read, and allocation ticks are written in chunks as they come.
 */
import { GCAnalyzer } from '../gc/gc-analyzer.js';
import { TraceFacts } from '../gc/trace-facts.js';
import { describeProcess, gcModeLabel, type ProcessDescription } from '../gc/process-info.js';
import { completedRows, type Rollup } from '../gc/rollup.js';
import { summarize } from '../gc/summary.js';
import { toGcRecord } from '../gc/to-record.js';
import { GCType, type TraceGC } from '../gc/trace-gc.js';
import { AllocationTickReader } from '../clr/gc-events.js';
import type { NettraceError } from '../nettrace/errors.js';
import type { ReaderHandlers } from '../nettrace/reader.js';
import type { TraceEventRecord, TraceInfo } from '../nettrace/types.js';
import { GcColumnBuilder, type GcColumns } from '../shared/gc-column-registry.js';
import type { GcRecord } from '../shared/gc-record.js';
import type { SessionStatus } from '../shared/session.js';
import type { Database } from '../store/db.js';
import { GcWriter, type BatchSink } from '../store/gc-store.js';
import { updateSession } from '../store/sessions.js';
import { frameRow, INSERT_FRAME, INSERT_STACK, INSERT_TICK_CHUNK, INSERT_TICK_TYPE, INSERT_TRIGGER, setStackInfo, stackBlob, tickChunk, TICKS_RAW } from '../store/stack-store.js';
import { StackEvents, type StackEventsOptions } from '../symbols/stack-events.js';
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
  /**
   * A GC already passed to onGC was stored again with changed values: its finalizers, LOH
   * allocation waits, or metrics that read a GC completed after it (e.g. the allocation since the
   * previous GC, once a background GC before it has ended). At the end, also each GC stored
   * incomplete (never passed to onGC).
   */
  onGCUpdated?(r: GcRecord): void;
}

export class SessionPipeline {
  readonly analyzer: GCAnalyzer;
  readonly writer: GcWriter;
  trace: TraceInfo | undefined;
  private readonly facts = new TraceFacts();
  /** Each AllocationTick read once, for the analyzer and the stack events. */
  private readonly ticks = new AllocationTickReader();
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
  /** Call stacks and allocation samples (issue 14), written as they come (store/stack-store.ts). */
  readonly stackEvents: StackEvents;
  private stackOf: ((e: TraceEventRecord) => Float64Array | undefined) | undefined;
  private stored = { frames: 0, stacks: 0, types: 0, tickChunks: 0, triggers: 0 };

  constructor(
    private readonly db: Database,
    readonly sessionId: number,
    private readonly callbacks: PipelineCallbacks = {},
    /** Where GC rows are written (default: this connection; the importer may hand them to a writer thread). */
    sink?: BatchSink,
    /** How stacks are collected (the importer of a plain trace file leaves method names in the file). */
    stackOptions?: StackEventsOptions,
  ) {
    this.stackEvents = new StackEvents(stackOptions);
    this.writer = new GcWriter(db, sessionId, sink);
    this.analyzer = new GCAnalyzer({
      onGCEnd: (gc) => this.onGCEnd(gc),
      onGCUpdated: (gc) => {
        const r = toGcRecord(gc);
        this.store(r);
        this.callbacks.onGCUpdated?.(r);
      },
    });
  }

  readonly handlers: ReaderHandlers = {
    onTrace: (t) => {
      this.trace = t;
      this.analyzer.setTrace(t);
      this.stackEvents.setTrace(t);
      this.ticks.setTrace(t);
      this.headerWrite = updateSession(this.db, this.sessionId, {
        format: `${t.format} V${t.formatVersion}`,
        traceStartUtc: t.syncTimeUtc,
        qpcFrequency: t.qpcFrequency,
        syncTimeQpc: t.syncTimeQpc,
        pointerSize: t.pointerSize,
        processId: t.processId,
        cpuCount: t.numberOfProcessors,
      });
      // finish() awaits this write and reports its failure; until then it is handled here, or a
      // session deleted meanwhile (an import failing or cancelled after the header: the
      // importer deletes what it made) left an unhandled rejection, fatal in a long-lived process.
      this.headerWrite.catch(() => undefined);
    },
    onEvent: (e) => this.onEvent(e),
  };

  private onEvent(e: TraceEventRecord): void {
    const tick = this.ticks.read(e);
    if (tick !== undefined) {
      this.analyzer.onAllocationTick(e, tick);
      this.stackEvents.onAllocationTick(e, tick, this.stackOf);
      return;
    }
    if (!this.facts.onEvent(e)) this.analyzer.onEvent(e);
    this.stackEvents.onEvent(e, this.stackOf);
  }

  /** Where events' call stacks come from: the reader, created with `stacks: true`. */
  useStacksOf(reader: { eventStack(e: TraceEventRecord): Float64Array | undefined }): void {
    this.stackOf = (e) => reader.eventStack(e);
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
      const blob = tickChunk({ time: ev.tickTime, amount: ev.tickAmount, objectSize: ev.tickObjectSize, type: ev.tickType, stack: ev.tickStack, kind: ev.tickKind }, ev.tickCount);
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
    this.storeStacks(false);
    const p = this.writer.flush();
    if (this.newestCompleted > WINDOW) this.analyzer.release(this.newestCompleted - WINDOW);
    return p;
  }

  /**
   * Settles the session: recomputes late-changing metrics, stores incomplete GCs (flagged), the
   * last stacks and samples, and the session's final state.
   */
  async finish(
    readerState: 'complete' | 'truncated' | 'failed',
    readerError: NettraceError | undefined,
    counts: { events: number; dropped: number; /** The reader's name for the format, known once read (V5 by its tags). */ formatName?: string },
    outcome?: { status: SessionStatus; reason: string | null },
  ): Promise<PipelineSummary> {
    // Live views get these too (the recording's last batch), so they end as the stored session.
    for (const gc of this.analyzer.finish()) {
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
    await this.writer.close();
    const m = this.stackEvents.methodCounts;
    await setStackInfo(this.db, this.sessionId, { tickVersion: this.stackEvents.tickVersion, methodsFromLoadEvents: m.load, methodsFromRundown: m.rundown, methods: m.total, namesFinal: true });
    await this.headerWrite;
    const process = describeProcess(this.analyzer, this.facts);
    const status: SessionStatus = outcome?.status ?? (readerState === 'complete' ? 'complete' : 'incomplete');
    const statusReason = outcome !== undefined ? outcome.reason : readerError === undefined ? null : readerError.message;
    const a = this.analyzer;
    await updateSession(this.db, this.sessionId, {
      status,
      statusReason,
      // The header's Trace object says V4 for V4 and V5 alike: only the blocks tell V5 apart, so
      // the name written at the header is replaced by the reader's final one ('events' and
      // 'report FILE' said V5 where the stored session said V4).
      ...(counts.formatName !== undefined && counts.formatName !== 'unknown' ? { format: counts.formatName } : {}),
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

