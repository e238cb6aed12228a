/**
 * The live recorder: attach to a running .NET process (or launch one suspended behind a
 * reverse-connect port, so its very first GC is caught), stream its EventPipe session through
 * the same pipeline as import — tee-ing the exact bytes into a .nettrace file — and store GCs as
 * they happen.
 *
 * - A GC is stored as soon as the chunk that completes it is decoded (and at least every 100 ms
 *   while recording), so the session is readable as it grows; live batches for a UI go out as
 *   soon as there is something new, at most 10 times a second.
 * - Stopping (user, --duration) sends StopTracing on a second connection and drains the stream
 *   until the runtime closes it, so the file ends with its rundown and end-of-stream marker.
 * - The target exiting ends the session too; a target killed mid-stream leaves a file cut
 *   mid-block, which is finalized (cut back to its last complete block + end tag) so PerfView can
 *   open it, and the session is complete with the reason.
 * - Socket chunks are small (≤ 64 KB), so decoding one never holds the event loop for long.
 */
import type { ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, statSync, type WriteStream } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ProcessInfo } from '../diagnostics/commands.js';
import { EventPipeSession, type SessionTarget } from '../diagnostics/eventpipe-session.js';
import { sessionRequest, type ProfileName } from '../diagnostics/profiles.js';
import { processNameFromCommandLine } from '../common/process-name.js';
import { TraceDecodeError } from '../trace/errors.js';
import type { TraceInfo } from '../trace/model.js';
import type { TraceReader, TraceReaderHandlers } from '../trace/reader.js';
import type { GcRecord } from '../shared/gc-record.js';
import { columnsFromRecords, type GcColumns } from '../shared/gc-column-registry.js';
import type { LiveBatch } from '../shared/gc-series.js';
import type { Database } from '../store/db.js';
import { createSession, updateSession } from '../store/sessions.js';
import { finalizeRawTrace } from './raw-trace.js';
import type { Recorder } from './recorder.js';
import { DEFAULT_REQUEST_SOURCES, requestProviders } from '../requests/recording.js';
import type { RequestSource } from '../requests/sources.js';
import type { PauseInterval, RequestSpan } from '../requests/spans.js';
import { SessionPipeline, type PipelineSummary } from './session-pipeline.js';

export type RecordTarget = SessionTarget;

export interface RecordOptions {
  target: RecordTarget;
  profile: ProfileName;
  /** Folder for raw .nettrace files. */
  outDir: string;
  name?: string;
  /** Stop after this long (ms). */
  durationMs?: number;
  onGC?: (r: GcRecord) => void;
  /** Live batches: each GC's view columns (the service's summary reads them; the page draws the chart's). */
  onBatch?: (b: LiveBatch<GcColumns>) => void;
  /** Sessions with at least this many GCs get their column snapshot when the recording ends (default SNAPSHOT_AT_IMPORT_MIN_GCS). */
  snapshotMinGcs?: number;
  /** Output of a launched target (stdout/stderr chunks). */
  onTargetOutput?: (stream: 'stdout' | 'stderr', chunk: Buffer) => void;
  /**
   * Tee the stream into a raw .nettrace file (default true). The flight recorder (watch/) keeps
   * its own in-memory ring instead: no file, and the session has no trace path.
   */
  teeRawTrace?: boolean;
  /** Each chunk of the stream, before it is decoded (the watch's ring). */
  onStreamChunk?: (chunk: Buffer) => void;
  /** Each block the reader finishes, with its absolute byte span (the watch's ring). */
  onBlock?: TraceReaderHandlers['onBlock'];
  /** Tags the new session gets (a watch session is tagged 'watch'). */
  tags?: string[];
  /** The session's name when `name` is not given, from the process name and pid. */
  nameOf?: (processName: string, pid: number) => string;
  /** The EventPipe buffer in the target (MB; default 256). */
  circularBufferMB?: number;
  /** Also record these request sources' events (requests/recording.ts; issue 42). */
  requests?: readonly RequestSource[];
}

export interface RecordResult extends PipelineSummary {
  sessionId: number;
  tracePath: string;
  processInfo: ProcessInfo;
  /** Why the recording ended: 'stopped', 'duration', 'target-exited'. */
  endedBy: 'stopped' | 'duration' | 'target-exited';
  downgrades: string[];
  /** Exit code of a launched target, when it exited. */
  targetExitCode: number | null;
}

