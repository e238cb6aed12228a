/**
 * DATAS / Server GC rows (migration 4): the GC dynamic events of a session in arrival order, with
 * the GC each was attached to, the heap-count change pauses outside GCs (stored in the same table
 * under the name 'SuspendForGCPrep'), and the session's count of dynamic events kept raw.
 */
import type { Database, SqlValue } from './db.js';

/** One stored row: a decoded dynamic event (its fields as in gc-dynamic.ts) or a change pause. */
export interface DynamicEventRow {
  gcIndex: number | null;
  gcNumber: number | null;
  timeMSec: number;
  name: string;
  data: Record<string, unknown>;
}

export const PREP_PAUSE_NAME = 'SuspendForGCPrep';

/** The INSERT head of dynamic-event rows (values: dynamicEventRow). */
export const INSERT_DYNAMIC_EVENT = 'INSERT OR REPLACE INTO gc_dynamic_events (session_id, seq, gc_idx, gc_number, time_msec, name, data) VALUES ';

/** One row for INSERT_DYNAMIC_EVENT; `seq` numbers a session's rows in arrival order. */
export function dynamicEventRow(sessionId: number, seq: number, r: DynamicEventRow): SqlValue[] {
  return [sessionId, seq, r.gcIndex, r.gcNumber, r.timeMSec, r.name, JSON.stringify(r.data)];
}

export async function getDynamicEvents(db: Database, sessionId: number): Promise<DynamicEventRow[]> {
  const rows = await db.all<{ gc_idx: number | null; gc_number: number | null; time_msec: number; name: string; data: string }>(
    'SELECT gc_idx, gc_number, time_msec, name, data FROM gc_dynamic_events WHERE session_id = ? ORDER BY seq',
    [sessionId],
  );
  return rows.map((r) => ({
    gcIndex: r.gc_idx,
    gcNumber: r.gc_number,
    timeMSec: r.time_msec,
    name: r.name,
    data: JSON.parse(r.data) as Record<string, unknown>,
  }));
}

export async function setRawDynamicEventCounts(db: Database, sessionId: number, counts: Record<string, number>): Promise<void> {
  await db.run('UPDATE sessions SET raw_dynamic_events = ? WHERE id = ?', [JSON.stringify(counts), sessionId]);
}

/** What the session row holds for the Server GC view: GC settings (JSON of GCSettingsRundown) and raw dynamic-event counts. */
export async function getServerGcSessionFields(
  db: Database,
  sessionId: number,
): Promise<{ gcSettings: Record<string, number> | null; rawDynamicEvents: Record<string, number> }> {
  const r = await db.get<{ gc_settings: string | null; raw_dynamic_events: string | null }>(
    'SELECT gc_settings, raw_dynamic_events FROM sessions WHERE id = ?',
    [sessionId],
  );
  return {
    gcSettings: r?.gc_settings ? (JSON.parse(r.gc_settings) as Record<string, number>) : null,
    rawDynamicEvents: r?.raw_dynamic_events ? (JSON.parse(r.raw_dynamic_events) as Record<string, number>) : {},
  };
}

/** Per heap of one GC: GCMarkWithType promoted bytes and mark time by root kind (null without the events). */
export async function getHeapMarks(db: Database, sessionId: number, gcIndex: number): Promise<Map<number, { bytes: number[]; msec: number[] }>> {
  const rows = await db.all<{ heap: number; mark: string | null }>('SELECT heap, mark FROM gc_heaps WHERE session_id = ? AND gc_idx = ? ORDER BY heap', [
    sessionId,
    gcIndex,
  ]);
  const out = new Map<number, { bytes: number[]; msec: number[] }>();
  for (const r of rows) if (r.mark !== null) out.set(r.heap, JSON.parse(r.mark) as { bytes: number[]; msec: number[] });
  return out;
}

/** Promoted MB per heap (GCMarkWithType bytes summed over root kinds), by GC index, for GCs that have marks. */
export async function getPerHeapPromotedMB(db: Database, sessionId: number): Promise<Map<number, number[]>> {
  const rows = await db.all<{ gc_idx: number; heap: number; mark: string }>(
    'SELECT gc_idx, heap, mark FROM gc_heaps WHERE session_id = ? AND mark IS NOT NULL ORDER BY gc_idx, heap',
    [sessionId],
  );
  const out = new Map<number, number[]>();
  for (const r of rows) {
    const m = JSON.parse(r.mark) as { bytes: number[] };
    const a = out.get(r.gc_idx) ?? [];
    a.push(m.bytes.reduce((s, b) => s + (b ?? 0), 0) / 1e6);
    out.set(r.gc_idx, a);
  }
  return out;
}

/**
 * The LOH allocation waits stored with background GCs (migration 5; measured by
 * gc/bgc-alloc-waits.ts), only the rows that have one: a wait ends after its GC completed, so a
 * recording's live columns lack it and the service puts these few rows into them.
 */
export async function getBgcLohWaits(db: Database, sessionId: number): Promise<{ idx: number; maxMSec: number; totalMSec: number }[]> {
  const rows = await db.all<{ idx: number; m: number; t: number }>(
    'SELECT idx, loh_wait_max_msec AS m, loh_wait_total_msec AS t FROM gcs WHERE session_id = ? AND type = 1 AND loh_wait_max_msec IS NOT NULL',
    [sessionId],
  );
  return rows.map((r) => ({ idx: r.idx, maxMSec: r.m, totalMSec: r.t }));
}
