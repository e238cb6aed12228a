/**
 * The backend behind the contract (shared/contract.ts): one implementation of ProfilerApi used by
 * the Electron IPC handlers (app/) and the WebSocket bridge (web/). It owns the database, the
 * live recorders and the import jobs, and emits the contract's events. No Electron here: desktop
 * dialogs come in as callbacks.
 */
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { COMPACT_MECHANISMS, EXPAND_MECHANISMS, GC_TYPE_NAMES, GLOBAL_MECHANISMS, PAUSE_MODE_NAMES, flagNames, gcReasonName, mechanismName } from '../shared/gc-enums.js';
import { listDotnetProcesses } from '../diagnostics/process-list.js';
import { DiagnosticsError } from '../diagnostics/transport.js';
import { completedRows } from '../gc/rollup.js';
import { summarize } from '../gc/summary.js';
import { whyGeneration } from '../gc/why-generation.js';
import { renderCsvReport } from '../report/csv.js';
import { renderHtmlReport } from '../report/html.js';
import { fileFingerprint } from '../recording/importer.js';
import { LiveRecorder } from '../recording/live-recorder.js';
import { recoverInterruptedSessions } from '../recording/recovery.js';
import { reportFromSession } from '../recording/report-source.js';
import type { AllocationsByType, AppInfo, DotnetProcess, ExportFormat, ExportResult, GcDetail, HeapRow, ImportProgress, ProcessList, ProfilerApi, ProfilerEvent, ProfilerEvents, RangeSummary, RecordingInfo, RecordingProfile, SessionData, TableExtras } from '../shared/contract.js';
import type { GcColumns } from '../shared/gc-column-registry.js';
import { UNAVAILABLE_REASONS } from '../shared/gc-record.js';
import { isFilterActive, passesFilter, type GcFilter } from '../shared/gc-filter.js';
import { seriesFromColumns } from '../shared/gc-series.js';
import type { SessionInfo } from '../shared/session.js';
import { Database, StoreError } from '../store/db.js';
import { loadViewColumns } from '../store/gc-columns.js';
import { getAllocTypes, getGcColumnArrays, getGcRecord, getHeapDetail } from '../store/gc-store.js';
import { deleteSession, findByFingerprint, getSession, listSessions, updateSession } from '../store/sessions.js';
import { ApiFailure } from './errors.js';
import { ImportJobs } from './import-jobs.js';
import { rangeGroups } from './group-rollup.js';
import { LiveSummary } from './live-summary.js';
import { UploadStore } from './uploads.js';

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
  /** Desktop: show an open dialog. */
  pickTraceFile?: () => Promise<string | null>;
  /** Desktop: ask where to save an export; null when cancelled. */
  pickSavePath?: (defaultName: string) => Promise<string | null>;
}

type ViewColumns = GcColumns;
/** Sessions whose columns stay in memory (the open one and a couple to switch back to). */
const COLUMN_CACHE_SIZE = 3;

/** Stop: how long the clean stop (StopTracing, drain to the end tag) may take before the stream is cut… */
const STOP_CLEAN_MS = 1500;
/** …and by when the session has ended, or is marked failed. */
const STOP_DEADLINE_MS = 2000;
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
  'A process in a container is visible only if GCScope runs in the same container or shares its /tmp.',
  'A process started with DOTNET_EnableDiagnostics=0 cannot be attached to.',
  'GCScope needs .NET Core 3.0 or later in the target.',
];

export class ProfilerService implements ProfilerApi {
  readonly events = new EventEmitter();
  private readonly recorders = new Map<number, LiveRecorder>();
  /** Running recordings by session: the target pid, what startRecording returned, and how it is ending. */
  private readonly recordings = new Map<number, { pid: number; info: RecordingInfo; goneSince: number | null; ending: Promise<void> | undefined }>();
  /** Attaches in progress by pid, so a double click does not start two sessions. */
  private readonly startingByPid = new Map<number, Promise<RecordingInfo>>();
  private watchdog: NodeJS.Timeout | undefined;
  private readonly jobs: ImportJobs;
  private readonly uploads: UploadStore;
  /** Columns of finished sessions, keyed by session id; `key` says which version of the rows. */
  private readonly liveSummaries = new Map<number, LiveSummary>();
  private readonly columnCache = new Map<number, { key: string; columns: ViewColumns; wholeSummary?: RangeSummary }>();

