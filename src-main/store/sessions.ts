/** Sessions: create, update, list, find, rename/tag, delete (GC rows cascade). */
import type { SessionInfo, SessionKind, SessionSource, SessionStatus } from '../shared/session.js';
import { StoreError, type Database, type SqlValue } from './db.js';
import { PromiseCache } from '../common/promise-cache.js';
import { heapCountSpan } from '../shared/server-gc.js';
import { readColumnSnapshot } from './gc-columns.js';
import { REQUEST_TABLES } from './request-store.js';
import { STACK_TABLES } from './stack-store.js';

interface SessionRow {
  id: number;
  kind: SessionKind;
  name: string;
  source: SessionSource;
  status: SessionStatus;
  status_reason: string | null;
  created_at: string;
  updated_at: string;
  trace_path: string | null;
  file_size: number | null;
  format: string | null;
  trace_start_utc: string | null;
  qpc_frequency: number | null;
  process_id: number | null;
  process_name: string | null;
  command_line: string | null;
  runtime_version: string | null;
  os: string | null;
  arch: string | null;
  cpu_count: number | null;
  pointer_size: number | null;
  gc_mode: string | null;
  concurrent: number | null;
  heap_count: number | null;
  event_count: number;
  dropped_events: number;
  first_event_msec: number | null;
  last_event_msec: number | null;
  last_heap_stats_msec: number | null;
  has_per_heap_history: number;
  has_alloc_ticks: number;
  has_pin_events: number;
  non_gc_suspensions: number;
  undecodable_events: number;
  recorder_pid: number | null;
  tags: string;
  notes: string;
  gc_count: number;
  incomplete_gcs: number;
  max_pause_msec: number | null;
  total_pause_msec: number | null;
  first_gc_msec: number | null;
  min_gc_heap_count: number | null;
  max_gc_heap_count: number | null;
  /** A heap snapshot's totals (heap_snapshots) and the recording it was taken from (heap_snapshot_links); null for other kinds. */
  heap_objects: number | null;
  heap_bytes: number | null;
  heap_recording_id: number | null;
}

/** Columns a caller may set (camelCase → column). */
const FIELDS = {
  name: 'name',
  status: 'status',
  statusReason: 'status_reason',
  tracePath: 'trace_path',
  fileSize: 'file_size',
  fileFingerprint: 'file_fingerprint',
  format: 'format',
  traceStartUtc: 'trace_start_utc',
  qpcFrequency: 'qpc_frequency',
  syncTimeQpc: 'sync_time_qpc',
  pointerSize: 'pointer_size',
  processId: 'process_id',
  processName: 'process_name',
  commandLine: 'command_line',
  runtimeVersion: 'runtime_version',
  os: 'os',
  arch: 'arch',
  cpuCount: 'cpu_count',
  gcMode: 'gc_mode',
  concurrent: 'concurrent',
  heapCount: 'heap_count',
  gcSettings: 'gc_settings',
  eventCount: 'event_count',
  droppedEvents: 'dropped_events',
  firstEventMSec: 'first_event_msec',
  lastEventMSec: 'last_event_msec',
  lastHeapStatsMSec: 'last_heap_stats_msec',
  hasPerHeapHistory: 'has_per_heap_history',
  hasAllocTicks: 'has_alloc_ticks',
  hasPinEvents: 'has_pin_events',
  nonGCSuspensions: 'non_gc_suspensions',
  undecodableEvents: 'undecodable_events',
  recorderPid: 'recorder_pid',
  tags: 'tags',
  notes: 'notes',
} as const;

export type SessionUpdate = Partial<Record<keyof typeof FIELDS, SqlValue | boolean | string[]>>;

function sqlValue(v: SqlValue | boolean | string[] | undefined): SqlValue {
  if (v === undefined) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (Array.isArray(v)) return JSON.stringify(v);
  return v;
}

const now = (): string => new Date().toISOString();

/**
 * A new session row. `kind` is required (not the column's default): every path that creates a
 * session says what it holds, so a new kind cannot be stored as a GC recording by omission.
 */
