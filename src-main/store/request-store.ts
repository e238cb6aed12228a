/**
 * Request spans and GC pause intervals per session (migration 12; issue 42). Written with the GC
 * rows through the session's writer (rows queued by the session pipeline), read whole for the
 * requests analysis: a span is 6 values, so a million requests read in well under a second.
 */
import type { PauseInterval, RequestSpan } from '../shared/requests.js';
import type { Database, SqlValue } from './db.js';

export const REQUEST_TABLES = ['request_spans', 'gc_pause_intervals'] as const;

export const INSERT_REQUEST_SPAN = 'INSERT OR REPLACE INTO request_spans (session_id, seq, start_msec, duration_msec, grp, name) VALUES ';
export const INSERT_PAUSE_INTERVAL = 'INSERT OR REPLACE INTO gc_pause_intervals (session_id, seq, start_msec, end_msec, gc_number, generation, type) VALUES ';

export function requestSpanRow(sessionId: number, seq: number, s: RequestSpan): SqlValue[] {
  return [sessionId, seq, s.startMSec, s.durationMSec, s.group, s.name];
}

export function pauseIntervalRow(sessionId: number, seq: number, p: PauseInterval): SqlValue[] {
  return [sessionId, seq, p.startMSec, p.endMSec, p.gcNumber, p.generation, p.type];
}

/** A session's request spans in the order they ended. */
export async function getRequestSpans(db: Database, sessionId: number): Promise<RequestSpan[]> {
  const rows = await db.all<{ start_msec: number; duration_msec: number; grp: string; name: string }>(
    'SELECT start_msec, duration_msec, grp, name FROM request_spans WHERE session_id = ? ORDER BY seq',
    [sessionId],
  );
  return rows.map((r) => ({ startMSec: r.start_msec, durationMSec: r.duration_msec, group: r.grp, name: r.name }));
}

/** A session's GC pause intervals in time order. */
export async function getPauseIntervals(db: Database, sessionId: number): Promise<PauseInterval[]> {
  const rows = await db.all<{ start_msec: number; end_msec: number; gc_number: number; generation: number; type: number }>(
    'SELECT start_msec, end_msec, gc_number, generation, type FROM gc_pause_intervals WHERE session_id = ? ORDER BY seq',
    [sessionId],
  );
  return rows.map((r) => ({ startMSec: r.start_msec, endMSec: r.end_msec, gcNumber: r.gc_number, generation: r.generation, type: r.type }));
}
