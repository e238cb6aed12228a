/**
 * The session view's reads (the contract's getSessionData, getRangeSummary, getTableExtras,
 * getGcDetail): a session's columns — kept in memory for the few finished
 * sessions last opened, else from their stored snapshot or rows — and everything the view
 * computes from them with the same code as the report (gc/summary.ts).
 */
import { completedRows } from '../gc/rollup.js';
import { summarize } from '../gc/summary.js';
import { whyGeneration } from '../gc/why-generation.js';
import type { GcDetail, HeapRow, RangeSummary, SessionData, TableExtras } from '../shared/contract.js';
import { diagnosisFacts } from '../diagnosis/facts.js';
import type { Diagnosis, DiagnosisOverrides } from '../shared/finding.js';
import { PICKER_COLUMN_DEFS, pickerValues, SPEC_BY_FIELD, sqlColumnsOf, type GcColumns } from '../shared/gc-column-registry.js';
import {
  COMPACT_MECHANISMS,
  EXPAND_MECHANISMS,
  GC_TYPE_NAMES,
  GLOBAL_MECHANISMS,
  PAUSE_MODE_NAMES,
  flagNames,
  gcReasonName,
  mechanismName,
} from '../shared/gc-enums.js';
import { isFilterActive, passesFilter, type GcFilter } from '../shared/gc-filter.js';
import { UNAVAILABLE_REASONS } from '../shared/gc-record.js';
import { seriesFromColumns, type GcSeries } from '../shared/gc-series.js';
import type { ServerGcData } from '../shared/server-gc.js';
import { requireGcSession, type SessionInfo } from '../shared/session.js';
import { StoreError, type Database } from '../store/db.js';
import { loadViewColumns } from '../store/gc-columns.js';
import { getGcColumnArrays, getGcPinnedTypes, getGcRecord, getHeapDetail, getPerHeapSurvivedMB } from '../store/gc-store.js';
import { getSession } from '../store/sessions.js';
import { getPauseIntervals, getRequestSpans } from '../store/request-store.js';
import { snapshotGcNumbersOfRecording } from '../store/heap-snapshots.js';
import type { PauseInterval, RequestSpan } from '../shared/requests.js';
import { serverGcOfSession } from '../recording/server-gc-source.js';
import { getBgcLohWaits, getPerHeapPromotedMB } from '../store/server-gc-store.js';
import { AnalysisRunner } from './analysis-runner.js';
import { clampRange, clampSpan, sessionSpan } from './session-span.js';
import { ApiFailure } from './errors.js';
import { rangeGroups } from './group-rollup.js';
import type { LiveSummary } from './live-summary.js';
import { Lru } from '../common/lru.js';
import { PromiseCache } from '../common/promise-cache.js';

/**
 * Which version of a session's GC rows an answer is for. The kind is part of it: only a 'gc'
 * session has GC rows, and an id reused by a session of another kind must not find a GC answer.
 */
function rowsVersion(s: SessionInfo): string {
  return `${s.kind}|${s.gcCount}|${s.updatedAt}`;
}

/** Sessions whose columns stay in memory (the open one and a couple to switch back to). */
const COLUMN_CACHE_SIZE = 3;
/** Findings answers kept (whole sessions and the ranges last looked at). */
const FINDINGS_CACHE_SIZE = 16;

export class SessionViews {
  /** Columns of finished sessions, keyed by session id; `key` says which version of the rows. */
  private readonly columnCache = new Lru<number, { key: string; columns: GcColumns; wholeSummary?: RangeSummary; series?: GcSeries; serverGc?: ServerGcData }>(
    COLUMN_CACHE_SIZE,
  );
  /** Column reads under way, so requests arriving together share one. */
  private readonly columnLoads = new Map<number, { key: string; columns: Promise<GcColumns> }>();
  /** The last diagnosis of each recording (see getFindings). */
  private readonly liveFindings = new Map<number, { key: string; at: number; tookMs: number; diagnosis: Diagnosis }>();
  /**
   * Findings of finished sessions, by session version, range and settings, most recently used
   * last: the same question has the same answer. A 100,000-GC session's diagnosis takes about a
   * second of the worker, and every opening of the session asks it again (a reopen while the last
   * one was still computing used to run it twice, on a 2-core machine beside the page drawing).
   */
  private readonly findingsCache = new PromiseCache<string, Diagnosis>(FINDINGS_CACHE_SIZE);
  /** A finished session's request spans and pauses for its findings (read once, not at each range the user drags). */
  private readonly requestsCache = new PromiseCache<number, { spans: RequestSpan[]; pauses: PauseInterval[] }>(4);
  /** Column snapshots being written (after their view got the columns). */
  private readonly snapshotWrites = new Set<Promise<void>>();

