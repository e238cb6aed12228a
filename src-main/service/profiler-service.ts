/**
 * The backend behind the contract (shared/contract.ts): one implementation of ProfilerApi used by
 * the Electron IPC handlers (app/) and the WebSocket bridge (web/). It owns the database, the
 * live recorders and the import jobs, and emits the contract's events; the session view's reads are
 * session-views.ts and exports exports.ts. No Electron here: desktop dialogs come in as callbacks.
 */
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { listDotnetProcesses } from '../diagnostics/process-list.js';
import { unreachableContainers } from '../diagnostics/discovery.js';
import { openRecording, RecordingStartError, type Recording } from './recording-host.js';
import { fileFingerprint } from '../recording/importer.js';
import { recoverInterruptedSessions } from '../recording/recovery.js';
import type { Comparison } from '../shared/comparison.js';
import type { Diagnosis, DiagnosisOverrides } from '../shared/finding.js';
import { DiagnosisSettingsStore } from './diagnosis-settings.js';
import type {
  AppInfo,
  CompareTarget,
  DiagnosisSettings,
  DotnetProcess,
  ExportFormat,
  ExportScope,
  ExportResult,
  GcDetail,
  GcWho,
  ImportProgress,
  ProcessList,
  ProfilerApi,
  ProfilerEvent,
  ProfilerEvents,
  RangeSummary,
  RecordingInfo,
  RecordingProfile,
  SessionData,
  StackAllocations,
  StackAllocationsQuery,
  TableExtras,
  TraceProcesses,
  TraceSource,
  TraceToChoose,
} from '../shared/contract.js';
import { surveyTraceProcesses } from '../recording/trace-processes.js';
import { StackViews } from './stack-views.js';
import type { GcFilter } from '../shared/gc-filter.js';
import { columnsFromRecords, type GcColumns } from '../shared/gc-column-registry.js';
import { requireGcSession, type SessionInfo } from '../shared/session.js';
import { Database } from '../store/db.js';
import { deleteSession, findByFingerprint, listSessions, updateSession } from '../store/sessions.js';
import { ApiFailure, toApiError } from './errors.js';
import { compareStored } from './comparisons.js';
import { exportSession } from './exports.js';
import { ImportJobs } from './import-jobs.js';
import { LiveSummary } from './live-summary.js';
import { SessionViews } from './session-views.js';
import { AnalysisRunner } from './analysis-runner.js';
import { ServerGcViews } from './server-gc-views.js';
import type { HeapBalanceRow, ServerGcData } from '../shared/server-gc.js';
import { UploadStore } from './uploads.js';
import { HeapViews } from './heap-views.js';
import { LiveSnapshots } from './live-snapshots.js';
import type { HeapGrowthView, LiveSnapshotTaken, SnapshotMark } from '../shared/snapshot-marks.js';
import type { HeapPathView, HeapRetainerView, HeapSnapshotTaken, HeapTypesQuery, HeapTypesView } from '../shared/heap-view.js';
import type { CaptureInfo, WatchSettings } from '../shared/capture.js';
import { chartColumns, type LiveBatch } from '../shared/gc-series.js';
import { captureOfSession, listCaptures } from '../store/captures.js';
import { getPauseIntervals, getRequestSpans } from '../store/request-store.js';
import { LiveRequestLane, requestLaneData } from '../requests/lane.js';
import type { RequestLaneData } from '../shared/requests.js';
import { TriggerSet, TriggerSyntaxError } from '../watch/triggers.js';

export { ApiFailure };

