/**
 * The per-GC record every consumer sees — the store, `report --format json|csv`, the web bridge
 * and the renderer. Its fields are declared once, in the column registry
 * (gc-column-registry.ts); names follow TraceEvent's `TraceGC` so results compare with it;
 * per-generation arrays are [gen0, gen1, gen2, LOH, POH]. A value the trace cannot support is
 * `null` (never NaN or a made-up 0); `UNAVAILABLE_REASONS` says why.
 * Types only (plus constant tables): shared with the renderer.
 */

export { GEN_LABELS, type Gen5, type GcRecord } from './gc-column-registry.js';

/** Why a metric can be unavailable (keys used in reports and the GC detail). */
export const UNAVAILABLE_REASONS = {
  noPerHeapHistory: 'no per-heap history in this trace: record with the GC keyword at Informational level or higher (gc-collect or gc-verbose)',
  notCollected: 'this generation was not collected by this GC',
  noHeapStats: 'the GC has no HeapStats event (trace ended or events were lost)',
  noGCEnd: 'the GC has no GCEnd event (trace ended or events were lost)',
  noGlobalHistory: 'no GlobalHeapHistory event for this GC',
  noPinEvents: 'no pinning events: record with gc-verbose (PinObjectAtGCTime / PinPlugAtGCTime are Verbose)',
  noCommittedUsage: 'no CommittedUsage events (needs .NET 8 or later)',
  cpuSamples:
    "needs CPU samples of the GC's threads: EventPipe GC traces carry none, and GCScope does not yet read an ETW trace's kernel samples (PerfInfo/Sample) for it, as PerfView does",
  incomplete: 'the GC never completed in this trace',
} as const;

export type UnavailableReason = keyof typeof UNAVAILABLE_REASONS;

/** TraceEvent's IsInduced: the GC reason is Induced (1) or InducedNotForced (7). */
export function isInducedReason(reason: number): boolean {
  return reason === 1 || reason === 7;
}