  /** Settles once every snapshot being written is stored (before the database closes). */
  async settled(): Promise<void> {
    await Promise.all([...this.snapshotWrites]);
    await this.analyses.close();
  }

  constructor(
    private readonly db: Database,
    /** Whether a session is being recorded by this service (its columns are not cached). */
    private readonly isRecording: (sessionId: number) => boolean,
    /** A recording's incrementally kept whole-session summary. */
    private readonly liveSummary: (sessionId: number) => LiveSummary | undefined,
    /** A recording's columns, kept from its live batches (the same records the view appends). */
    private readonly liveColumns: (sessionId: number) => GcColumns | undefined = () => undefined,
    /** Where findings and comparisons are computed (a worker thread in the app and `gcscope serve`). */
    readonly analyses: AnalysisRunner = new AnalysisRunner(undefined),
    /** A recording's request spans and pauses so far, kept from its live batches (requests/lane.ts LiveRequestLane): not read back from the store each second. */
    private readonly liveRequests: (sessionId: number) => { spans: readonly RequestSpan[]; pauses: readonly PauseInterval[] } | undefined = () => undefined,
  ) {}

  /** Drops a session's cached columns (deleted or re-imported). */
  forget(sessionId: number): void {
    this.columnCache.delete(sessionId);
    this.requestsCache.delete(sessionId);
    this.columnLoads.delete(sessionId);
    this.liveFindings.delete(sessionId);
    this.findingsCache.deleteWhere((k) => k.startsWith(`${sessionId}|`));
  }

  /** A session's row, or the contract's not-found error. */
  async session(id: number): Promise<SessionInfo> {
    try {
      return await getSession(this.db, id);
    } catch (e) {
      if (e instanceof StoreError && e.code === 'not-found') throw new ApiFailure('not-found', `Session ${id} does not exist (it may have been deleted).`);
      throw e;
    }
  }

  /**
   * A GC recording's row, for the GC-only answers (columns, summaries, findings, detail): a
   * session of another kind is refused with a SessionKindError (code 'wrong-session-kind'), not
   * shown as a session without GCs.
   */
  async gcSession(id: number): Promise<SessionInfo> {
    return requireGcSession(await this.session(id));
  }

  /**
   * A session's view columns. Finished sessions come from memory or their stored snapshot (a
   * 100 000-GC session reads in milliseconds instead of about a second); a session this service
   * is recording comes from the columns kept from its live batches; one recorded elsewhere is
   * read from its rows every time.
   */
  async viewColumns(session: SessionInfo): Promise<GcColumns> {
    // Every GC view reads these (comparisons and Server GC data included): refused here, a
    // session of another kind never reaches a GC cache.
    requireGcSession(session);
    const finished = session.status !== 'recording' && !this.isRecording(session.id);
    // A recording of this service: the columns kept from its batches, not a re-read of every row
    // (findings and filtered tiles ask up to once a second while it records).
    const live = finished ? undefined : this.liveColumns(session.id);
    if (live !== undefined) return live;
    const key = rowsVersion(session);
    const cached = this.columnCache.peek(session.id);
    if (finished && cached?.key === key) {
      this.columnCache.get(session.id); // now the most recently used
      return cached.columns;
    }
    // Opening a session asks for its data, summary, findings and Server GC data at once: one read
    // of its columns serves them all (each used to read every row, or the whole snapshot, again).
    const flight = this.columnLoads.get(session.id);
    if (flight?.key === key) return flight.columns;
    const loading = this.loadColumns(session, key, finished);
    this.columnLoads.set(session.id, { key, columns: loading });
    try {
      return await loading;
    } finally {
      if (this.columnLoads.get(session.id)?.columns === loading) this.columnLoads.delete(session.id);
    }
  }