/** Rows are committed at least this often while recording. */
const FLUSH_MS = 100;
/** Live batches go out at most 10 times a second. */
const MIN_BATCH_INTERVAL_MS = 100;
const DRAIN_TIMEOUT_MS = 15000;

export class LiveRecorder implements Recorder {
  private db: Database;
  private opts: RecordOptions;
  private pipeline: SessionPipeline | undefined;
  private reader: TraceReader | undefined;
  private file: WriteStream | undefined;
  /** The diagnostics side: attach or launch, the EventPipe stream, stop and drain. */
  private session: EventPipeSession | undefined;
  private timer: NodeJS.Timeout | undefined;
  private durationTimer: NodeJS.Timeout | undefined;
  private pending: GcRecord[] = [];
  /** Request spans and pauses stored since the last batch (issue 42). */
  private pendingSpans: RequestSpan[] = [];
  private pendingPauses: PauseInterval[] = [];
  private bytes = 0;
  private decodeError: TraceDecodeError | undefined;
  private stopping: 'stopped' | 'duration' | undefined;
  private finished: Promise<RecordResult> | undefined;
  /** Set by cut(): why the stream was closed from our side instead of drained. */
  private cutReason: string | undefined;
  sessionId = 0;
  tracePath = '';
  processInfo: ProcessInfo | undefined;

  constructor(db: Database, opts: RecordOptions) {
    this.db = db;
    this.opts = opts;
  }

  /** Attaches (or launches) and starts streaming; resolves once events flow. */
  async start(): Promise<void> {
    const t = this.opts.target;
    const session = await EventPipeSession.open(t, this.opts.onTargetOutput);
    this.session = session;
    this.processInfo = session.processInfo;
    const info = this.processInfo;
    mkdirSync(this.opts.outDir, { recursive: true });
    // A launched runtime is asked before its app starts, so its own command line may be bare:
    // name the session after the command we started.
    const launched = EventPipeSession.commandLineOf(t);
    const procName =
      (launched !== undefined ? processNameFromCommandLine(launched) : null) ??
      (info.managedEntrypointAssemblyName || null) ??
      processNameFromCommandLine(info.commandLine) ??
      'process';
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const tee = this.opts.teeRawTrace !== false;
    // Absolute: the session stores it, and recovery may run from another folder (a relative --out
    // made a recording whose raw trace was there fail recovery).
    this.tracePath = tee ? join(resolve(this.opts.outDir), `${procName}-${info.processId}-${stamp}.nettrace`) : '';
    this.sessionId = await createSession(this.db, {
      kind: 'gc',
      name: this.opts.name ?? this.opts.nameOf?.(procName, info.processId) ?? `${procName} (pid ${info.processId})`,
      source: 'record',
      status: 'recording',
      tracePath: tee ? this.tracePath : null,
      ...(this.opts.tags !== undefined ? { tags: this.opts.tags } : {}),
      processId: info.processId,
      processName: procName,
      commandLine: launched ?? info.commandLine,
      runtimeVersion: info.clrProductVersion?.replace(/[+-].*$/, '') ?? null,
      os: info.os,
      arch: info.arch,
      recorderPid: process.pid,
    });
    const onBlock = this.opts.onBlock;
    const pipeline = new SessionPipeline(
      this.db,
      this.sessionId,
      {
        onGC: (r) => {
          this.pending.push(r);
          this.opts.onGC?.(r);
        },
        // Sent again with the next batch, so a live view shows the values the stored session has
        // (not to onGC: a watch's triggers saw the GC once).
        onGCUpdated: (r) => this.pending.push(r),
        // Sent with the next batch: the service grows the recording's Requests lane from them.
        onRequestSpans: (spans, pauses) => {
          for (const x of spans) this.pendingSpans.push(x);
          for (const x of pauses) this.pendingPauses.push(x);
        },
      },
      // A long recording gets its column snapshot when it ends, as a large import does.
      {
        ...(onBlock !== undefined ? { onBlock } : {}),
        ...(this.opts.snapshotMinGcs !== undefined ? { snapshotMinGcs: this.opts.snapshotMinGcs } : {}),
        // Attached to a process in a container: keep the host PID the session was created with.
        ...(info.innerProcessId !== undefined ? { processId: info.processId } : {}),
        ...(this.opts.requests !== undefined ? { requestSources: this.opts.requests } : {}),
      },
    );
    this.pipeline = pipeline;
    this.reader = pipeline.reader;
    const request = sessionRequest(this.opts.profile, this.opts.circularBufferMB);
    // The profile's GC providers plus the request sources' (a provider the profile has already stays as it is).
    const requests = this.opts.requests ?? (this.opts.profile === 'gc-requests' ? DEFAULT_REQUEST_SOURCES : undefined);
    if (requests !== undefined) {
      for (const p of requestProviders(requests)) if (!request.providers.some((q) => q.name === p.name)) request.providers = [...request.providers, p];
    }
    await session.start(request, (d) => this.onData(d));
    this.timer = setInterval(() => this.tick(), FLUSH_MS);
    if (this.opts.durationMs !== undefined) this.durationTimer = setTimeout(() => void this.stop('duration'), this.opts.durationMs);
  }