  private constructor(
    readonly db: Database,
    private readonly opts: ServiceOptions,
  ) {
    this.jobs = new ImportJobs(db, opts.workerScript, (p) => this.onImportProgress(p));
    this.uploads = new UploadStore(opts.uploadDir, opts.uploadMaxBytes !== undefined ? { maxBytes: opts.uploadMaxBytes } : {});
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
    this.emit('import-progress', p);
    if (p.done) this.uploads.release(p.jobId);
    if (p.done) this.emit('sessions-changed', { reason: 'import finished' });
    if (p.done && p.sessionId !== undefined && p.error === undefined) this.warmColumns(p.sessionId);
  }

  /** A session just finished: write its column snapshot now, so opening it is fast from the start. */
  private warmColumns(sessionId: number): void {
    void this.session(sessionId)
      .then((s) => this.viewColumns(s))
      .catch(() => undefined);
  }

  async close(): Promise<void> {
    clearInterval(this.watchdog);
    for (const [id, r] of this.recorders) await this.endRecording(id, r.stop('stopped'), 'the process did not answer the stop request');
    this.uploads.close();
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
    const processes: DotnetProcess[] = list.map((p) => ({ pid: p.pid, name: p.name, commandLine: p.commandLine, runtimeVersion: p.runtimeVersion, os: p.os, arch: p.arch }));
    return { processes, hints: processes.length === 0 ? EMPTY_HINTS : [] };
  }

  async startRecording(pid: number, profile: RecordingProfile): Promise<RecordingInfo> {
    // One recording per process: Record on a process being recorded opens that recording (a
    // second EventPipe session would double the target's overhead and the sessions to stop).
    const running = [...this.recordings.values()].find((r) => r.pid === pid);
    if (running !== undefined) return { ...running.info, alreadyRecording: true };
    const pending = this.startingByPid.get(pid);
    if (pending !== undefined) return { ...(await pending), alreadyRecording: true };
    const start = this.attach(pid, profile);
    this.startingByPid.set(pid, start);
    try {
      return await start;
    } finally {
      this.startingByPid.delete(pid);
    }
  }

  private async attach(pid: number, profile: RecordingProfile): Promise<RecordingInfo> {
    // The tiles of a recording: updated with each batch's GCs, sent with the batch.
    const live = new LiveSummary();
    const rec: LiveRecorder = new LiveRecorder(this.db, {
      target: { pid },
      profile,
      outDir: this.opts.tracesDir,
      onBatch: (b) => {
        const summary = live.add(b.records);
        // Once ended, the stored session (with its last HeapStats) answers.
        if (b.state === 'ended') this.liveSummaries.delete(rec.sessionId);
        this.emit('live-batch', { ...b, summary });
      },
    });
    try {
      await rec.start();
    } catch (e) {
      if (e instanceof DiagnosticsError) throw new ApiFailure(e.code, e.message);
      throw new ApiFailure('attach-failed', `Could not attach to process ${pid}: ${(e as Error).message}`);
    }
    const info: RecordingInfo = { sessionId: rec.sessionId, pid, profile, tracePath: rec.tracePath, downgrades: rec.downgrades };
    this.recorders.set(rec.sessionId, rec);
    this.recordings.set(rec.sessionId, { pid, info, goneSince: null, ending: undefined });
    this.watchRecordings();
    this.liveSummaries.set(rec.sessionId, live);
    this.emit('sessions-changed', { reason: 'recording started' });
    void rec.done().finally(() => this.liveSummaries.delete(rec.sessionId)).then(
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
      if (s.status === 'recording') throw new ApiFailure('busy', `Session ${sessionId} is being recorded by another GCScope process (pid ${s.recorderPid}); stop it there (Ctrl+C for gcscope record).`);
      throw new ApiFailure('not-found', `Session ${sessionId} is not recording.`);
    }
    await this.endRecording(sessionId, rec.stop('stopped'), 'the process did not answer the stop request');
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
        Promise.race([p.then(() => true, () => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
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
    this.emit('live-batch', { sessionId, records: [], events: 0, bytes: 0, droppedEvents: 0, nowMSec: null, state: 'ended', endReason: reason });
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
        if (rec !== undefined && now - r.goneSince >= GONE_GRACE_MS) void this.endRecording(sessionId, rec.done(), `process ${r.pid} is gone but its diagnostics stream stayed open`);
      }
    }, 500);
    this.watchdog.unref();
  }

  async importTracePath(path: string, force: boolean): Promise<{ jobId: string }> {
    if (!existsSync(path)) throw new ApiFailure('not-found', `${path}: no such file.`);
    return { jobId: this.jobs.start({ path, force }) };
  }

  async uploadChunk(uploadId: string, offset: number, base64: string): Promise<void> {
    this.uploads.chunk(uploadId, offset, base64);
  }