export interface ServiceOptions {
  dbPath: string;
  /** Raw traces of recordings. */
  tracesDir: string;
  /** Where browser uploads are staged (emptied at start, removed at close: see uploads.ts). */
  uploadDir: string;
  /** Largest browser upload accepted, in bytes (uploads.ts has the default). */
  uploadMaxBytes?: number;
  mode: 'desktop' | 'browser';
  version: string;
  /** The sample trace shipped in assets/. */
  samplePath?: string;
  /** dist/import-worker.mjs; imports run in this thread when absent. */
  workerScript?: string;
  /** dist/record-worker.mjs; live recordings (attach, decode, store) run in this thread when absent. */
  recordWorkerScript?: string;
  /** dist/analysis-worker.mjs; findings and comparisons are computed in this thread when absent. */
  analysisWorkerScript?: string;
  /** dist/heap-worker.mjs; heap snapshots are taken and analysed in this thread when absent. */
  heapWorkerScript?: string;
  /** How long one findings or comparison request may run in that worker (analysis-runner.ts has the default). */
  analysisTimeoutMs?: number;
  /** How long an upload may go without a chunk before it is dropped (uploads.ts has the default). */
  uploadIdleMs?: number;
  /** Desktop: show an open dialog. */
  pickTraceFile?: () => Promise<string | null>;
  /** Desktop: ask where to save an export; null when cancelled. */
  pickSavePath?: (defaultName: string) => Promise<string | null>;
}

/** Stop: how long the clean stop (StopTracing, drain to the end tag) may take before the stream is cut… */
const STOP_CLEAN_MS = 1500;
/** …and by when the session has ended, or is marked failed. */
const STOP_DEADLINE_MS = 2000;
/** Closing: how long a recording worker may take to finish storing its session before it is terminated. */
const WORKER_EXIT_MS = 10000;
/** A recorded process gone this long with its stream still open: the recording is ended. */
const GONE_GRACE_MS = 2000;

