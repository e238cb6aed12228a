/**
 * The trace facts the rules need, from what a report source or a session row already says
 * (both carry these fields under the same names).
 */
import type { DiagnosisFacts } from './rule.js';

/** The facts every source has, and the optional ones it may have (absent or undefined: not known). */
type OptionalFact = 'serverGc' | 'cpuCount' | 'perHeapPromotedMB' | 'perHeapSurvivedMB' | 'lastHeapStatsMSec' | 'requests' | 'snapshotGcNumbers';
export type FactsSource = Pick<DiagnosisFacts, 'firstEventMSec' | 'lastEventMSec' | 'hasPerHeapHistory' | 'gcMode' | 'heapCount' | 'concurrent'> & {
  [K in OptionalFact]?: DiagnosisFacts[K] | undefined;
};

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
    ...(s.lastHeapStatsMSec !== undefined ? { lastHeapStatsMSec: s.lastHeapStatsMSec } : {}),
    ...(s.perHeapPromotedMB !== undefined ? { perHeapPromotedMB: s.perHeapPromotedMB } : {}),
    ...(s.perHeapSurvivedMB !== undefined ? { perHeapSurvivedMB: s.perHeapSurvivedMB } : {}),
    ...(s.requests !== undefined ? { requests: s.requests } : {}),
    ...(s.snapshotGcNumbers !== undefined && s.snapshotGcNumbers.length > 0 ? { snapshotGcNumbers: s.snapshotGcNumbers } : {}),
  };
}