  private async loadColumns(session: SessionInfo, key: string, finished: boolean): Promise<GcColumns> {
    const { columns, stored } = await loadViewColumns(this.db, session.id, { gcCount: session.gcCount, store: finished });
    // The snapshot is written after the view has its columns; closing waits for it.
    this.snapshotWrites.add(stored);
    void stored.finally(() => this.snapshotWrites.delete(stored));
    if (finished) {
      this.columnCache.set(session.id, { key, columns });
    }
    return columns;
  }

  async getSessionData(sessionId: number): Promise<SessionData> {
    const session = await this.gcSession(sessionId);
    const columns = await this.viewColumns(session);
    // A finished session's series (its columns narrowed to the wire's array types) is kept with
    // its columns: reopening it costs no conversion.
    const entry = this.columnCache.peek(sessionId);
    const cached = entry?.columns === columns ? entry.series : undefined;
    const series = cached ?? seriesFromColumns(columns);
    if (entry?.columns === columns) entry.series = series;
    const { startMSec, endMSec } = sessionSpan(session, series);
    return { session, series, startMSec, endMSec, live: this.isRecording(sessionId) };
  }

  async getRangeSummary(sessionId: number, askedFrom: number, askedTo: number, throughNumber?: number | null, filter?: GcFilter): Promise<RangeSummary> {
    const through = throughNumber ?? undefined;
    const f = filter !== undefined && isFilterActive(filter) ? filter : null;
    // A recording's whole-session summary is kept up to date as GCs arrive (not re-read); a
    // filtered summary is computed from the columns like any other.
    const live = f === null ? this.liveSummary(sessionId) : undefined;
    if (live !== undefined && live.covers(Math.min(askedFrom, askedTo), Math.max(askedFrom, askedTo))) return live.summary();
    const session = await this.gcSession(sessionId);
    const columns = await this.viewColumns(session);
    // Within the session (issue 40: -1e308…1e308 made % paused a share of 10^308 ms).
    const recording = session.status === 'recording' || this.isRecording(sessionId);
    const { fromMSec, toMSec } = clampRange(clampSpan(sessionSpan(session, columns), recording), askedFrom, askedTo);
    const times = columns.time;
    // The whole session: TraceEvent's definition of % paused (pause over the time from the first
    // GC to the last HeapStats), so the app shows the number `report` prints.
    const whole = times.length > 0 && fromMSec <= times[0]! && toMSec >= times[times.length - 1]!;
    // Every view opens on the whole session: a finished session's answer is kept with its columns.
    const entry = this.columnCache.peek(sessionId);
    const cacheable = whole && through === undefined && f === null && entry?.columns === columns;
    if (cacheable && entry.wholeSummary !== undefined) return entry.wholeSummary;
    const inRange = completedRows(columns, { fromMSec, toMSec, ...(through !== undefined ? { throughNumber: through } : {}) });
    // The table's filter, by the same predicate the table uses (shared/gc-filter.ts).
    const rows =
      f === null
        ? inRange
        : inRange.filter((i) => passesFilter(f, columns.generation[i]!, columns.type[i]!, columns.reason[i]!, columns.pause[i]!, columns.number[i]!));
    const lastPauseEnd = (of: ArrayLike<number>): number => {
      let end = 0;
      for (let k = 0; k < of.length; k++) end = Math.max(end, times[of[k]!]! + columns.pause[of[k]!]!);
      return end;
    };
    const lastEnd = lastPauseEnd(rows);
    // While recording, the last HeapStats time is not stored yet: the newest GC's end stands in.
    // Filtered: % paused is the share of the time spent in the pauses of the GCs that pass, over
    // the span the unfiltered tile names: the range's, or for the whole session the same first
    // GC to last HeapStats (so a filter every GC passes changes nothing, and a filter's % is
    // never over a longer time than the whole session's).
    const exact = whole && f === null;
    let span = toMSec - fromMSec;
    if (whole && !exact && inRange.length > 0) span = (session.lastHeapStatsMSec ?? lastPauseEnd(inRange)) - times[inRange[0]!]!;
    const { summary: base, rollup: r } = summarize(columns, rows, {
      lastHeapStatsMSec: whole ? (session.lastHeapStatsMSec ?? lastEnd) : lastEnd,
      ...(exact ? {} : { rangeSpanMSec: span }),
    });
    const summary: RangeSummary = { ...base, ...rangeGroups(columns, rows, r.generations), pausedOverMSec: exact ? base.processDurationMSec : span };
    if (cacheable) entry.wholeSummary = summary;
    return summary;
  }

