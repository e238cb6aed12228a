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
import { decodeCondemnedReasons } from '../gc/condemned-reasons.js';
import { completedRows } from '../gc/rollup.js';
import { summarize } from '../gc/summary.js';
import { renderCsvReport } from '../report/csv.js';
import { renderHtmlReport } from '../report/html.js';
import { fileFingerprint } from '../recording/importer.js';
import { LiveRecorder } from '../recording/live-recorder.js';
import { recoverInterruptedSessions } from '../recording/recovery.js';
import { reportFromSession } from '../recording/report-source.js';
import type { AppInfo, DotnetProcess, ExportFormat, ExportResult, GcDetail, HeapRow, ImportProgress, ProcessList, ProfilerApi, ProfilerEvent, ProfilerEvents, RangeSummary, RecordingInfo, RecordingProfile, SessionData } from '../shared/contract.js';
import type { GcColumns } from '../shared/gc-column-registry.js';
import { UNAVAILABLE_REASONS } from '../shared/gc-record.js';
import { seriesFromColumns } from '../shared/gc-series.js';
import type { SessionInfo } from '../shared/session.js';
import { Database, StoreError } from '../store/db.js';
import { loadViewColumns } from '../store/gc-columns.js';
import { getGcRecord, getHeapDetail } from '../store/gc-store.js';
import { deleteSession, findByFingerprint, getSession, listSessions, updateSession } from '../store/sessions.js';
import { ApiFailure } from './errors.js';
import { ImportJobs } from './import-jobs.js';
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

const EMPTY_HINTS = [
  'Processes of other users are not visible: run GCScope as the same user (or root).',
  'A process in a container is visible only if GCScope runs in the same container or shares its /tmp.',
  'A process started with DOTNET_EnableDiagnostics=0 cannot be attached to.',
  'GCScope needs .NET Core 3.0 or later in the target.',
];

export class ProfilerService implements ProfilerApi {
  readonly events = new EventEmitter();
  private readonly recorders = new Map<number, LiveRecorder>();
  private readonly jobs: ImportJobs;
  private readonly uploads: UploadStore;
  /** Columns of finished sessions, keyed by session id; `key` says which version of the rows. */
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
    for (const r of this.recorders.values()) await r.stop('stopped').catch(() => undefined);
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
    const rec = new LiveRecorder(this.db, {
      target: { pid },
      profile,
      outDir: this.opts.tracesDir,
      onBatch: (b) => this.emit('live-batch', b),
    });
    try {
      await rec.start();
    } catch (e) {
      if (e instanceof DiagnosticsError) throw new ApiFailure(e.code, e.message);
      throw new ApiFailure('attach-failed', `Could not attach to process ${pid}: ${(e as Error).message}`);
    }
    this.recorders.set(rec.sessionId, rec);
    this.emit('sessions-changed', { reason: 'recording started' });
    void rec.done().then(
      () => {
        this.recorders.delete(rec.sessionId);
        this.emit('sessions-changed', { reason: 'recording ended' });
        this.warmColumns(rec.sessionId);
      },
      () => this.recorders.delete(rec.sessionId),
    );
    return { sessionId: rec.sessionId, pid, profile, tracePath: rec.tracePath, downgrades: rec.downgrades };
  }

  async stopRecording(sessionId: number): Promise<void> {
    const rec = this.recorders.get(sessionId);
    if (rec === undefined) throw new ApiFailure('not-found', `Session ${sessionId} is not recording.`);
    await rec.stop('stopped');
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

  async getRangeSummary(sessionId: number, fromMSec: number, toMSec: number, throughNumber?: number): Promise<RangeSummary> {
    const session = await this.session(sessionId);
    const columns = await this.viewColumns(session);
    const times = columns.time;
    // The whole session: TraceEvent's definition of % paused (pause over the time from the first
    // GC to the last HeapStats), so the app shows the number `report` prints.
    const whole = times.length > 0 && fromMSec <= times[0]! && toMSec >= times[times.length - 1]!;
    // Every view opens on the whole session: a finished session's answer is kept with its columns.
    const entry = this.columnCache.get(sessionId);
    const cacheable = whole && throughNumber === undefined && entry?.columns === columns;
    if (cacheable && entry.wholeSummary !== undefined) return entry.wholeSummary;
    const rows = completedRows(columns, { fromMSec, toMSec, throughNumber });
    let lastEnd = 0;
    for (const i of rows) lastEnd = Math.max(lastEnd, times[i]! + columns.pause[i]!);
    // While recording, the last HeapStats time is not stored yet: the newest GC's end stands in.
    const { summary } = summarize(columns, rows, { lastHeapStatsMSec: whole ? (session.lastHeapStatsMSec ?? lastEnd) : lastEnd, ...(whole ? {} : { rangeSpanMSec: toMSec - fromMSec }) });
    if (cacheable) entry.wholeSummary = summary;
    return summary;
  }

  async getGcDetail(sessionId: number, gcIndex: number): Promise<GcDetail> {
    const session = await this.session(sessionId);
    const record = await getGcRecord(this.db, sessionId, gcIndex);
    if (record === undefined) throw new ApiFailure('not-found', `GC index ${gcIndex} is not in session ${sessionId}.`);
    const heaps: HeapRow[] = (await getHeapDetail(this.db, sessionId, gcIndex)).map((h) => ({
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
    const c0 = record.condemnReasons0;
    const c1 = record.condemnReasons1;
    const cond = c0 !== null && c1 !== null ? decodeCondemnedReasons(c0, c1) : null;
    return {
      record,
      reasonName: gcReasonName(record.reason),
      typeName: GC_TYPE_NAMES[record.type] ?? String(record.type),
      condemned: cond === null ? null : { initialGeneration: cond.initialGeneration, finalGeneration: cond.finalGeneration, budgetExceededGeneration: cond.budgetExceededGeneration, conditions: cond.conditions },
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