  async importUpload(uploadId: string, fileName: string, force: boolean): Promise<{ jobId: string }> {
    const file = this.uploads.finish(uploadId, fileName);
    const jobId = this.jobs.start({ path: file, force, name: basename(fileName) });
    this.uploads.track(jobId, file);
    return { jobId };
  }

  async cancelImport(jobId: string): Promise<void> {
    this.jobs.cancel(jobId);
  }

  async pickAndImportTrace(): Promise<{ jobId: string } | null> {
    if (this.opts.pickTraceFile === undefined) throw new ApiFailure('not-supported', 'Opening files by path is only available in the desktop app; use the file picker.');
    const path = await this.opts.pickTraceFile();
    return path === null ? null : this.importTracePath(path, false);
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

  private async session(id: number): Promise<SessionInfo> {
    try {
      return await getSession(this.db, id);
    } catch (e) {
      if (e instanceof StoreError && e.code === 'not-found') throw new ApiFailure('not-found', `Session ${id} does not exist (it may have been deleted).`);
      throw e;
    }
  }

  /**
   * A session's view columns. Finished sessions come from memory or their stored snapshot (a
   * 100 000-GC session reads in milliseconds instead of about a second); a session being
   * recorded is read from its rows every time.
   */
  private async viewColumns(session: SessionInfo): Promise<ViewColumns> {
    const finished = session.status !== 'recording' && !this.recorders.has(session.id);
    const key = `${session.gcCount}|${session.updatedAt}`;
    const cached = this.columnCache.get(session.id);
    if (finished && cached?.key === key) {
      // Most recently used last.
      this.columnCache.delete(session.id);
      this.columnCache.set(session.id, cached);
      return cached.columns;
    }
    const columns = await loadViewColumns(this.db, session.id, { gcCount: session.gcCount, store: finished });
    if (finished) {
      this.columnCache.set(session.id, { key, columns });
      while (this.columnCache.size > COLUMN_CACHE_SIZE) this.columnCache.delete(this.columnCache.keys().next().value!);
    }
    return columns;
  }

  async getSessionData(sessionId: number): Promise<SessionData> {
    const session = await this.session(sessionId);
    const series = seriesFromColumns(await this.viewColumns(session));
    const n = series.length;
    const start = session.firstEventMSec ?? (n > 0 ? series.time[0]! : 0);
    const end = Math.max(session.lastEventMSec ?? 0, n > 0 ? series.time[n - 1]! + series.pause[n - 1]! : 0);
    return { session, series, startMSec: start, endMSec: end, live: this.recorders.has(sessionId) };
  }

  async getRangeSummary(sessionId: number, fromMSec: number, toMSec: number, throughNumber?: number | null, filter?: GcFilter): Promise<RangeSummary> {
    const through = throughNumber ?? undefined;
    const f = filter !== undefined && isFilterActive(filter) ? filter : null;
    // A recording's whole-session summary is kept up to date as GCs arrive (not re-read); a
    // filtered summary is computed from the columns like any other.
    const live = f === null ? this.liveSummaries.get(sessionId) : undefined;
    if (live !== undefined && live.covers(fromMSec, toMSec)) return live.summary();
    const session = await this.session(sessionId);
    const columns = await this.viewColumns(session);
    const times = columns.time;
    // The whole session: TraceEvent's definition of % paused (pause over the time from the first
    // GC to the last HeapStats), so the app shows the number `report` prints.
    const whole = times.length > 0 && fromMSec <= times[0]! && toMSec >= times[times.length - 1]!;
    // Every view opens on the whole session: a finished session's answer is kept with its columns.
    const entry = this.columnCache.get(sessionId);
    const cacheable = whole && through === undefined && f === null && entry?.columns === columns;
    if (cacheable && entry.wholeSummary !== undefined) return entry.wholeSummary;
    const inRange = completedRows(columns, { fromMSec, toMSec, ...(through !== undefined ? { throughNumber: through } : {}) });
    // The table's filter, by the same predicate the table uses (shared/gc-filter.ts).
    const rows = f === null ? inRange : inRange.filter((i) => passesFilter(f, columns.generation[i]!, columns.type[i]!, columns.reason[i]!, columns.pause[i]!));
    let lastEnd = 0;
    for (const i of rows) lastEnd = Math.max(lastEnd, times[i]! + columns.pause[i]!);
    // While recording, the last HeapStats time is not stored yet: the newest GC's end stands in.
    // Filtered: % paused is the share of the range's time spent in the pauses of the GCs that pass.
    const exact = whole && f === null;
    const { summary: base, rollup: r } = summarize(columns, rows, { lastHeapStatsMSec: whole ? (session.lastHeapStatsMSec ?? lastEnd) : lastEnd, ...(exact ? {} : { rangeSpanMSec: toMSec - fromMSec }) });
    const summary: RangeSummary = { ...base, ...rangeGroups(columns, rows, r.generations) };
    if (cacheable) entry.wholeSummary = summary;
    return summary;
  }

  async getTableExtras(sessionId: number): Promise<TableExtras> {
    const session = await this.session(sessionId);
    const gens = ['gen0', 'gen1', 'gen2', 'loh', 'poh'] as const;
    const raw = await getGcColumnArrays(this.db, sessionId, [...gens.map((g) => `${g}_frag_mb` as const), 'heap_after_mb', 'pinned_object_bytes', 'pinned_object_count', 'gen0_survival_pct', 'gen1_survival_pct', 'gen2_survival_pct'] as const);
    const n = raw.heap_after_mb.length;
    const f64 = (a: (number | null)[], scale = 1): Float64Array => Float64Array.from(a, (v) => (v === null ? Number.NaN : v * scale));
    // Fragmentation of the whole heap after the GC: free space inside the generations (free lists
    // and free objects, GCPerHeapHistory) over the heap size after (TraceEvent's
    // GenFragmentationPercent, summed over generations).
    const frag = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const after = raw.heap_after_mb[i];
      let sum = 0;
      for (const g of gens) {
        const v = raw[`${g}_frag_mb`][i];
        if (v === null || v === undefined) sum = Number.NaN;
        else sum += v;
      }
      frag[i] = after === null || after === undefined || after <= 0 ? Number.NaN : (sum * 100) / after;
    }
    const columns: TableExtras['columns'] = {
      fragPercent: frag,
      pinnedMB: f64(raw.pinned_object_bytes, 1e-6),
      pinnedCount: f64(raw.pinned_object_count),
      gen0SurvivalPercent: f64(raw.gen0_survival_pct),
      gen1SurvivalPercent: f64(raw.gen1_survival_pct),
      gen2SurvivalPercent: f64(raw.gen2_survival_pct),
    };
    const missing: TableExtras['missing'] = {};
    const perHeap = `not in this trace: ${UNAVAILABLE_REASONS.noPerHeapHistory}`;
    const empty = (c: Float64Array): boolean => c.every((v) => Number.isNaN(v));
    if (empty(columns.fragPercent)) missing.fragPercent = perHeap;
    if (empty(columns.pinnedMB) || !session.hasPinEvents) missing.pinnedMB = missing.pinnedCount = `not in this trace: ${UNAVAILABLE_REASONS.noPinEvents}`;
    for (const g of [0, 1, 2] as const) if (empty(columns[`gen${g}SurvivalPercent`])) missing[`gen${g}SurvivalPercent`] = n > 0 && !session.hasPerHeapHistory ? perHeap : `not in this trace: no gen${g} GC with per-heap history`;
    return { columns, missing };
  }

