/**
 * A stored session's DATAS / Server GC data (the Server GC lanes, the headroom lane and
 * `report --session`): its dynamic events, change pauses, GC settings and per-GC heap counts from
 * the store, shaped by gc/server-gc.ts exactly as a trace file's are.
 */
import { buildServerGcData } from '../gc/server-gc.js';
import { memorySettingsOf, runtimeMajorOf, type ServerGcData } from '../shared/server-gc.js';
import type { SessionInfo } from '../shared/session.js';
import type { Database } from '../store/db.js';
import { getGcHeapCounts } from '../store/gc-store.js';
import { getDynamicEvents, getServerGcSessionFields } from '../store/server-gc-store.js';

/**
 * `columns`: the session's GC numbers and heap counts when the caller holds them already (the
 * service's view columns), so 100,000 rows are not read again; else they are read from the rows.
 */
export async function serverGcOfSession(
  db: Database,
  s: SessionInfo,
  columns?: { number: ArrayLike<number>; heapCount: ArrayLike<number> },
): Promise<ServerGcData> {
  const [events, fields, counts] = await Promise.all([
    getDynamicEvents(db, s.id),
    getServerGcSessionFields(db, s.id),
    columns !== undefined ? undefined : getGcHeapCounts(db, s.id),
  ]);
  // Built on first use: a workstation session's data never asks (no DATAS samples), and a
  // recording's is asked every second.
  let byNumber: Map<number, number | null> | undefined;
  const heapCountOf = (n: number): number | null => {
    if (byNumber === undefined) {
      byNumber = new Map();
      if (counts !== undefined) for (const r of counts) byNumber.set(r.number, r.heap_count);
      else
        for (let i = 0; i < columns!.number.length; i++) {
          const c = columns!.heapCount[i]!;
          byNumber.set(columns!.number[i]!, Number.isNaN(c) ? null : c);
        }
    }
    return byNumber.get(n) ?? null;
  };
  return buildServerGcData({
    events,
    heapCountOf,
    serverGc: s.gcMode?.startsWith('server') === true,
    gcMode: s.gcMode,
    runtimeMajor: runtimeMajorOf(s.runtimeVersion),
    settings: memorySettingsOf(fields.gcSettings),
    rawDynamicEvents: fields.rawDynamicEvents,
  });
}