  /**
   * The findings of a session or of a range of it (the Findings panel): the same diagnosis as
   * `gcscope diagnose`, over the view's columns. A recording is diagnosed as far as its stored GCs go.
   */
  /**
   * `throughNumber` (a recording's view: its newest GC) diagnoses no GC the view does not have yet,
   * so the findings line never counts more GCs than the header, tiles and table beside it (it
   * read 1,136 beside 1,101: the service's columns are a batch or two ahead of the page's).
   */
  async getFindings(
    sessionId: number,
    fromMSec: number | null,
    toMSec: number | null,
    overrides: DiagnosisOverrides,
    throughNumber?: number | null,
  ): Promise<Diagnosis> {
    // A recording is diagnosed again only after ten times as long as its last diagnosis took (at
    // least a second): the diagnosis grows with the session, and asked every second it would take
    // a growing share of the thread that also serves the live batches (at 100 GCs/s, a third of
    // it after ten minutes). Its answer in between is the last one.
    const recording = this.isRecording(sessionId);
    if (fromMSec !== null && toMSec !== null) {
      // Within the session, in order (issue 40: -1e308…1e308 spun the diagnosis's windows).
      const session = await this.gcSession(sessionId);
      const span = clampSpan(sessionSpan(session, await this.viewColumns(session)), recording || session.status === 'recording');
      ({ fromMSec, toMSec } = clampRange(span, fromMSec, toMSec));
    }
    const key = `${fromMSec}|${toMSec}|${JSON.stringify(overrides)}`;
    if (!recording) {
      const session = await this.gcSession(sessionId);
      if (session.status !== 'recording') {
        // A failure is not kept: asked again, it is computed again.
        const diagnosis = this.findingsCache.get(`${sessionId}|${key}`, rowsVersion(session), () =>
          this.diagnoseSession(sessionId, fromMSec, toMSec, overrides),
        );
        this.liveFindings.delete(sessionId);
        return diagnosis;
      }
    }
    const last = recording ? this.liveFindings.get(sessionId) : undefined;
    if (last !== undefined && last.key === key && Date.now() - last.at < Math.max(1000, 10 * last.tookMs)) return last.diagnosis;
    const started = performance.now();
    const diagnosis = await this.diagnoseSession(sessionId, fromMSec, toMSec, overrides, recording ? (throughNumber ?? undefined) : undefined);
    if (recording) this.liveFindings.set(sessionId, { key, at: Date.now(), tookMs: performance.now() - started, diagnosis });
    else this.liveFindings.delete(sessionId);
    return diagnosis;
  }

