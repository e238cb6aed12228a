/** Flight-recorder captures (migration 7): one row per capture a watch wrote. */
import type { CaptureInfo, CaptureStatus } from '../shared/capture.js';
import type { Database } from './db.js';

interface Row {
  id: number;
  session_id: number;
  created_at: string;
  trigger: string;
  detail: string;
  gc_number: number;
  gc_start_msec: number;
  gc_end_msec: number;
  from_msec: number | null;
  to_msec: number | null;
  path: string;
  bytes: number | null;
  verbose_path: string | null;
  capture_session_id: number | null;
  status: CaptureStatus;
}

function toInfo(r: Row): CaptureInfo {
  return {
    id: r.id,
    sessionId: r.session_id,
    createdAt: r.created_at,
    trigger: r.trigger,
    detail: r.detail,
    gcNumber: r.gc_number,
    gcStartMSec: r.gc_start_msec,
    gcEndMSec: r.gc_end_msec,
    fromMSec: r.from_msec,
    toMSec: r.to_msec,
    path: r.path,
    bytes: r.bytes,
    verbosePath: r.verbose_path,
    captureSessionId: r.capture_session_id,
    status: r.status,
  };
}

export async function addCapture(
  db: Database,
  c: Pick<CaptureInfo, 'sessionId' | 'trigger' | 'detail' | 'gcNumber' | 'gcStartMSec' | 'gcEndMSec' | 'path'>,
): Promise<number> {
  const { lastID } = await db.run(
    'INSERT INTO captures (session_id, created_at, trigger, detail, gc_number, gc_start_msec, gc_end_msec, path, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [c.sessionId, new Date().toISOString(), c.trigger, c.detail, c.gcNumber, c.gcStartMSec, c.gcEndMSec, c.path, 'writing'],
  );
  return lastID;
}

export async function finishCapture(
  db: Database,
  id: number,
  u: {
    status: CaptureStatus;
    fromMSec?: number | null;
    toMSec?: number | null;
    bytes?: number | null;
    verbosePath?: string | null;
    captureSessionId?: number | null;
  },
): Promise<void> {
  await db.run(
    'UPDATE captures SET status = ?, from_msec = COALESCE(?, from_msec), to_msec = COALESCE(?, to_msec), bytes = COALESCE(?, bytes), verbose_path = COALESCE(?, verbose_path), capture_session_id = COALESCE(?, capture_session_id) WHERE id = ?',
    [u.status, u.fromMSec ?? null, u.toMSec ?? null, u.bytes ?? null, u.verbosePath ?? null, u.captureSessionId ?? null, id],
  );
}

/** A watch session's captures, in trace-time order. */
export async function listCaptures(db: Database, sessionId: number): Promise<CaptureInfo[]> {
  return (await db.all<Row>('SELECT * FROM captures WHERE session_id = ? ORDER BY gc_start_msec, id', [sessionId])).map(toInfo);
}

export async function getCapture(db: Database, id: number): Promise<CaptureInfo | undefined> {
  const r = await db.get<Row>('SELECT * FROM captures WHERE id = ?', [id]);
  return r === undefined ? undefined : toInfo(r);
}

/** The capture a session was imported from (a capture session), if any. */
export async function captureOfSession(db: Database, captureSessionId: number): Promise<CaptureInfo | undefined> {
  const r = await db.get<Row>('SELECT * FROM captures WHERE capture_session_id = ? ORDER BY id DESC LIMIT 1', [captureSessionId]);
  return r === undefined ? undefined : toInfo(r);
}
