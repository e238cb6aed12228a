/**
 * The contract's getServerGc and getHeapBalance: a session's DATAS / Server GC data (the Server GC
 * lane group and the memory headroom lane) and one GC's per-heap balance, read from the store
 * (store/server-gc-store.ts, server-gc-source.ts) and shaped by the same code as the report
 * (gc/server-gc.ts).
 */
import type { HeapBalanceRow, ServerGcData } from '../shared/server-gc.js';
import type { SessionInfo } from '../shared/session.js';
import type { Database } from '../store/db.js';
import { getHeapDetail, hasGc } from '../store/gc-store.js';
import { getHeapMarks } from '../store/server-gc-store.js';
import { ApiFailure } from './errors.js';

export class ServerGcViews {
  constructor(
    private readonly db: Database,
    private readonly session: (id: number) => Promise<SessionInfo>,
    /** The session's data, from the view columns the session view already holds (SessionViews.serverGcData). */
    private readonly serverGcOf: (s: SessionInfo) => Promise<ServerGcData>,
  ) {}

  async getServerGc(sessionId: number): Promise<ServerGcData> {
    return this.serverGcOf(await this.session(sessionId));
  }

  /** Per heap of one GC: survived bytes (per-heap history) and mark by root kind (GCMarkWithType). */
  async getHeapBalance(sessionId: number, gcIndex: number): Promise<HeapBalanceRow[]> {
    await this.session(sessionId);
    const [heaps, marks] = await Promise.all([getHeapDetail(this.db, sessionId, gcIndex), getHeapMarks(this.db, sessionId, gcIndex)]);
    if (heaps.length === 0 && marks.size === 0) {
      if (!(await hasGc(this.db, sessionId, gcIndex))) throw new ApiFailure('not-found', `GC index ${gcIndex} is not in session ${sessionId}.`);
    }
    return heaps.map((h) => {
      const m = marks.get(h.heap);
      return {
        heap: h.heap,
        survivedBytes: h.gens.reduce((a, g) => a + g.pinnedSurv + g.nonePinnedSurv, 0),
        markBytes: m?.bytes ?? [],
        markMSec: m?.msec ?? [],
      };
    });
  }
}