  private async diagnoseSession(
    sessionId: number,
    fromMSec: number | null,
    toMSec: number | null,
    overrides: DiagnosisOverrides,
    throughNumber?: number,
  ): Promise<Diagnosis> {
    const session = await this.gcSession(sessionId);
    let columns = await this.viewColumns(session);
    if (throughNumber !== undefined) columns = columnsThrough(columns, throughNumber);
    if (session.status === 'recording' || this.isRecording(sessionId)) columns = await this.withStoredLohWaits(sessionId, columns);
    // Per-heap data only matters (server-heap-imbalance) when some GC ran on more than one heap:
    // a workstation recording's mark rows were re-read every time its findings were asked.
    let heaps = session.heapCount ?? 0;
    for (let i = 0; i < columns.heapCount.length; i++) if (columns.heapCount[i]! > heaps) heaps = columns.heapCount[i]!;
    const perHeap = session.hasPerHeapHistory && heaps > 1 ? await this.perHeapSurvived(session) : undefined;
    const range = fromMSec !== null && toMSec !== null ? { fromMSec: Math.min(fromMSec, toMSec), toMSec: Math.max(fromMSec, toMSec) } : undefined;
    // Request spans (issue 42): the request-tail-gc rule reads them, as `gcscope diagnose --session` does.
    const live = this.liveRequests(sessionId);
    const stored = async (): Promise<{ spans: RequestSpan[]; pauses: PauseInterval[] }> => {
      const [spans, pauses] = await Promise.all([getRequestSpans(this.db, sessionId), getPauseIntervals(this.db, sessionId)]);
      return { spans, pauses };
    };
    const finishedRows = session.status !== 'recording' && !this.isRecording(sessionId);
    const [serverGc, perHeapPromotedMB, { spans, pauses }, snapshotGcNumbers] = await Promise.all([
      this.serverGcData(session),
      heaps > 1 ? getPerHeapPromotedMB(this.db, sessionId) : new Map<number, number[]>(),
      live ?? (finishedRows ? this.requestsCache.get(sessionId, rowsVersion(session), stored) : stored()),
      // The gen2 GCs GCScope's own heap snapshots induced: the induced-GCs rule leaves them out.
      snapshotGcNumbersOfRecording(this.db, sessionId),
    ]);
    const facts = diagnosisFacts({
      ...session,
      serverGc,
      cpuCount: session.cpuCount,
      ...(perHeapPromotedMB.size > 0 ? { perHeapPromotedMB } : {}),
      ...(perHeap !== undefined ? { perHeapSurvivedMB: perHeap } : {}),
      ...(spans.length > 0 ? { requests: { spans, pauses } } : {}),
      snapshotGcNumbers,
    });
    const finished = session.status !== 'recording' && !this.isRecording(sessionId);
    return this.analyses.diagnose({
      key: finished ? `${session.id}|${rowsVersion(session)}|${snapshotGcNumbers.join(',')}` : null,
      columns,
      facts,
      overrides,
      ...(range !== undefined ? { range } : {}),
    });
  }

  /**
   * A session's DATAS / Server GC data (getServerGc, and the diagnosis's facts): per-GC heap
   * counts from the view columns; a finished session's answer is kept with its columns.
   */
  async serverGcData(session: SessionInfo): Promise<ServerGcData> {
    const columns = await this.viewColumns(session);
    const entry = this.columnCache.peek(session.id);
    const cacheable = entry?.columns === columns;
    if (cacheable && entry.serverGc !== undefined) return entry.serverGc;
    const data = await serverGcOfSession(this.db, session, columns);
    if (cacheable) entry.serverGc = data;
    return data;
  }

  /**
   * A recording's columns come from its live batches, which carry each GC once, as it completed;
   * the LOH allocation waits of a background GC end after it did (gc/bgc-alloc-waits.ts), so they
   * reach only its stored row. Those rows are few (background GCs with waits measured): read them
   * and put their waits into a copy of the two columns the diagnosis reads.
   */
  private async withStoredLohWaits(sessionId: number, columns: GcColumns): Promise<GcColumns> {
    const rows = await getBgcLohWaits(this.db, sessionId);
    if (rows.length === 0) return columns;
    const max = Float64Array.from(columns.lohWaitMax);
    const total = Float64Array.from(columns.lohWaitTotal);
    for (const r of rows) {
      if (r.idx >= max.length) continue;
      max[r.idx] = r.maxMSec;
      total[r.idx] = r.totalMSec;
    }
    return { ...columns, lohWaitMax: max, lohWaitTotal: total };
  }

  /** Server GC survivors per heap (kept for the last finished session asked: live ones re-read). */
  private heapCache: { id: number; key: string; value: Map<number, number[][]> } | undefined;
  private async perHeapSurvived(session: SessionInfo): Promise<Map<number, number[][]>> {
    const key = rowsVersion(session);
    if (this.heapCache?.id === session.id && this.heapCache.key === key) return this.heapCache.value;
    const value = await getPerHeapSurvivedMB(this.db, session.id);
    if (session.status !== 'recording' && !this.isRecording(session.id)) this.heapCache = { id: session.id, key, value };
    return value;
  }