export async function createSession(
  db: Database,
  init: { kind: SessionKind; name: string; source: SessionSource; status: SessionStatus } & SessionUpdate,
): Promise<number> {
  const { lastID } = await db.run('INSERT INTO sessions (kind, name, source, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [
    init.kind,
    init.name,
    init.source,
    init.status,
    now(),
    now(),
  ]);
  const { kind: _kind, name: _name, source: _source, status: _status, ...rest } = init;
  if (Object.keys(rest).length > 0) await updateSession(db, lastID, rest);
  return lastID;
}

export async function updateSession(db: Database, id: number, u: SessionUpdate): Promise<void> {
  const sets: string[] = [];
  const params: SqlValue[] = [];
  for (const [k, v] of Object.entries(u)) {
    const col = FIELDS[k as keyof typeof FIELDS];
    if (col === undefined) throw new StoreError('sql', `unknown session field ${k}`);
    sets.push(`${col} = ?`);
    params.push(sqlValue(v as SqlValue | boolean | string[]));
  }
  sets.push('updated_at = ?');
  params.push(now(), id);
  const { changes } = await db.run(`UPDATE sessions SET ${sets.join(', ')} WHERE id = ?`, params);
  if (changes === 0) throw new StoreError('not-found', `no session ${id}`);
}

// A heap snapshot's row carries its totals and its recording, so the Sessions list and
// `gcscope sessions` show them without opening the .gcdump (both tables are keyed by the session).
const SELECT = `SELECT s.*, h.objects AS heap_objects, h.bytes AS heap_bytes, l.recording_session_id AS heap_recording_id
  FROM sessions s LEFT JOIN heap_snapshots h ON h.session_id = s.id LEFT JOIN heap_snapshot_links l ON l.snapshot_session_id = s.id`;

/** What a session row carries from its GC rows (one scan of them each: ~15 ms at 100,000 GCs), and the heaps its GCs had (gcHeapCounts). */
type GcAggregates = Pick<
  SessionRow,
  'gc_count' | 'incomplete_gcs' | 'max_pause_msec' | 'total_pause_msec' | 'first_gc_msec' | 'min_gc_heap_count' | 'max_gc_heap_count'
>;
const AGGREGATES = `SELECT
  (SELECT COUNT(*) FROM gcs g WHERE g.session_id = ?1) AS gc_count,
  (SELECT COUNT(*) FROM gcs g WHERE g.session_id = ?1 AND g.is_complete = 0) AS incomplete_gcs,
  (SELECT MAX(pause_msec) FROM gcs g WHERE g.session_id = ?1 AND g.is_complete = 1) AS max_pause_msec,
  (SELECT SUM(pause_msec) FROM gcs g WHERE g.session_id = ?1 AND g.is_complete = 1) AS total_pause_msec,
  (SELECT MIN(pause_start_msec) FROM gcs g WHERE g.session_id = ?1 AND g.is_complete = 1) AS first_gc_msec`;

/**
 * The fewest and most heaps a Server GC session's GCs had (each GC's own count; the Sessions
 * list's "1–4 heaps" under DATAS). No index holds heap_count, and a scan of the rows costs ~70 ms
 * at 100,000 GCs (the other aggregates, from indexes, ~15 ms together): a finished session's
 * column snapshot answers instead when it has one (every session of SNAPSHOT_AT_IMPORT_MIN_GCS
 * GCs or more from its import, any other once opened), and the scan is left to small or
 * unfinished sessions. Workstation sessions have one heap: nothing is read.
 */
async function gcHeapCounts(
  db: Database,
  r: Pick<SessionRow, 'id' | 'gc_mode' | 'status'>,
  gcCount: number,
): Promise<Pick<SessionRow, 'min_gc_heap_count' | 'max_gc_heap_count'>> {
  if (r.gc_mode?.startsWith('server') !== true || gcCount === 0) return { min_gc_heap_count: null, max_gc_heap_count: null };
  if (r.status !== 'recording') {
    const snap = await readColumnSnapshot(db, r.id, ['heap_count'], gcCount);
    if (snap !== undefined) {
      const span = heapCountSpan(snap.heap_count);
      return { min_gc_heap_count: span?.min ?? null, max_gc_heap_count: span?.max ?? null };
    }
  }
  return (await db.get<Pick<SessionRow, 'min_gc_heap_count' | 'max_gc_heap_count'>>(
    'SELECT MIN(heap_count) AS min_gc_heap_count, MAX(heap_count) AS max_gc_heap_count FROM gcs WHERE session_id = ? AND heap_count > 0',
    [r.id],
  ))!;
}