/** Whether a process exists (signal 0 checks without sending anything; EPERM means it exists). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const EMPTY_HINTS = [
  'Processes of other users are not visible: run GCScope as the same user (or root).',
  'A process in a container (Docker, Podman, a Kubernetes pod) is listed when GCScope runs on the host as root, or as the user the process runs as.',
  'A process started with DOTNET_EnableDiagnostics=0 cannot be attached to.',
  'GCScope needs .NET Core 3.0 or later in the target.',
];

export class ProfilerService implements ProfilerApi {
  readonly events = new EventEmitter();
  private readonly recorders = new Map<number, Recording>();
  /** Recordings whose worker has not finished (a failed one leaves `recorders` first). */
  private readonly running = new Set<Recording>();
  /** Running recordings by session: the target pid, what startRecording returned, and how it is ending. */
  private readonly recordings = new Map<number, { pid: number; info: RecordingInfo; goneSince: number | null; ending: Promise<void> | undefined }>();
  /** Attaches in progress by pid, so a double click does not start two sessions. */
  private readonly startingByPid = new Map<number, Promise<RecordingInfo>>();
  private watchdog: NodeJS.Timeout | undefined;
  private readonly jobs: ImportJobs;
  private readonly uploads: UploadStore;
  /** Recordings' columns and whole-session summaries, kept up to date as GCs arrive. */
  private readonly liveSummaries = new Map<number, LiveSummary>();
  /** The Requests lane of each recording, grown from its batches (issue 42); what getRequestSpans answers while it records. */
  private readonly liveLanes = new Map<number, LiveRequestLane>();
  private readonly views: SessionViews;
  private readonly serverGc: ServerGcViews;
  private readonly stackViews: StackViews;
  private readonly diagnosisSettings: DiagnosisSettingsStore;
  private readonly heapViews: HeapViews;
  private readonly liveSnapshots: LiveSnapshots;

  private constructor(
    readonly db: Database,
    private readonly opts: ServiceOptions,
  ) {
    this.jobs = new ImportJobs(db, opts.workerScript, (p) => this.onImportProgress(p));
    this.heapViews = new HeapViews(db, {
      ...(opts.heapWorkerScript !== undefined ? { workerScript: opts.heapWorkerScript } : {}),
      onProgress: (pid, p) => this.emit('heap-snapshot-progress', { pid, ...p }),
    });
    this.views = new SessionViews(
      db,
      (id) => this.recorders.has(id),
      (id) => this.liveSummaries.get(id),
      (id) => this.liveSummaries.get(id)?.columns(),
      new AnalysisRunner(opts.analysisWorkerScript, opts.analysisTimeoutMs !== undefined ? { timeoutMs: opts.analysisTimeoutMs } : {}),
      (id) => this.liveLanes.get(id)?.received(),
    );
    this.serverGc = new ServerGcViews(
      db,
      (id) => this.views.gcSession(id),
      (s) => this.views.serverGcData(s),
    );
    this.stackViews = new StackViews(db, (id) => this.recorders.has(id));
    this.liveSnapshots = new LiveSnapshots(db, this.heapViews, {
      recordingPid: (id) => (this.recorders.has(id) ? this.recordings.get(id)?.pid : undefined),
      liveColumns: (id) => this.liveSummaries.get(id)?.columns(),
      storedColumns: async (id) => this.views.viewColumns(await this.views.gcSession(id)),
    });
    this.diagnosisSettings = new DiagnosisSettingsStore(opts.dbPath);
    this.uploads = new UploadStore(opts.uploadDir, {
      ...(opts.uploadMaxBytes !== undefined ? { maxBytes: opts.uploadMaxBytes } : {}),
      ...(opts.uploadIdleMs !== undefined ? { idleMs: opts.uploadIdleMs } : {}),
    });
  }

  static async create(opts: ServiceOptions): Promise<ProfilerService> {
    const db = await Database.open(opts.dbPath);
    mkdirSync(opts.tracesDir, { recursive: true });
    const svc = new ProfilerService(db, opts);
    // Sessions a crash left in 'recording' are rebuilt from their raw traces.
    const recovered = await recoverInterruptedSessions(db);
    if (recovered.length > 0) svc.emit('sessions-changed', { reason: `recovered ${recovered.length} interrupted session(s)` });
    return svc;
  }

  emit<E extends ProfilerEvent>(event: E, payload: ProfilerEvents[E]): void {
    this.events.emit(event, payload);
  }

  private onImportProgress(p: ImportProgress): void {
    this.emit('import-progress', this.uploads.describe(p));
    if (p.done) this.uploads.release(p.jobId);
    if (p.done) this.emit('sessions-changed', { reason: 'import finished' });
    if (p.done && p.sessionId !== undefined && p.error === undefined) this.warmColumns(p.sessionId);
  }

  /** A session just finished: write its column snapshot now, so opening it is fast from the start. */
  private warmColumns(sessionId: number): void {
    void this.session(sessionId)
      .then((s) => this.views.viewColumns(s))
      .catch(() => undefined);
  }

  async close(): Promise<void> {
    clearInterval(this.watchdog);
    for (const [id, r] of this.recorders) await this.endRecording(id, r.stop(), 'the process did not answer the stop request');
    // Every recording still running (also one already marked failed) is ended only once it has
    // finished storing, or after a bound: a worker terminated while sqlite3 has work in flight on
    // its connection can crash the process in the native module.
    for (const r of this.running) {
      await Promise.race([r.done().catch(() => undefined), new Promise<void>((res) => setTimeout(res, WORKER_EXIT_MS).unref())]);
      r.terminate();
    }
    this.uploads.close();
    await this.heapViews.close();
    await this.views.settled();
    await this.db.close();
  }

  // ---- contract --------------------------------------------------------------------------

  async appInfo(): Promise<AppInfo> {
    return {
      version: this.opts.version,
      mode: this.opts.mode,
      databasePath: this.db.path,
      hasSampleTrace: this.opts.samplePath !== undefined && existsSync(this.opts.samplePath),
      platform: process.platform,
    };
  }

  async listProcesses(): Promise<ProcessList> {
    const list = await listDotnetProcesses();
    const processes: DotnetProcess[] = list.map((p) => ({
      pid: p.pid,
      name: p.name,
      commandLine: p.commandLine,
      runtimeVersion: p.runtimeVersion,
      os: p.os,
      arch: p.arch,
      innerPid: p.innerPid,
      container: p.container,
    }));
    // Containers this user cannot look into are worth a line even when some processes are listed.
    const hidden = unreachableContainers();
    const hints = [...(hidden !== undefined ? [hidden.message] : []), ...(processes.length === 0 ? EMPTY_HINTS : [])];
    return { processes, hints };
  }

  async startRecording(pid: number, profile: RecordingProfile, watch?: WatchSettings): Promise<RecordingInfo> {
    // One recording per process: Record on a process being recorded opens that recording (a
    // second EventPipe session would double the target's overhead and the sessions to stop).
    const running = [...this.recordings.values()].find((r) => r.pid === pid);
    if (running !== undefined) return { ...running.info, alreadyRecording: true };
    const pending = this.startingByPid.get(pid);
    if (pending !== undefined) return { ...(await pending), alreadyRecording: true };
    const start = this.attach(pid, profile, watch);
    this.startingByPid.set(pid, start);
    try {
      return await start;
    } finally {
      this.startingByPid.delete(pid);
    }
  }

  async startWatch(pid: number, settings: WatchSettings): Promise<RecordingInfo> {
    try {
      TriggerSet.parse(settings.triggers);
    } catch (e) {
      if (e instanceof TriggerSyntaxError) throw new ApiFailure('bad-input', `Trigger: ${e.message}.`);
      throw e;
    }
    // One session per process, as for Record: Watch on a process being recorded opens that.
    return this.startRecording(pid, 'gc-collect', settings);
  }

  async listCaptures(sessionId: number): Promise<CaptureInfo[]> {
    return listCaptures(this.db, sessionId);
  }

  /** The Requests lane's data (issue 42): the session's requests with the GC pause time in each. */
  async getRequestSpans(sessionId: number): Promise<RequestLaneData> {
    // A recording's lane as its live batches have built it: the deltas that follow apply to it.
    const live = this.liveLanes.get(sessionId);
    if (live !== undefined) return live.snapshot();
    const [spans, pauses] = await Promise.all([getRequestSpans(this.db, sessionId), getPauseIntervals(this.db, sessionId)]);
    return requestLaneData(spans, pauses);
  }

  async captureOf(sessionId: number): Promise<CaptureInfo | null> {
    return (await captureOfSession(this.db, sessionId)) ?? null;
  }

  async heapSizeAtLastGc(pid: number): Promise<number | null> {
    return this.heapViews.heapSizeAtLastGc(pid);
  }

  async takeHeapSnapshot(pid: number, heapAtLastGcBytes: number | null): Promise<HeapSnapshotTaken> {
    const r = await this.heapViews.take(pid, heapAtLastGcBytes);
    this.emit('sessions-changed', { reason: 'heap snapshot taken' });
    return r;
  }

  async liveHeapAtLastGc(sessionId: number): Promise<number | null> {
    return this.liveSnapshots.heapAtLastGc(sessionId);
  }

  async takeLiveHeapSnapshot(sessionId: number, heapAtLastGcBytes: number | null): Promise<LiveSnapshotTaken> {
    const r = await this.liveSnapshots.take(sessionId, heapAtLastGcBytes);
    this.emit('sessions-changed', { reason: 'heap snapshot taken' });
    return r;
  }

  async listSnapshotMarks(sessionId: number): Promise<SnapshotMark[]> {
    return this.liveSnapshots.marks(sessionId);
  }

  async getHeapGrowth(sessionId: number): Promise<HeapGrowthView | null> {
    return this.liveSnapshots.growth(sessionId);
  }

  async getHeapTypes(sessionId: number, query: HeapTypesQuery): Promise<HeapTypesView> {
    return this.heapViews.types(sessionId, query);
  }

  async getHeapDominators(sessionId: number, top: number): Promise<HeapRetainerView[]> {
    return this.heapViews.dominators(sessionId, top);
  }

  async getHeapPaths(sessionId: number, typeName: string): Promise<HeapPathView[]> {
    return this.heapViews.paths(sessionId, typeName);
  }

  private async attach(pid: number, profile: RecordingProfile, watch?: WatchSettings): Promise<RecordingInfo> {
    // The tiles of a recording: updated with each batch's GCs, sent with the batch; over its
    // columns, grown from the same batches (views for findings and filtered summaries).
    const live = new LiveSummary();
    const script = this.opts.recordWorkerScript;
    const lane = new LiveRequestLane();
    const onBatch = (b: LiveBatch<GcColumns>): void => {
      const summary = live.add(b.gcs);
      // The requests read with this batch grow the Requests lane; the page gets what changed in it.
      const { requestSpans, ...rest } = b;
      const requests = requestSpans !== undefined ? lane.add(requestSpans.spans, requestSpans.pauses) : null;
      // Once ended, the stored session (with its last HeapStats) answers.
      if (b.state === 'ended') {
        this.liveSummaries.delete(rec.sessionId);
        this.liveLanes.delete(rec.sessionId);
      }
      // The page draws the chart's columns; the rest stay here (summaries, findings).
      this.emit('live-batch', { ...rest, gcs: chartColumns(b.gcs), summary, ...(requests !== null ? { requests } : {}) });
    };
    const onCapture = (c: CaptureInfo): void => {
      this.emit('capture', c);
      this.emit('sessions-changed', { reason: 'capture written' });
    };
    const rec: Recording = openRecording({
      db: this.db,
      pid,
      profile,
      // A watch's outDir is its captures folder.
      outDir: watch !== undefined ? join(this.opts.tracesDir, 'captures') : this.opts.tracesDir,
      // Without the worker script (tests from source), in this thread.
      ...(script !== undefined && existsSync(script) ? { workerScript: script } : {}),
      onBatch,
      ...(watch !== undefined ? { watch, onCapture } : {}),
    });
    try {
      await rec.start();
    } catch (e) {
      rec.terminate();
      if (e instanceof RecordingStartError && e.code !== null) throw new ApiFailure(e.code, e.message);
      throw new ApiFailure('attach-failed', `Could not attach to process ${pid}: ${(e as Error).message}`);
    }
    const info: RecordingInfo = { sessionId: rec.sessionId, pid, profile, tracePath: rec.tracePath, downgrades: rec.downgrades };
    this.recorders.set(rec.sessionId, rec);
    this.running.add(rec);
    void rec
      .done()
      .catch(() => undefined)
      .finally(() => this.running.delete(rec));
    this.recordings.set(rec.sessionId, { pid, info, goneSince: null, ending: undefined });
    this.watchRecordings();
    this.liveSummaries.set(rec.sessionId, live);
    this.liveLanes.set(rec.sessionId, lane);
    this.emit('sessions-changed', { reason: 'recording started' });
    void rec
      .done()
      .finally(() => {
        this.liveSummaries.delete(rec.sessionId);
        this.liveLanes.delete(rec.sessionId);
      })
      .then(
        () => {
          this.forget(rec.sessionId);
          this.emit('sessions-changed', { reason: 'recording ended' });
          this.warmColumns(rec.sessionId);
        },
        (e: unknown) => void this.markFailed(rec.sessionId, `the recording could not be finished: ${(e as Error).message}`),
      );
    return info;
  }

  async stopRecording(sessionId: number): Promise<void> {
    const rec = this.recorders.get(sessionId);
    if (rec === undefined) {
      // A row left 'recording' with no recorder behind it (its recorder failed): end it now.
      const s = await this.session(sessionId);
      if (s.status === 'recording' && (s.recorderPid === process.pid || s.recorderPid === null || !processAlive(s.recorderPid))) {
        await this.markFailed(sessionId, 'the recording had stopped receiving data; it was ended by Stop');
        return;
      }
      if (s.status === 'recording')
        throw new ApiFailure(
          'busy',
          `Session ${sessionId} is being recorded by another GCScope process (pid ${s.recorderPid}); stop it there (Ctrl+C for gcscope record).`,
        );
      throw new ApiFailure('not-found', `Session ${sessionId} is not recording.`);
    }
    await this.endRecording(sessionId, rec.stop(), 'the process did not answer the stop request');
  }

  /**
   * Ends a recording within STOP_DEADLINE_MS whatever the target does: first the clean way
   * (`ending`: StopTracing and a drained stream), then by cutting the stream, and if even that
   * has not finished, by marking the session failed with the reason. Never leaves it 'recording'.
   */
  private async endRecording(sessionId: number, ending: Promise<unknown>, whyCut: string): Promise<void> {
    const state = this.recordings.get(sessionId);
    const rec = this.recorders.get(sessionId);
    if (state === undefined || rec === undefined) return;
    state.ending ??= (async () => {
      const within = (p: Promise<unknown>, ms: number): Promise<boolean> =>
        Promise.race([
          p.then(
            () => true,
            () => true,
          ),
          new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref()),
        ]);
      if (await within(ending, STOP_CLEAN_MS)) return;
      if (await within(rec.cut(`${whyCut} within ${STOP_CLEAN_MS / 1000} s, so the stream was cut`), STOP_DEADLINE_MS - STOP_CLEAN_MS)) return;
      await this.markFailed(sessionId, `${whyCut} and its stream did not close within ${STOP_DEADLINE_MS / 1000} s; GCs received before that are kept`);
    })();
    await state.ending;
  }

  /** The session ends as failed now (the recorder, if it ever finishes, may still complete it). */
  private async markFailed(sessionId: number, reason: string): Promise<void> {
    this.forget(sessionId);
    await updateSession(this.db, sessionId, { status: 'failed', statusReason: reason }).catch(() => undefined);
    this.emit('live-batch', {
      sessionId,
      gcs: chartColumns(columnsFromRecords([])),
      events: 0,
      bytes: 0,
      droppedEvents: 0,
      nowMSec: null,
      state: 'ended',
      endReason: reason,
    });
    this.emit('sessions-changed', { reason: 'recording failed' });
  }

  private forget(sessionId: number): void {
    this.recorders.delete(sessionId);
    this.recordings.delete(sessionId);
    if (this.recordings.size === 0) {
      clearInterval(this.watchdog);
      this.watchdog = undefined;
    }
  }

  /**
   * A recording whose process is gone ends by itself: normally its socket closes, but if it has
   * not within GONE_GRACE_MS of the process disappearing, the stream is cut (and, failing that,
   * the session marked failed).
   */
  private watchRecordings(): void {
    if (this.watchdog !== undefined) return;
    this.watchdog = setInterval(() => {
      const now = Date.now();
      for (const [sessionId, r] of this.recordings) {
        if (r.ending !== undefined || processAlive(r.pid)) {
          r.goneSince = null;
          continue;
        }
        r.goneSince ??= now;
        const rec = this.recorders.get(sessionId);
        if (rec !== undefined && now - r.goneSince >= GONE_GRACE_MS)
          void this.endRecording(sessionId, rec.done(), `process ${r.pid} is gone but its diagnostics stream stayed open`);
      }
    }, 500);
    this.watchdog.unref();
  }

  async importTracePath(path: string, force: boolean, processIds?: number[]): Promise<{ jobId: string }> {
    if (!existsSync(path)) throw new ApiFailure('not-found', `${path}: no such file.`);
    return { jobId: this.jobs.start({ path, force, ...(processIds !== undefined ? { processIds } : {}) }) };
  }

  async traceProcesses(source: TraceSource): Promise<TraceProcesses> {
    let file: string;
    if ('path' in source) {
      if (!existsSync(source.path)) throw new ApiFailure('not-found', `${source.path}: no such file.`);
      file = source.path;
    } else file = this.uploads.received(source.uploadId);
    try {
      const s = await surveyTraceProcesses(file);
      return { machineWide: s.machineWide, processes: s.processes };
    } catch (e) {
      // An upload's error names the user's file, not the staged copy (as its import's would).
      const api = toApiError(e);
      throw new ApiFailure(api.code, 'path' in source ? api.message : api.message.split(file).join(basename(source.fileName)));
    }
  }

  async uploadChunk(uploadId: string, offset: number, base64: string): Promise<void> {
    this.uploads.chunk(uploadId, offset, base64);
  }

  async importUpload(uploadId: string, fileName: string, force: boolean, processIds?: number[]): Promise<{ jobId: string }> {
    const file = this.uploads.finish(uploadId, fileName);
    const jobId = this.jobs.start({ path: file, force, name: basename(fileName), ...(processIds !== undefined ? { processIds } : {}) });
    this.uploads.track(jobId, file, basename(fileName));
    return { jobId };
  }

  async cancelImport(jobId: string): Promise<void> {
    this.jobs.cancel(jobId);
  }

  async pickAndImportTrace(): Promise<{ jobId: string } | TraceToChoose | null> {
    if (this.opts.pickTraceFile === undefined)
      throw new ApiFailure('not-supported', 'Opening files by path is only available in the desktop app; use the file picker.');
    const path = await this.opts.pickTraceFile();
    if (path === null) return null;
    // A machine-wide trace with several .NET processes with GCs: the user picks which to import.
    const found = await this.traceProcesses({ path });
    if (found.machineWide && found.processes.filter((p) => p.gcCount > 0).length > 1) return { choose: { path, fileName: basename(path), ...found } };
    return this.importTracePath(path, false);
  }

  async openSampleTrace(): Promise<{ jobId: string } | { sessionId: number }> {
    const p = this.opts.samplePath;
    if (p === undefined || !existsSync(p)) throw new ApiFailure('not-found', 'The sample trace is not installed.');
    const { fingerprint } = await fileFingerprint(p);
    const existing = await findByFingerprint(this.db, fingerprint);
    if (existing !== undefined) return { sessionId: existing.id };
    return { jobId: this.jobs.start({ path: p, force: false, name: 'Sample: GC workload (.NET 10, background GCs)' }) };
  }

  async listSessions(): Promise<SessionInfo[]> {
    return listSessions(this.db);
  }

  private session(id: number): Promise<SessionInfo> {
    return this.views.session(id);
  }

  // ---- session views (session-views.ts) ----
  getSessionData(sessionId: number): Promise<SessionData> {
    return this.views.getSessionData(sessionId);
  }

  getRangeSummary(sessionId: number, fromMSec: number, toMSec: number, throughNumber?: number | null, filter?: GcFilter): Promise<RangeSummary> {
    return this.views.getRangeSummary(sessionId, fromMSec, toMSec, throughNumber, filter);
  }

  getTableExtras(sessionId: number): Promise<TableExtras> {
    return this.views.getTableExtras(sessionId);
  }

  getServerGc(sessionId: number): Promise<ServerGcData> {
    return this.serverGc.getServerGc(sessionId);
  }

  getHeapBalance(sessionId: number, gcIndex: number): Promise<HeapBalanceRow[]> {
    return this.serverGc.getHeapBalance(sessionId, gcIndex);
  }

  // A GC recording's stacks and samples: a session of another kind is refused first.
  async getStackAllocations(sessionId: number, query: StackAllocationsQuery): Promise<StackAllocations> {
    await this.views.gcSession(sessionId);
    return this.stackViews.getStackAllocations(sessionId, query);
  }

  async getGcWho(sessionId: number, gcIndex: number): Promise<GcWho> {
    await this.views.gcSession(sessionId);
    return this.stackViews.getGcWho(sessionId, gcIndex);
  }

  compareSessions(a: CompareTarget, b: CompareTarget, options: { includeWarmup: boolean }): Promise<Comparison> {
    return compareStored(this.views, a, b, options, this.diagnosisSettings.current());
  }

  getGcDetail(sessionId: number, gcIndex: number): Promise<GcDetail> {
    return this.views.getGcDetail(sessionId, gcIndex);
  }

  // ---- diagnosis (diagnosis/, docs/diagnosis.md) ----
  async getFindings(sessionId: number, fromMSec: number | null, toMSec: number | null, throughNumber?: number | null): Promise<Diagnosis> {
    const d = await this.views.getFindings(sessionId, fromMSec, toMSec, this.diagnosisSettings.current(), throughNumber);
    // The evidence is looked for in the range the findings are for (clamped to the session).
    if (fromMSec !== null && toMSec !== null && d.range.startMSec !== null && d.range.endMSec !== null)
      [fromMSec, toMSec] = [d.range.startMSec, d.range.endMSec];
    // Callers of GC.Collect, large types and their stacks, when the session has them (issue 14).
    return this.stackViews.withEvidence(sessionId, d, fromMSec, toMSec);
  }

  async getDiagnosisSettings(): Promise<DiagnosisSettings> {
    return this.diagnosisSettings.get();
  }

  async setDiagnosisSettings(overrides: DiagnosisOverrides): Promise<DiagnosisSettings> {
    return this.diagnosisSettings.set(overrides);
  }

  async updateSession(sessionId: number, changes: { name?: string; tags?: string[]; notes?: string }): Promise<SessionInfo> {
    await this.session(sessionId);
    const u: Record<string, string | string[]> = {};
    if (changes.name !== undefined) {
      const n = changes.name.trim();
      if (n === '') throw new ApiFailure('bad-input', 'A session name cannot be empty.');
      u.name = n;
    }
    if (changes.tags !== undefined) u.tags = [...new Set(changes.tags.map((t) => t.trim()).filter((t) => t !== ''))];
    if (changes.notes !== undefined) u.notes = changes.notes;
    await updateSession(this.db, sessionId, u);
    this.emit('sessions-changed', { reason: 'session updated' });
    return this.session(sessionId);
  }

  async deleteSession(sessionId: number): Promise<void> {
    if (this.recorders.has(sessionId)) throw new ApiFailure('busy', 'Stop the recording before deleting its session.');
    const s = await this.session(sessionId);
    await deleteSession(this.db, sessionId);
    this.views.forget(sessionId);
    this.stackViews.forget(sessionId);
    // Raw traces GCScope recorded belong to it; imported files belong to the user.
    if (s.source === 'record' && s.tracePath !== null && s.tracePath.startsWith(this.opts.tracesDir)) rmSync(s.tracePath, { force: true });
    this.emit('sessions-changed', { reason: 'session deleted' });
  }

  async reimportSession(sessionId: number): Promise<{ jobId: string }> {
    // Re-importing runs the GC import over its file: not for a session of another kind.
    const s = requireGcSession(await this.session(sessionId));
    if (this.recorders.has(sessionId)) throw new ApiFailure('busy', 'The session is still recording.');
    if (s.tracePath === null || !existsSync(s.tracePath))
      throw new ApiFailure('not-found', `The raw trace of this session is gone (${s.tracePath ?? 'no file'}); it cannot be re-imported.`);
    this.stackViews.forget(sessionId);
    return { jobId: this.jobs.start({ path: s.tracePath, force: true, sessionId }) };
  }

  async exportSession(sessionId: number, format: ExportFormat, scope?: ExportScope): Promise<ExportResult> {
    const s = await this.session(sessionId);
    // A heap snapshot exports its raw file, the .gcdump (dotnet-gcdump, PerfView and Visual
    // Studio open it); every other format is a GC report, for GC recordings only.
    if (s.kind === 'heap' && format === 'nettrace') return exportSession(this.db, s, format, this.opts);
    return exportSession(this.db, requireGcSession(s), format, this.opts, scope);
  }
}
