/**
 * "Why this generation": the trigger of a GC and the condemned reasons that chose its generation,
 * the way TraceEvent's GCStats reads them (docs/formats.md §3.4 and §3.5; GcStats.cs GetCondemnedReasonRow,
 * TraceGC.GetCondemnedReasons):
 *
 * - The reasons come from GCPerHeapHistory (one set per heap); with several heaps the first heap
 *   with the highest final generation is the one that decided the GC (FindFirstHighestCondemnedHeap).
 * - GCGlobalHeapHistory V3+ also carries CondemnReasons0/1, but the runtime leaves them 0 in most
 *   GCs (an induced blocking gen2 reads "requested 0, final 0"): they are used only when there is
 *   no per-heap history and their final generation is the GC's own, so a zero is never taken for
 *   a gen0 reason.
 * - The budget-exceeded and time-tuning generations count only when they equal the collected
 *   generation (TraceEvent's CRG_Alloc_Exceeded / CRG_Time_Tuning rule): a gen2 GC whose packed
 *   budget field says 0 was not caused by gen0's budget.
 *
 * Pure: the service passes the stored record's fields and per-heap rows in.
 */
import { gcReasonName } from '../shared/gc-enums.js';
import type { WhyGeneration } from '../shared/contract.js';
import { decodeCondemnedReasons } from './condemned-reasons.js';

export interface CondemnedSource {
  heap: number;
  condemnReasons0: number | null;
  condemnReasons1: number | null;
}

export interface WhyInput {
  generation: number;
  /** GCStart.Type: 0 blocking, 1 background, 2 foreground. */
  type: number;
  reason: number;
  /** GCGlobalHeapHistory's CondemnReasons0/1 (null before V3). */
  globalReasons0: number | null;
  globalReasons1: number | null;
  /** GCPerHeapHistory rows of this GC, any order. */
  heaps: readonly CondemnedSource[];
}

export const NO_CONDEMNED_REASONS =
  'not in this trace: no GCPerHeapHistory or GCGlobalHeapHistory (V3+) with condemned reasons was recorded for this GC (record with gc-collect or gc-verbose on .NET Core 3.0+; Server GC background GCs often have none)';

export function whyGeneration(gc: WhyInput): WhyGeneration {
  const trigger = gcReasonName(gc.reason);
  const withReasons = gc.heaps.filter((h) => h.condemnReasons0 !== null && h.condemnReasons1 !== null);
  let chosen: { r0: number; r1: number; heap: number | null; source: 'per-heap' | 'global' } | null = null;
  if (withReasons.length > 0) {
    const sorted = [...withReasons].sort((a, b) => a.heap - b.heap);
    let best = sorted[0]!;
    for (const h of sorted) if (((h.condemnReasons0! >> 2) & 3) > ((best.condemnReasons0! >> 2) & 3)) best = h;
    chosen = { r0: best.condemnReasons0!, r1: best.condemnReasons1!, heap: sorted.length > 1 ? best.heap : null, source: 'per-heap' };
  } else if (gc.globalReasons0 !== null && gc.globalReasons1 !== null && ((gc.globalReasons0 >> 2) & 3) === gc.generation) {
    chosen = { r0: gc.globalReasons0, r1: gc.globalReasons1, heap: null, source: 'global' };
  }
  if (chosen === null)
    return { trigger, source: null, heap: null, requestedGeneration: null, collectedGeneration: null, factors: [], missing: NO_CONDEMNED_REASONS };
  const d = decodeCondemnedReasons(chosen.r0, chosen.r1);
  // The GC's own generation, not the heap's "final" field: the ephemeral GC a background GC runs
  // first (condition before_bgc) collects gen1 while its per-heap final generation says 0.
  const collected = gc.generation;
  const factors: string[] = [];
  if (d.budgetExceededGeneration === collected) factors.push(`gen${collected} allocation budget exceeded`);
  if (d.timeTuningGeneration === collected && collected > 0) factors.push(`time tuning: gen${collected} was due`);
  factors.push(...d.conditions);
  if (collected > d.initialGeneration) factors.unshift(`escalated from gen${d.initialGeneration} to gen${collected}`);
  else if (factors.length === 0) factors.push(`the trigger asked for gen${d.initialGeneration}`);
  if (gc.type === 1) factors.push('run as a background GC: the application kept running during most of it');
  return {
    trigger,
    source: chosen.source,
    heap: chosen.heap,
    requestedGeneration: d.initialGeneration,
    collectedGeneration: collected,
    factors,
    missing: null,
  };
}