async function readAggregates(db: Database, r: Omit<SessionRow, keyof GcAggregates>): Promise<GcAggregates> {
  const a = (await db.get<Omit<GcAggregates, 'min_gc_heap_count' | 'max_gc_heap_count'>>(AGGREGATES, [r.id]))!;
  return { ...a, ...(await gcHeapCounts(db, r, a.gc_count)) };
}

/**
 * Each database's aggregates of its finished sessions. Opening a session reads its row five or six
 * times at once (its data, summary, findings, Server GC data, the Sessions list), and the scans
 * queued on the one connection held back the session's data. A session's GC rows are written only
 * while its status is 'recording' (the recorder, an import, a re-import or a recovery all set it
 * first, in whichever process, and set the final status last), so a finished session's aggregates
 * hold until its row changes: the key is its status and update time.
 */
const aggregateCache = new WeakMap<Database, PromiseCache<number, GcAggregates>>();

async function withAggregates(db: Database, r: Omit<SessionRow, keyof GcAggregates>): Promise<SessionRow> {
  let cache = aggregateCache.get(db);
  if (cache === undefined) aggregateCache.set(db, (cache = new PromiseCache()));
  if (r.status === 'recording') {
    cache.delete(r.id);
    return { ...r, ...(await readAggregates(db, r)) };
  }
  // Kept while in flight too: the reads of one opening share one scan.
  // The kind too: an id reused by a session of another kind is another session.
  const aggregates = await cache.get(r.id, `${r.kind}|${r.status}|${r.created_at}|${r.updated_at}`, () => readAggregates(db, r));
  return { ...r, ...aggregates };
}

/**
 * TraceEvent's GetGCPauseTimePercentage (as gc/rollup.ts and the session's tile): total pause
 * over the time from the first completed GC's pause start to the last HeapStats.
 */
function pausePercent(r: SessionRow): number | null {
  if (r.total_pause_msec === null || r.first_gc_msec === null || r.last_heap_stats_msec === null) return null;
  const span = r.last_heap_stats_msec - r.first_gc_msec;
  return span > 0 ? (r.total_pause_msec * 100) / span : null;
}

function toInfo(r: SessionRow): SessionInfo {
  return {
    id: r.id,
    kind: r.kind,
    name: r.name,
    source: r.source,
    status: r.status,
    statusReason: r.status_reason,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    tracePath: r.trace_path,
    fileSize: r.file_size,
    format: r.format,
    traceStartUtc: r.trace_start_utc,
    qpcFrequency: r.qpc_frequency,
    processId: r.process_id,
    processName: r.process_name,
    commandLine: r.command_line,
    runtimeVersion: r.runtime_version,
    os: r.os,
    arch: r.arch,
    cpuCount: r.cpu_count,
    pointerSize: r.pointer_size,
    gcMode: r.gc_mode,
    concurrent: r.concurrent === null ? null : r.concurrent === 1,
    heapCount: r.heap_count,
    gcHeapCounts: r.min_gc_heap_count !== null && r.max_gc_heap_count !== null ? { min: r.min_gc_heap_count, max: r.max_gc_heap_count } : null,
    eventCount: r.event_count,
    droppedEvents: r.dropped_events,
    firstEventMSec: r.first_event_msec,
    lastEventMSec: r.last_event_msec,
    lastHeapStatsMSec: r.last_heap_stats_msec,
    hasPerHeapHistory: r.has_per_heap_history === 1,
    hasAllocTicks: r.has_alloc_ticks === 1,
    hasPinEvents: r.has_pin_events === 1,
    nonGCSuspensions: r.non_gc_suspensions,
    undecodableEvents: r.undecodable_events,
    recorderPid: r.recorder_pid,
    tags: JSON.parse(r.tags) as string[],
    notes: r.notes,
    gcCount: r.gc_count,
    incompleteGCs: r.incomplete_gcs,
    maxPauseMSec: r.max_pause_msec,
    totalPauseMSec: r.total_pause_msec ?? 0,
    firstGcMSec: r.first_gc_msec,
    pauseTimePercentage: pausePercent(r),
    heapSnapshot: r.heap_objects !== null && r.heap_bytes !== null ? { objects: r.heap_objects, bytes: r.heap_bytes, recordingId: r.heap_recording_id } : null,
  };
}

