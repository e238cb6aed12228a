/**
 * The trace facts the rules need, from what a report source or a session row already says
 * (both carry these fields under the same names).
 */
import type { ServerGcData } from '../shared/server-gc.js';
import type { DiagnosisFacts } from './rule.js';

export interface FactsSource {
  firstEventMSec: number | null;
  lastEventMSec: number | null;
  hasPerHeapHistory: boolean;
  gcMode: string | null;
  heapCount: number | null;
  concurrent: boolean | null;
  serverGc?: ServerGcData | undefined;
  cpuCount?: number | null | undefined;
  perHeapPromotedMB?: ReadonlyMap<number, readonly number[]> | undefined;
  perHeapSurvivedMB?: DiagnosisFacts['perHeapSurvivedMB'];
}

export function diagnosisFacts(s: FactsSource): DiagnosisFacts {
  return {
    firstEventMSec: s.firstEventMSec,
    lastEventMSec: s.lastEventMSec,
    hasPerHeapHistory: s.hasPerHeapHistory,
    gcMode: s.gcMode,
    heapCount: s.heapCount,
    concurrent: s.concurrent,
    ...(s.serverGc !== undefined ? { serverGc: s.serverGc } : {}),
    ...(s.cpuCount !== undefined ? { cpuCount: s.cpuCount } : {}),
    ...(s.perHeapPromotedMB !== undefined ? { perHeapPromotedMB: s.perHeapPromotedMB } : {}),
    ...(s.perHeapSurvivedMB !== undefined ? { perHeapSurvivedMB: s.perHeapSurvivedMB } : {}),
  };
}