  private onData(d: Buffer): void {
    this.bytes += d.length;
    // The raw trace: the exact bytes, from the first one the runtime sends.
    if (this.tracePath !== '') {
      this.file ??= createWriteStream(this.tracePath);
      this.file.write(d);
    }
    this.opts.onStreamChunk?.(d);
    if (this.decodeError !== undefined) return;
    const before = this.pending.length;
    try {
      this.reader!.push(d);
    } catch (e) {
      if (!(e instanceof TraceDecodeError)) throw e;
      // Keep teeing the bytes to disk; the stored session keeps what was decoded before this.
      this.decodeError = e;
    }
    // New GCs: store them now and publish them as soon as the 10-per-second limit allows, rather
    // than waiting for the next tick (the runtime already delays events by up to ~100 ms).
    if (this.pending.length > before) this.publishSoon();
  }

  private lastBatchAt = 0;
  private batchTimer: NodeJS.Timeout | undefined;

  private publishSoon(): void {
    if (this.batchTimer !== undefined) return;
    const wait = this.lastBatchAt + MIN_BATCH_INTERVAL_MS - Date.now();
    if (wait <= 0) this.tick();
    else
      this.batchTimer = setTimeout(() => {
        this.batchTimer = undefined;
        this.tick();
      }, wait);
  }

  private tick(state: LiveBatch['state'] = this.stopping === undefined ? 'recording' : 'stopping', endReason?: string): void {
    // Drains the request spans completed since the last flush (into pendingSpans) before anything is sent.
    void this.pipeline?.flush();
    const records = this.pending;
    const spans = this.pendingSpans;
    const pauses = this.pendingPauses;
    // Between GCs and requests, a heartbeat batch (progress, state) every second is enough; requests
    // go out with the next batch (every 100 ms while they come), as GCs do, so the Requests lane fills live.
    if (records.length === 0 && spans.length === 0 && pauses.length === 0 && state === 'recording' && Date.now() - this.lastBatchAt < 1000) return;
    this.pending = [];
    this.pendingSpans = [];
    this.pendingPauses = [];
    this.lastBatchAt = Date.now();
    const r = this.reader;
    const a = this.pipeline?.analyzer;
    this.opts.onBatch?.({
      sessionId: this.sessionId,
      // Columns, not rows: one typed array per column crosses to the service (and on to the page)
      // as bytes, where a row object per GC was cloned field by field at each hop.
      gcs: columnsFromRecords(records),
      events: r?.eventCount ?? 0,
      bytes: this.bytes,
      droppedEvents: r?.droppedEvents ?? 0,
      nowMSec: this.nowMSec(state, a?.eventSpan().lastEventMSec ?? null),
      state,
      ...(endReason !== undefined ? { endReason } : {}),
      ...(spans.length > 0 || pauses.length > 0 ? { requestSpans: { spans, pauses } } : {}),
    });
  }

  /**
   * The recording's "now" on the trace's clock (ms since the sync point): the newest event's time,
   * or the wall clock's if that is later. An idle process writes no events at all, and the live
   * view's time axis must keep moving rather than look frozen. The target is a local process, so
   * the trace header's sync-point UTC and Date.now() read the same clock. Once stopping, only the
   * events count: the stored session ends at its last event.
   */
  private nowMSec(state: LiveBatch['state'], lastEventMSec: number | null): number | null {
    const t = this.reader?.trace;
    if (state !== 'recording' || t === undefined) return lastEventMSec;
    const wall = Date.now() - t.syncTimeUnixMs;
    return lastEventMSec === null ? wall : Math.max(lastEventMSec, wall);
  }