  async getAllocations(sessionId: number, limit: number): Promise<AllocationsByType> {
    const session = await this.session(sessionId);
    const types = await getAllocTypes(this.db, sessionId, limit);
    const total = await this.db.get<{ b: number | null }>('SELECT SUM(bytes) AS b FROM alloc_types WHERE session_id = ?', [sessionId]);
    const kinds = ['small', 'large', 'pinned'] as const;
    return {
      hasAllocTicks: session.hasAllocTicks || types.length > 0,
      totalBytes: total?.b ?? 0,
      types: types.map((t) => ({ typeName: t.typeName, kind: kinds[t.kind] ?? 'small', ticks: t.ticks, bytes: t.bytes })),
    };
  }

  async getGcDetail(sessionId: number, gcIndex: number): Promise<GcDetail> {
    const session = await this.session(sessionId);
    const record = await getGcRecord(this.db, sessionId, gcIndex);
    if (record === undefined) throw new ApiFailure('not-found', `GC index ${gcIndex} is not in session ${sessionId}.`);
    const heapDetail = await getHeapDetail(this.db, sessionId, gcIndex);
    const heaps: HeapRow[] = heapDetail.map((h) => ({
      heap: h.heap,
      sizeBeforeMB: h.gens.map((g) => g[0]! / 1e6),
      sizeAfterMB: h.gens.map((g) => g[3]! / 1e6),
      survivalPercent: h.gens.map((g, i) => {
        const notCollected = i >= 3 ? record.generation < 2 : i > record.generation;
        const before = g[0]! - g[1]! - g[2]!;
        return notCollected ? null : before === 0 ? 0 : Math.trunc(((g[7]! + g[8]!) * 100) / before);
      }),
      fragmentationMB: h.gens.map((g) => (g[4]! + g[5]!) / 1e6),
      budgetMB: h.gens.map((g) => g[9]! / 1e6),
      compactMechanism: mechanismName(h.compactMechanisms ?? 0, COMPACT_MECHANISMS),
      expandMechanism: mechanismName(h.expandMechanisms ?? 0, EXPAND_MECHANISMS),
    }));
    const notes: string[] = [];
    if (!record.isComplete) notes.push(UNAVAILABLE_REASONS.incomplete);
    if (record.durationMSec === null) notes.push(UNAVAILABLE_REASONS.noGCEnd);
    if (record.heapSizeAfterMB === null) notes.push(UNAVAILABLE_REASONS.noHeapStats);
    if (!session.hasPerHeapHistory) notes.push(`Survival, fragmentation and budgets: ${UNAVAILABLE_REASONS.noPerHeapHistory}.`);
    if (record.globalMechanisms === null) notes.push(`Compaction and condemned reasons: ${UNAVAILABLE_REASONS.noGlobalHistory}.`);
    if (!session.hasPinEvents) notes.push(`Pinned object sizes: ${UNAVAILABLE_REASONS.noPinEvents}.`);
    notes.push(`% CPU in GC: ${UNAVAILABLE_REASONS.cpuSamples}.`);
    return {
      record,
      reasonName: gcReasonName(record.reason),
      typeName: GC_TYPE_NAMES[record.type] ?? String(record.type),
      why: whyGeneration({ generation: record.generation, type: record.type, reason: record.reason, globalReasons0: record.condemnReasons0, globalReasons1: record.condemnReasons1, heaps: heapDetail }),
      globalMechanisms: record.globalMechanisms === null ? [] : flagNames(record.globalMechanisms, GLOBAL_MECHANISMS),
      pauseModeName: record.pauseMode === null ? null : (PAUSE_MODE_NAMES[record.pauseMode] ?? String(record.pauseMode)),
      heaps,
      notes,
    };
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
    this.columnCache.delete(sessionId);
    // Raw traces GCScope recorded belong to it; imported files belong to the user.
    if (s.source === 'record' && s.tracePath !== null && s.tracePath.startsWith(this.opts.tracesDir)) rmSync(s.tracePath, { force: true });
    this.emit('sessions-changed', { reason: 'session deleted' });
  }

