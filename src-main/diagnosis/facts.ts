/**
 * The trace facts the rules need, from what a report source or a session row already says
 * (both carry these fields under the same names).
 */
import type { DiagnosisFacts } from './rule.js';

export interface FactsSource {
  firstEventMSec: number | null;
  lastEventMSec: number | null;
  hasPerHeapHistory: boolean;
  gcMode: string | null;
  heapCount: number | null;
  concurrent: boolean | null;
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
    ...(s.perHeapSurvivedMB !== undefined ? { perHeapSurvivedMB: s.perHeapSurvivedMB } : {}),
  };
}
