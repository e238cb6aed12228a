/**
 * A stored session's DATAS / Server GC data (the Server GC lanes, the headroom lane and
 * `report --session`): its dynamic events, change pauses, GC settings and per-GC heap counts from
 * the store, shaped by gc/server-gc.ts exactly as a trace file's are.
 */
import { buildServerGcData } from '../gc/server-gc.js';
import { memorySettingsOf, runtimeMajorOf, type ServerGcData } from '../shared/server-gc.js';
import type { SessionInfo } from '../shared/session.js';
import type { Database } from '../store/db.js';
import { getDynamicEvents, getServerGcSessionFields } from '../store/server-gc-store.js';

export async function serverGcOfSession(db: Database, s: SessionInfo): Promise<ServerGcData> {
  const [events, fields, counts] = await Promise.all([
    getDynamicEvents(db, s.id),
    getServerGcSessionFields(db, s.id),
    db.all<{ number: number; heap_count: number | null }>('SELECT number, heap_count FROM gcs WHERE session_id = ?', [s.id]),
  ]);
  const byNumber = new Map(counts.map((r) => [r.number, r.heap_count]));
  return buildServerGcData({
    events,
    heapCountOf: (n) => byNumber.get(n) ?? null,
    serverGc: s.gcMode?.startsWith('server') === true,
    gcMode: s.gcMode,
    runtimeMajor: runtimeMajorOf(s.runtimeVersion),
    settings: memorySettingsOf(fields.gcSettings),
    rawDynamicEvents: fields.rawDynamicEvents,
  });
}