  async reimportSession(sessionId: number): Promise<{ jobId: string }> {
    const s = await this.session(sessionId);
    if (this.recorders.has(sessionId)) throw new ApiFailure('busy', 'The session is still recording.');
    if (s.tracePath === null || !existsSync(s.tracePath)) throw new ApiFailure('not-found', `The raw trace of this session is gone (${s.tracePath ?? 'no file'}); it cannot be re-imported.`);
    return { jobId: this.jobs.start({ path: s.tracePath, force: true, sessionId }) };
  }

  async exportSession(sessionId: number, format: ExportFormat): Promise<ExportResult> {
    const s = await this.session(sessionId);
    const safe = s.name.replace(/[^\w.-]+/g, '_').replace(/\.(nettrace|zip|netperf)$/i, '');
    let fileName: string;
    let text: string | undefined;
    let raw: Buffer | undefined;
    if (format === 'nettrace') {
      if (s.tracePath === null || !existsSync(s.tracePath)) throw new ApiFailure('not-found', 'The raw trace of this session is no longer on disk.');
      fileName = basename(s.tracePath);
      raw = readFileSync(s.tracePath);
      if (raw.length > 256e6 && this.opts.mode === 'browser') throw new ApiFailure('too-large', `The raw trace is ${(statSync(s.tracePath).size / 1e6).toFixed(0)} MB; copy it from ${s.tracePath} instead.`);
    } else {
      const rep = await reportFromSession(this.db, sessionId);
      fileName = `${safe}.${format}`;
      text = format === 'csv' ? renderCsvReport(rep) : format === 'html' ? renderHtmlReport(rep) : JSON.stringify(rep, null, 2);
    }
    if (this.opts.mode === 'desktop' && this.opts.pickSavePath !== undefined) {
      const path = await this.opts.pickSavePath(fileName);
      if (path === null) return { fileName, path: null, content: null, encoding: null };
      writeFileSync(path, raw ?? text!);
      return { fileName, path, content: null, encoding: null };
    }
    return raw !== undefined ? { fileName, path: null, content: raw.toString('base64'), encoding: 'base64' } : { fileName, path: null, content: text!, encoding: 'utf8' };
  }
}