export async function listSessions(db: Database): Promise<SessionInfo[]> {
  const rows = await db.all<Omit<SessionRow, keyof GcAggregates>>(`${SELECT} ORDER BY s.id DESC`);
  return (await Promise.all(rows.map((r) => withAggregates(db, r)))).map(toInfo);
}

export async function getSession(db: Database, id: number): Promise<SessionInfo> {
  const r = await db.get<Omit<SessionRow, keyof GcAggregates>>(`${SELECT} WHERE s.id = ?`, [id]);
  if (r === undefined) throw new StoreError('not-found', `no session ${id} in the database ${db.path}`);
  return toInfo(await withAggregates(db, r));
}

export async function findByFingerprint(db: Database, fingerprint: string): Promise<SessionInfo | undefined> {
  const r = await db.get<Omit<SessionRow, keyof GcAggregates>>(`${SELECT} WHERE s.file_fingerprint = ? ORDER BY s.id DESC LIMIT 1`, [fingerprint]);
  return r === undefined ? undefined : toInfo(await withAggregates(db, r));
}

export async function sessionsWithStatus(db: Database, status: SessionStatus): Promise<SessionInfo[]> {
  const rows = await db.all<Omit<SessionRow, keyof GcAggregates>>(`${SELECT} WHERE s.status = ? ORDER BY s.id`, [status]);
  return (await Promise.all(rows.map((r) => withAggregates(db, r)))).map(toInfo);
}

/** A session's status alone, or undefined when there is no such session: no aggregates are read. */
export async function getSessionStatus(db: Database, id: number): Promise<SessionStatus | undefined> {
  return (await db.get<{ status: SessionStatus }>('SELECT status FROM sessions WHERE id = ?', [id]))?.status;
}

/**
 * Empties a session of what its import wrote (GC rows, per-heap rows, column snapshots, dynamic
 * events, stacks and samples) and keeps the session row: a re-import into the same session
 * (`sessionId` given to importTrace) starts from nothing, as a new one would.
 */
/**
 * Empties a session for a re-import, in one transaction: deleted one statement at a time, a full
 * disk between two of them (the WAL grows with each) left per-heap rows without their GC.
 */
export async function clearSessionRows(db: Database, sessionId: number): Promise<void> {
  await db.transaction(async () => {
    await db.run('DELETE FROM gc_heaps WHERE session_id = ?', [sessionId]);
    await db.run('DELETE FROM gcs WHERE session_id = ?', [sessionId]);
    await db.run('DELETE FROM gc_columns WHERE session_id = ?', [sessionId]);
    await db.run('DELETE FROM gc_dynamic_events WHERE session_id = ?', [sessionId]);
    await db.run('DELETE FROM gc_pinned_types WHERE session_id = ?', [sessionId]);
    for (const t of REQUEST_TABLES) await db.run(`DELETE FROM ${t} WHERE session_id = ?`, [sessionId]);
    for (const t of STACK_TABLES) await db.run(`DELETE FROM ${t} WHERE session_id = ?`, [sessionId]);
  });
}

export async function deleteSession(db: Database, id: number): Promise<void> {
  aggregateCache.get(db)?.delete(id);
  const { changes } = await db.run('DELETE FROM sessions WHERE id = ?', [id]);
  if (changes === 0) throw new StoreError('not-found', `no session ${id} in the database ${db.path}`);
}