  /** Stops the session and drains it; resolves with the stored session's outcome. */
  stop(by: 'stopped' | 'duration' = 'stopped'): Promise<RecordResult> {
    if (this.stopping === undefined && this.session?.isStarted === true) {
      this.stopping = by;
      this.session.stop(DRAIN_TIMEOUT_MS);
    }
    return this.done();
  }

  /**
   * Closes the stream without waiting for the runtime (a target that does not answer StopTracing:
   * frozen, or gone without closing its socket). What was decoded is stored as usual; the
   * session's reason starts with `reason`.
   */
  cut(reason: string): Promise<RecordResult> {
    this.cutReason ??= reason;
    this.stopping ??= 'stopped';
    this.session?.cut();
    return this.done();
  }

  /** Resolves when the recording has ended (stopped, or the target exited) and is stored. */
  done(): Promise<RecordResult> {
    this.finished ??= this.finish();
    return this.finished;
  }

  private async finish(): Promise<RecordResult> {
    await this.session!.ended;
    clearInterval(this.timer);
    clearTimeout(this.batchTimer);
    clearTimeout(this.durationTimer);
    // A stream that ended before its first byte still leaves its (empty) raw trace.
    const file = this.tracePath !== '' ? (this.file ??= createWriteStream(this.tracePath)) : undefined;
    if (file !== undefined) await new Promise<void>((resolve) => file.end(() => resolve()));
    const reader = this.reader!;
    reader.end();
    const targetExitCode = await this.session!.exitCode(5000);
    const endedBy: RecordResult['endedBy'] = this.stopping ?? 'target-exited';
    let reason: string | null = null;
    if (reader.state !== 'complete') {
      const fin = file !== undefined ? await finalizeRawTrace(this.tracePath) : undefined;
      const cut =
        this.decodeError !== undefined
          ? `the stream could not be decoded after byte ${this.decodeError.offset} (${this.decodeError.message})`
          : 'the stream stopped mid-block';
      reason =
        endedBy === 'target-exited'
          ? `the process ended without closing the session (killed or crashed); ${cut}. Every GC before that point is stored${fin !== undefined ? `; the raw trace was cut back to its last complete block (${fin.droppedBytes} bytes dropped) so other tools can open it` : ''}.`
          : `${cut}${fin !== undefined ? '; the raw trace was cut back to its last complete block' : ''}.`;
    } else if (endedBy === 'target-exited') {
      reason = `the process exited${targetExitCode !== null ? ` (exit code ${targetExitCode})` : ''}`;
    } else if (endedBy === 'duration') {
      reason = 'stopped after the requested duration';
    }
    if (this.cutReason !== undefined) reason = reason === null ? this.cutReason : `${this.cutReason}; ${reason}`;
    // The raw trace's size, as an import stores its file's (the Sessions list's Size was blank for recordings).
    if (file !== undefined) await updateSession(this.db, this.sessionId, { fileSize: statSync(this.tracePath).size }).catch(() => undefined);
    // The stored session and, for a long recording, its column snapshot (as a large import's).
    const summary = await this.pipeline!.finish({ status: 'complete', reason });
    this.tick('ended', reason ?? 'stopped');
    this.session!.close();
    return {
      ...summary,
      sessionId: this.sessionId,
      tracePath: this.tracePath,
      processInfo: this.processInfo!,
      endedBy,
      downgrades: this.session!.downgrades,
      targetExitCode,
    };
  }

  /** The trace header, once the stream's first block has been read. */
  get trace(): TraceInfo | undefined {
    return this.reader?.trace;
  }

  /** Events the runtime reported lost so far (sequence-number gaps). */
  get droppedEvents(): number {
    return this.reader?.droppedEvents ?? 0;
  }

  /** The session's pipeline (columns, analyzer), once started. */
  get sessionPipeline(): SessionPipeline | undefined {
    return this.pipeline;
  }

  /** What the target's runtime could not do that the profile asks for (known once started). */
  get downgrades(): string[] {
    return this.session?.downgrades ?? [];
  }

  /** The launched target (launch mode). */
  get targetProcess(): ChildProcess | undefined {
    return this.session?.child;
  }
}
