/**
 * Heap snapshots stored as sessions of kind 'heap' (issue 38; migration 13): the session row
 * (name, process, time) plus a `heap_snapshots` row naming the .gcdump file and its totals.
 */
import type { Database } from './db.js';
import { StoreError } from './db.js';
import { createSession } from './sessions.js';

export interface HeapSnapshotRecord {
  readonly sessionId: number;
  readonly file: string;
  readonly objects: number;
  readonly bytes: number;
  readonly references: number;
  readonly gcNumber: number | null;
  readonly untypedObjects: number;
  readonly walkMs: number | null;
  readonly heapAtLastGc: number | null;
}

export interface NewHeapSnapshot extends Omit<HeapSnapshotRecord, 'sessionId'> {
  readonly name: string;
  readonly source: 'record' | 'import';
  readonly processId: number | null;
  readonly processName: string | null;
  readonly commandLine: string | null;
  readonly runtimeVersion: string | null;
  readonly os: string | null;
  readonly arch: string | null;
  /** When the heap was walked (ISO-8601). */
  readonly takenAtUtc: string | null;
}

export async function saveHeapSnapshot(db: Database, s: NewHeapSnapshot): Promise<number> {
  let id = 0;
  await db.transaction(async () => {
    id = await createSession(db, {
      kind: 'heap',
      name: s.name,
      source: s.source,
      status: 'complete',
      tracePath: s.file,
      processId: s.processId,
      processName: s.processName,
      commandLine: s.commandLine,
      runtimeVersion: s.runtimeVersion,
      os: s.os,
      arch: s.arch,
      traceStartUtc: s.takenAtUtc,
    });
    await db.run(
      'INSERT INTO heap_snapshots (session_id, file, objects, bytes, refs, gc_number, untyped_objects, walk_ms, heap_at_last_gc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [id, s.file, s.objects, s.bytes, s.references, s.gcNumber, s.untypedObjects, s.walkMs, s.heapAtLastGc],
    );
  });
  return id;
}

interface Row {
  session_id: number;
  file: string;
  objects: number;
  bytes: number;
  refs: number;
  gc_number: number | null;
  untyped_objects: number;
  walk_ms: number | null;
  heap_at_last_gc: number | null;
}

/** The snapshot of a 'heap' session; a StoreError 'not-found' when the session has none. */
export async function getHeapSnapshot(db: Database, sessionId: number): Promise<HeapSnapshotRecord> {
  const r = await db.get<Row>('SELECT * FROM heap_snapshots WHERE session_id = ?', [sessionId]);
  if (r === undefined) throw new StoreError('not-found', `session ${sessionId} holds no heap snapshot`);
  return {
    sessionId: r.session_id,
    file: r.file,
    objects: r.objects,
    bytes: r.bytes,
    references: r.refs,
    gcNumber: r.gc_number,
    untypedObjects: r.untyped_objects,
    walkMs: r.walk_ms,
    heapAtLastGc: r.heap_at_last_gc,
  };
}

/** Every stored snapshot of a process (by pid), oldest first: what a diff of "the last two" reads. */
export async function heapSnapshotsOfProcess(db: Database, processId: number): Promise<HeapSnapshotRecord[]> {
  const rows = await db.all<Row>(
    "SELECT h.* FROM heap_snapshots h JOIN sessions s ON s.id = h.session_id WHERE s.kind = 'heap' AND s.process_id = ? ORDER BY s.id",
    [processId],
  );
  return rows.map((r) => ({
    sessionId: r.session_id,
    file: r.file,
    objects: r.objects,
    bytes: r.bytes,
    references: r.refs,
    gcNumber: r.gc_number,
    untypedObjects: r.untyped_objects,
    walkMs: r.walk_ms,
    heapAtLastGc: r.heap_at_last_gc,
  }));
}

/** A snapshot taken while a recording ran (migration 14): where it sits on the recording's time axis. */
export interface HeapSnapshotLink {
  readonly snapshotSessionId: number;
  readonly recordingSessionId: number;
  readonly gcNumber: number | null;
  /** The induced GC's pause start on the recording's clock (ms since its trace began); null until known. */
  readonly atMSec: number | null;
}

export async function linkHeapSnapshot(db: Database, l: HeapSnapshotLink): Promise<void> {
  await db.run('INSERT OR REPLACE INTO heap_snapshot_links (snapshot_session_id, recording_session_id, gc_number, at_msec) VALUES (?, ?, ?, ?)', [
    l.snapshotSessionId,
    l.recordingSessionId,
    l.gcNumber,
    l.atMSec,
  ]);
}

/** The time of a link whose GC the recording had not stored when the snapshot was taken. */
export async function setHeapSnapshotLinkTime(db: Database, snapshotSessionId: number, atMSec: number): Promise<void> {
  await db.run('UPDATE heap_snapshot_links SET at_msec = ? WHERE snapshot_session_id = ?', [atMSec, snapshotSessionId]);
}

/** The GC numbers a recording's own heap snapshots induced (its links that know their GC). */
export async function snapshotGcNumbersOfRecording(db: Database, recordingSessionId: number): Promise<number[]> {
  const rows = await db.all<{ gc_number: number }>(
    'SELECT gc_number FROM heap_snapshot_links WHERE recording_session_id = ? AND gc_number IS NOT NULL ORDER BY gc_number',
    [recordingSessionId],
  );
  return rows.map((r) => r.gc_number);
}

/** A recording's snapshots, oldest first, with what its marks show (name, totals, time taken). */
export interface LinkedHeapSnapshot extends HeapSnapshotLink {
  readonly name: string;
  readonly objects: number;
  readonly bytes: number;
  readonly takenAtUtc: string | null;
}

export async function heapSnapshotsOfRecording(db: Database, recordingSessionId: number): Promise<LinkedHeapSnapshot[]> {
  const rows = await db.all<{
    snapshot_session_id: number;
    recording_session_id: number;
    gc_number: number | null;
    at_msec: number | null;
    name: string;
    objects: number;
    bytes: number;
    trace_start_utc: string | null;
  }>(
    `SELECT l.snapshot_session_id, l.recording_session_id, l.gc_number, l.at_msec, s.name, h.objects, h.bytes, s.trace_start_utc
       FROM heap_snapshot_links l
       JOIN sessions s ON s.id = l.snapshot_session_id
       JOIN heap_snapshots h ON h.session_id = l.snapshot_session_id
      WHERE l.recording_session_id = ?
      ORDER BY l.snapshot_session_id`,
    [recordingSessionId],
  );
  return rows.map((r) => ({
    snapshotSessionId: r.snapshot_session_id,
    recordingSessionId: r.recording_session_id,
    gcNumber: r.gc_number,
    atMSec: r.at_msec,
    name: r.name,
    objects: r.objects,
    bytes: r.bytes,
    takenAtUtc: r.trace_start_utc,
  }));
}