  /**
   * The GC table's picker columns (the column registry's `picker` entries), read from the rows
   * when shown: a stored entry's SQL column, a derived one computed from the fields it reads.
   */
  async getTableExtras(sessionId: number): Promise<TableExtras> {
    const session = await this.gcSession(sessionId);
    const sqlCols = new Set<string>(['heap_after_mb']);
    for (const p of PICKER_COLUMN_DEFS) {
      if (p.spec.derive === undefined) sqlCols.add(p.sql);
      else for (const f of p.spec.from ?? []) for (const c of sqlColumnsOf(SPEC_BY_FIELD.get(f)!)) sqlCols.add(c);
    }
    const raw = await getGcColumnArrays(this.db, sessionId, [...sqlCols]);
    const n = raw.heap_after_mb!.length;
    const columns = {} as TableExtras['columns'];
    const missing: TableExtras['missing'] = {};
    const empty = (c: Float64Array): boolean => c.every((v) => Number.isNaN(v));
    // Why one is empty: the trace lacks what it needs (UNAVAILABLE_REASONS), or the entry's own reason.
    const has = { noPerHeapHistory: session.hasPerHeapHistory, noPinEvents: session.hasPinEvents };
    for (const p of PICKER_COLUMN_DEFS) {
      const col = pickerValues(p, n, (sql) => raw[sql]!);
      columns[p.key] = col;
      const lacks = p.needs !== undefined && !has[p.needs] && (n > 0 || p.needs === 'noPinEvents');
      if (lacks || empty(col))
        missing[p.key] =
          `not in this trace: ${lacks ? UNAVAILABLE_REASONS[p.needs!] : (p.emptyWhy ?? (p.needs !== undefined ? UNAVAILABLE_REASONS[p.needs] : 'no GC has a value'))}`;
    }
    return { columns, missing };
  }

  async getGcDetail(sessionId: number, gcIndex: number): Promise<GcDetail> {
    const session = await this.gcSession(sessionId);
    const record = await getGcRecord(this.db, sessionId, gcIndex);
    if (record === undefined) throw new ApiFailure('not-found', `GC index ${gcIndex} is not in session ${sessionId}.`);
    const [heapDetail, pinnedTypes] = await Promise.all([getHeapDetail(this.db, sessionId, gcIndex), getGcPinnedTypes(this.db, sessionId, gcIndex)]);
    const heaps: HeapRow[] = heapDetail.map((h) => ({
      heap: h.heap,
      sizeBeforeMB: h.gens.map((g) => g.sizeBefore / 1e6),
      sizeAfterMB: h.gens.map((g) => g.sizeAfter / 1e6),
      survivalPercent: h.gens.map((g, i) => {
        const notCollected = i >= 3 ? record.generation < 2 : i > record.generation;
        const before = g.sizeBefore - g.freeListSpaceBefore - g.freeObjSpaceBefore;
        return notCollected ? null : before === 0 ? 0 : Math.trunc(((g.pinnedSurv + g.nonePinnedSurv) * 100) / before);
      }),
      fragmentationMB: h.gens.map((g) => (g.freeListSpaceAfter + g.freeObjSpaceAfter) / 1e6),
      budgetMB: h.gens.map((g) => g.newAllocation / 1e6),
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
      why: whyGeneration({
        generation: record.generation,
        type: record.type,
        reason: record.reason,
        globalReasons0: record.condemnReasons0,
        globalReasons1: record.condemnReasons1,
        heaps: heapDetail,
      }),
      globalMechanisms: record.globalMechanisms === null ? [] : flagNames(record.globalMechanisms, GLOBAL_MECHANISMS),
      pauseModeName: record.pauseMode === null ? null : (PAUSE_MODE_NAMES[record.pauseMode] ?? String(record.pauseMode)),
      heaps,
      pinned: session.hasPinEvents ? pinnedTypes : null,
      notes,
    };
  }
}

/**
 * The columns of the GCs numbered at most `through`: a prefix, since a session's columns are in
 * GC order (views, not copies).
 */
export function columnsThrough(c: GcColumns, through: number): GcColumns {
  let k = c.number.length;
  while (k > 0 && c.number[k - 1]! > through) k--;
  if (k === c.number.length) return c;
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(c)) out[name] = ArrayBuffer.isView(v) && !(v instanceof DataView) ? (v as Float64Array).subarray(0, k) : v;
  return out as unknown as GcColumns;
}
